#include "test_paths.hpp"

namespace tfsift::test_paths {
const char* const source_dir = TFSIFT_SOURCE_DIR_VALUE;
const char* const shared_dir = TFSIFT_SHARED_DIR_VALUE;
}  // namespace tfsift::test_paths
