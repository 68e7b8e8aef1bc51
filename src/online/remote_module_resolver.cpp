// Module calls answered from the module cache or the network.
#include "tfsift/online/remote_module_resolver.hpp"

#include <fmt/format.h>

namespace tfsift::online {

config::ModuleResolution to_resolution(const ModuleFetchResult& result) {
    using config::ModuleUnavailableKind;
    switch (result.status) {
        case ModuleFetchStatus::ok: {
            config::ResolvedModule m;
            m.dir = result.dir.string();
            m.package_dir = result.package_dir.string();
            m.provenance = result.fetched ? config::ModuleProvenance::network : config::ModuleProvenance::cache;
            m.version = result.version;
            m.revision = result.revision;
            return config::ModuleResolution::found(std::move(m));
        }
        case ModuleFetchStatus::not_cached: return config::ModuleResolution::missing(ModuleUnavailableKind::not_fetched, "");
        case ModuleFetchStatus::unsupported:
            return config::ModuleResolution::missing(ModuleUnavailableKind::unsupported, result.detail);
        case ModuleFetchStatus::failed: break;
    }
    return config::ModuleResolution::missing(ModuleUnavailableKind::failed,
                                             fmt::format("{}: {}", result.summary, result.detail));
}

config::ModuleResolution RemoteModuleResolver::resolve(const config::ModuleRequest& request) {
    if (request.parsed.kind == config::ModuleSourceKind::local) {
        return config::ModuleResolution::missing(config::ModuleUnavailableKind::not_found, "");
    }
    return to_resolution(fetcher_->fetch(request.source, request.version));
}

}  // namespace tfsift::online
