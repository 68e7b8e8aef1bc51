// What the build recorded about the source it was made from. The definition
// is written into the build directory at build time (cmake/build_info.cmake),
// so that a new commit recompiles one small file and nothing else.
#pragma once

#include <string_view>

namespace tfsift::cli {

// The commit of the source tree: git's abbreviated commit id (12 hex digits,
// with "-dirty" when tracked files had uncommitted changes), or the
// -DTFSIFT_COMMIT= the build was configured with (a source archive, a
// container build without .git). Empty when neither is known.
std::string_view build_commit();

}  // namespace tfsift::cli
