// The checks `terraform test` makes of a test file against the
// configuration under test once both are loaded: override targets that the
// configuration does not declare, and provider configurations that runs
// pass but the file does not define.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/config/module_checks.hpp"
#include "tfsift/config/test_file.hpp"

namespace tfsift::config {

// Whether the module `m` (whose loaded children are `children`, null when
// they are not known) declares the object that the override target names
// (`names`: the target's names without instance keys). A module call that
// is not loaded is taken to declare everything below it.
bool override_target_exists(const Module& m, const std::map<std::string, LoadedModule>* children,
                            const std::vector<std::string>& names);

// The problems of the test file `file` of the module `root`, named `name`
// relative to the module directory; `run_modules` are the local modules its
// runs execute, by normalized source (null when the directory cannot be
// read).
std::vector<ModuleProblem> check_test_file(const TestFile& file, std::string_view name, const LoadedModule& root,
                                           const std::map<std::string, std::shared_ptr<const Module>>& run_modules,
                                           Engine engine);

}  // namespace tfsift::config
