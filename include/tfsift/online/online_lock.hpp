// `tfsift lock` online: what `terraform providers lock` does (spec 9.3):
// fetch every required provider for every requested platform from its
// origin registry (or one network mirror), then rewrite the lock file with
// the `h1:` of each platform's unpacked package, the registry's signed
// `zh:` lines and every hash the old entry had. All or nothing: any failed
// fetch leaves the file byte-identical. Progress lines use Terraform's
// words with "tfsift" in them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tfsift/config/tree_requirements.hpp"
#include "tfsift/online/provider_fetcher.hpp"
#include "tfsift/providers/lock_repair.hpp"

namespace tfsift::online {

struct OnlineLockRequest {
    std::filesystem::path dir;              // the root module
    config::TreeRequirements requirements;  // from the configuration
    std::vector<providers::Provider> only;  // --provider; empty: all
    providers::RepairOptions repair;        // engine, platforms, partial requirements
    FetchOptions fetch;
    // `tfsift lint --fix`: take packages from the CLI configuration's
    // provider_installation methods (or the implied ones), as `init` does;
    // otherwise from the origin registries, as `providers lock` does.
    bool use_installation_methods = false;
    // --enable-plugin-cache: the plugin cache directory to unpack every
    // fetched package into (<dir>/<host>/<ns>/<type>/<v>/<os_arch>/); empty:
    // the plugin cache is never written.
    std::filesystem::path plugin_cache_dir;
};

struct OnlineLockOutcome {
    std::vector<std::string> progress;  // "- Fetching ...", "- Retrieved ...", "- Obtained ...", then "Success! ..."
    std::vector<std::string> warnings;
    std::vector<std::string> errors;  // nothing was written when not empty
    providers::LockUpdate update;
    std::uint64_t downloads = 0;
    [[nodiscard]] bool ok() const { return errors.empty(); }
};

[[nodiscard]] OnlineLockOutcome lock_online(const OnlineLockRequest& request, const providers::Environment& env);

}  // namespace tfsift::online
