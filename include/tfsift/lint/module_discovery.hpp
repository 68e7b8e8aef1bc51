// Finding the modules to lint: configuration files of a directory, module
// directories below a path, the engine flavour a directory is written for,
// and the local module calls that make a module "called".
#pragma once

#include <string>
#include <vector>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

// The native-syntax configuration files of a module directory, sorted by
// name: `.tf`, and for OpenTofu `.tofu` (which shadows the `.tf` file of the
// same base name). Hidden files and editor backups are left out, as Terraform
// does. Excluded files (settings `exclude`) are dropped.
std::vector<std::string> module_config_files(const std::string& dir, EngineFlavour engine, const Settings& settings);

// Every directory at or below `root` that holds configuration files, sorted;
// hidden directories (.terraform, .git) and excluded ones are skipped.
std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings);

// OpenTofu when the directory has `.tofu` files or a lock file written by
// `tofu init`; Terraform otherwise.
EngineFlavour detect_engine(const std::string& dir);

// The directories named by the local sources ("./x", "../x") of the module
// calls in `file`, resolved against `module_dir`, absolute and normal.
std::vector<std::string> local_module_calls(const hcl::File& file, const std::string& module_dir);

}  // namespace tfsift::lint
