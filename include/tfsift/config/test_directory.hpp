// The test directory of a module: the directory below it whose test files
// `terraform test` and `terraform validate` read besides the module's own,
// `tests` unless `-test-directory` names another (for tfsift the
// `test_directory` setting). The path is relative to each module directory
// and stays below it: a setting read from a repository may only narrow
// what is read.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tfsift::config {

inline constexpr std::string_view default_test_directory = "tests";

// `written` as a path below a module directory: `/` separators, `.` and
// empty components dropped ("./spec//unit/" is "spec/unit"). Nullopt with
// `why` set when it is absolute, climbs with `..`, holds a backslash or
// names the module directory itself.
std::optional<std::string> normal_test_directory(std::string_view written, std::string& why);

// The module directory of a test file whose directory is `dir`, when `dir`
// is the test directory `test_directory` (normal) of a module: `dir`
// without its last components. Nullopt when `dir` does not end with them.
// "." stands for the current directory in the result, as in `dir`.
std::optional<std::string> module_dir_above_test_directory(std::string_view dir, std::string_view test_directory);

}  // namespace tfsift::config
