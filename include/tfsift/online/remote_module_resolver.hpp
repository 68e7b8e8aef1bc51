// The module source resolver (config/module_source_resolver.hpp) that
// answers from tfsift's module cache and, when the command may use the
// network, fetches what is missing (module_fetcher.hpp). It comes after the
// `.terraform/modules` resolver in every command's chain.
#pragma once

#include <memory>

#include "tfsift/config/module_source_resolver.hpp"
#include "tfsift/online/module_fetcher.hpp"

namespace tfsift::online {

class RemoteModuleResolver final : public config::ModuleSourceResolver {
public:
    explicit RemoteModuleResolver(std::shared_ptr<ModuleFetcher> fetcher) : fetcher_(std::move(fetcher)) {}
    config::ModuleResolution resolve(const config::ModuleRequest& request) override;

    [[nodiscard]] ModuleFetcher& fetcher() { return *fetcher_; }

private:
    std::shared_ptr<ModuleFetcher> fetcher_;
};

// A fetch result as the loader wants it.
[[nodiscard]] config::ModuleResolution to_resolution(const ModuleFetchResult& result);

}  // namespace tfsift::online
