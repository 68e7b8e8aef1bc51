// Where the unit tests find the repository and the shared referee material.
// The paths are compiled into test_paths.cpp alone, and this header is
// included into every unit test by the build, so that the other test sources
// compile to the same objects in every checkout (a compiler cache shares them).
#pragma once

namespace tfsift::test_paths {
extern const char* const source_dir;  // the repository
extern const char* const shared_dir;  // ../shared beside it
}  // namespace tfsift::test_paths

#define TFSIFT_SOURCE_DIR (::tfsift::test_paths::source_dir)
#define TFSIFT_SHARED_DIR (::tfsift::test_paths::shared_dir)
