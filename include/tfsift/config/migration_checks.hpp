// The checks Terraform makes once it has read all of a module's state
// migration files (`terraform state migrate`): one `from` block and one
// `state_store_provider` block across the files, a state store named with
// the provider release it needs, and the two naming the same provider.
#pragma once

#include <vector>

#include "tfsift/config/migration_file.hpp"
#include "tfsift/config/module_checks.hpp"

namespace tfsift::config {

// The problems of combining `files` (in load order). Terraform makes these
// checks only when the files themselves decoded without errors; callers do
// the same, so that one mistake is not reported twice.
std::vector<ModuleProblem> check_migration_files(const std::vector<const MigrationFile*>& files);

}  // namespace tfsift::config
