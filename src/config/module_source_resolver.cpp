#include "tfsift/config/module_source_resolver.hpp"

#include <utility>

namespace tfsift::config {

std::string ModuleRequest::key() const {
    std::string out;
    for (const auto& name : path) {
        if (!out.empty()) out += '.';
        out += name;
    }
    return out;
}

std::string ModuleRequest::address() const {
    std::string out;
    for (const auto& name : path) {
        if (!out.empty()) out += '.';
        out += "module.";
        out += name;
    }
    return out;
}

std::string_view to_string(ModuleProvenance provenance) {
    switch (provenance) {
        case ModuleProvenance::installed: return "installed";
        case ModuleProvenance::cache: return "cache";
        case ModuleProvenance::network: return "network";
    }
    return "installed";
}

std::string_view to_string(ModuleUnavailableKind kind) {
    switch (kind) {
        case ModuleUnavailableKind::not_found: return "not_found";
        case ModuleUnavailableKind::not_fetched: return "not_fetched";
        case ModuleUnavailableKind::unsupported: return "unsupported";
        case ModuleUnavailableKind::failed: return "failed";
    }
    return "not_found";
}

ModuleResolution ModuleResolution::found(ResolvedModule m) {
    ModuleResolution r;
    r.module = std::move(m);
    return r;
}

ModuleResolution ModuleResolution::missing(ModuleUnavailableKind kind, std::string reason) {
    ModuleResolution r;
    r.unavailable = ModuleUnavailable{kind, std::move(reason)};
    return r;
}

ModuleResolution ModuleResolverChain::resolve(const ModuleRequest& request) {
    // The declared order of the kinds is their order of importance.
    std::vector<ModuleUnavailable> said;
    for (const auto& resolver : resolvers_) {
        if (!resolver) continue;
        ModuleResolution r = resolver->resolve(request);
        if (r.resolved()) return r;
        said.push_back(std::move(r.unavailable));
    }
    if (said.empty()) return ModuleResolution::missing(ModuleUnavailableKind::not_found, {});
    std::size_t best = 0;
    for (std::size_t i = 1; i < said.size(); ++i) {
        if (said[i].kind > said[best].kind) best = i;
    }
    ModuleUnavailable out = said[best];
    for (std::size_t i = 0; i < said.size(); ++i) {
        if (i == best || said[i].reason.empty() || said[i].reason == out.reason) continue;
        out.reason += out.reason.empty() ? said[i].reason : " " + said[i].reason;
    }
    return ModuleResolution::missing(out.kind, std::move(out.reason));
}

}  // namespace tfsift::config
