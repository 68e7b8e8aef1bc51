// The module a mock data file (`.tfmock.hcl`, `.tfmock.json`) belongs to.
// A test file's `mock_provider` reads such files from its `source`
// directory, relative to the module under test (`./tests/mocks/aws`), so the
// module is the nearest directory at or above the file's own that holds
// configuration files.
#pragma once

#include <optional>
#include <string>

namespace tfsift::config {

// The nearest directory at or above `dir` (as named: relative, "." or
// absolute) that holds a configuration file of either engine, named the
// same way ("." for the current directory); nullopt when none does.
std::optional<std::string> module_dir_of_mock_data(const std::string& dir);

}  // namespace tfsift::config
