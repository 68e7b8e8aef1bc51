// The provider installation methods `terraform init` takes packages from
// (spec 7.2, 8.2-8.3): the CLI configuration's provider_installation block
// as written, or without one the implied configuration. `tfsift lint --fix`
// fetches what the packages on disk cannot give through them.
#pragma once

#include <filesystem>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/providers/package_sources.hpp"

namespace tfsift::providers {

// The block's methods in order; without a block, a filesystem mirror per
// implied local directory (implied_mirror_directories) and then `direct`
// excluding every provider found in those directories. `cwd` is the
// launch directory.
[[nodiscard]] std::vector<InstallationMethod> installation_methods(const CliConfig& config, const Environment& env,
                                                                   Engine engine, const std::filesystem::path& cwd);

}  // namespace tfsift::providers
