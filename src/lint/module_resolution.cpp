#include "tfsift/lint/module_resolution.hpp"

#include <vector>

#include "tfsift/config/installed_modules.hpp"
#include "tfsift/online/module_cache.hpp"
#include "tfsift/online/remote_module_resolver.hpp"

namespace tfsift::lint {

std::shared_ptr<config::ModuleSourceResolver> default_module_resolver(const ModuleFetchPolicy& policy,
                                                                      const ScanListings* listings) {
    std::vector<std::shared_ptr<config::ModuleSourceResolver>> chain;
    chain.push_back(std::make_shared<config::InstalledModulesResolver>(listings));
    online::ModuleFetchOptions options;
    options.online = policy.network;
    options.engine = policy.engine;
    options.engine_version = policy.engine_version;
    if (!policy.cache_dir.empty()) options.cache_dir = online::module_cache_dir_in(policy.cache_dir);
    chain.push_back(std::make_shared<online::RemoteModuleResolver>(
        std::make_shared<online::ModuleFetcher>(std::move(options), providers::process_environment())));
    return std::make_shared<config::ModuleResolverChain>(std::move(chain));
}

}  // namespace tfsift::lint
