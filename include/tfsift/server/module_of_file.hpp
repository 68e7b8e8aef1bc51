// Which module directory a file the editor names belongs to, so that an
// edit to it lints that module and its findings are published with it.
#pragma once

#include <string>

namespace tfsift::server {

// The module `path` (absolute) belongs to: its directory, except for a test
// file in a module's test directory (`tests/`, or what the nearest settings
// file names in `test_directory`), which belongs to that module, as
// `terraform test` reads it, and a mock data file
// (`.tfmock.hcl`), which belongs to the module whose test files name its
// directory as a mock provider's `source` (relative to the module, such as
// `./tests/mocks`): the nearest directory at or above its own that holds
// configuration files.
std::string module_dir_of(const std::string& path);

}  // namespace tfsift::server
