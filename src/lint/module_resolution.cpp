#include "tfsift/lint/module_resolution.hpp"

#include <vector>

#include "tfsift/config/installed_modules.hpp"

namespace tfsift::lint {

std::shared_ptr<config::ModuleSourceResolver> default_module_resolver(const ModuleFetchPolicy& policy) {
    static_cast<void>(policy);  // the cache and the network come next in the chain
    std::vector<std::shared_ptr<config::ModuleSourceResolver>> chain;
    chain.push_back(std::make_shared<config::InstalledModulesResolver>());
    return std::make_shared<config::ModuleResolverChain>(std::move(chain));
}

}  // namespace tfsift::lint
