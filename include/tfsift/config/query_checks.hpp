// The checks Terraform makes when it adds a module's query files to the
// module (`terraform query`, `validate -query`): provider configurations,
// variables, locals and lists declared twice, across the query files and
// the module's configuration files; and list blocks in a module that is
// called as a child module.
#pragma once

#include <optional>
#include <vector>

#include "tfsift/config/module_checks.hpp"
#include "tfsift/config/query_file.hpp"

namespace tfsift::config {

// The problems of adding `files` (in load order) to the merged module `m`.
std::vector<ModuleProblem> check_query_files(const std::vector<const QueryFile*>& files, const Module& m);

// The error for a module whose query files hold list blocks when it is called
// as a child module: only the root module may have them. Unset when none of
// `files` has a list block.
std::optional<ModuleProblem> list_in_called_module(const std::vector<const QueryFile*>& files);

}  // namespace tfsift::config
