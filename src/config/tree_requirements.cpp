// Collecting the provider requirements of a whole module tree.
#include "tfsift/config/tree_requirements.hpp"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace tfsift::config {

using providers::implied_local_name;
using providers::implied_provider;
using providers::parse_config_constraints;
using providers::parse_provider_source;

namespace {

// The constraint strings of a decoded `version` value: a string or a list of
// strings (the loader keeps the comma-separated pieces).
std::vector<std::string> constraint_strings(const nlohmann::json& value) {
    std::vector<std::string> out;
    if (value.is_string()) out.push_back(value.get<std::string>());
    if (value.is_array()) {
        for (const auto& v : value) {
            if (v.is_string()) out.push_back(v.get<std::string>());
        }
    }
    return out;
}

std::string join(const std::vector<std::string>& pieces) {
    std::string out;
    for (const auto& p : pieces) out += (out.empty() ? "" : ", ") + p;
    return out;
}

class Collector {
public:
    Collector(Engine engine, TreeRequirements& out) : engine_(engine), out_(out) {}

    void module(const LoadedModule& m, const std::string& root_call) {
        const Module& mod = *m.module;
        for (const auto& [name, rp] : mod.terraform.required_providers) {
            auto provider = resolve_local_name(mod, name, engine_);
            if (!provider) continue;
            add(*provider, m, rp.origin, root_call, rp.version_constraints);
        }
        for (const auto& [key, p] : mod.providers) {
            auto provider = resolve_local_name(mod, p.name, engine_);
            if (!provider) continue;
            std::vector<std::string> constraints;
            if (p.version_constraints) constraints = constraint_strings(p.version_constraints->value);
            add(*provider, m, p.origin, root_call, constraints);
        }
        // A module's resources name a few providers, most of them the same
        // one: each local name is resolved once, to its requirement.
        std::vector<std::pair<std::string_view, TreeRequirement*>> by_local_name;
        for (const auto* resources : {&mod.resources, &mod.data, &mod.ephemeral, &mod.actions}) {
            for (const auto& [key, r] : *resources) {
                const std::string_view local =
                    r.provider_ref ? std::string_view(*r.provider_ref).substr(0, r.provider_ref->find('.'))
                                   : implied_local_name(r.type);
                auto known = std::find_if(by_local_name.begin(), by_local_name.end(),
                                          [local](const auto& entry) { return entry.first == local; });
                if (known == by_local_name.end()) {
                    auto provider = resolve_local_name(mod, local, engine_);
                    known =
                        by_local_name.emplace(by_local_name.end(), local, provider ? &requirement(*provider) : nullptr);
                }
                if (known->second == nullptr) continue;
                known->second->sites.push_back({&m, r.origin, root_call, std::string()});
            }
        }
        // A state store's provider is installed and locked like any other.
        if (mod.terraform.state_store && !mod.terraform.state_store_provider.empty()) {
            if (auto provider = resolve_local_name(mod, mod.terraform.state_store_provider, engine_)) {
                add(*provider, m, mod.terraform.state_store->origin, root_call, {});
            }
        }
        for (const auto& [name, child] : m.children) {
            module(child, root_call.empty() && m.address.empty() ? name : root_call);
        }
    }

private:
    // The entry of `provider`, made when it is the first time.
    TreeRequirement& requirement(const providers::Provider& provider) {
        auto& req = out_[provider];
        req.provider = provider;
        return req;
    }

    void add(const providers::Provider& provider, const LoadedModule& m, const Origin& origin,
             const std::string& root_call, const std::vector<std::string>& constraints) {
        auto& req = requirement(provider);
        for (const auto& text : constraints) {
            auto parsed = parse_config_constraints(text);
            if (!parsed.constraints) continue;
            req.constraints.insert(req.constraints.end(), parsed.constraints->begin(), parsed.constraints->end());
        }
        req.sites.push_back({&m, origin, root_call, join(constraints)});
    }

    Engine engine_;
    TreeRequirements& out_;
};

}  // namespace

std::optional<providers::Provider> resolve_local_name(const Module& module, std::string_view local_name,
                                                      Engine engine) {
    auto it = module.terraform.required_providers.find(std::string(local_name));
    if (it != module.terraform.required_providers.end() && it->second.source_as_written) {
        if (!it->second.source) return std::nullopt;  // invalid: another rule reports it
        auto parsed = parse_provider_source(*it->second.source_as_written, engine);
        return parsed.provider;
    }
    if (local_name.empty()) return std::nullopt;
    return implied_provider(local_name, engine);
}

TreeRequirements collect_tree_requirements(const LoadedModule& root, Engine engine) {
    TreeRequirements out;
    Collector(engine, out).module(root, "");
    return out;
}

namespace {

void find_unloaded(const LoadedModule& m, std::vector<std::string>& out) {
    for (const auto& [name, call] : m.module->module_calls) {
        auto child = m.children.find(name);
        std::string address = (m.address.empty() ? "" : m.address + ".") + "module." + name;
        if (child == m.children.end()) {
            out.push_back(address);
        } else {
            find_unloaded(child->second, out);
        }
    }
}

}  // namespace

std::vector<std::string> unloaded_module_calls(const LoadedModule& root) {
    std::vector<std::string> out;
    find_unloaded(root, out);
    return out;
}

void add_state_requirements(TreeRequirements& requirements, const providers::StateFile& state) {
    for (const auto& r : state.resources) {
        if (!r.provider) continue;
        auto& req = requirements[r.provider->provider];
        req.provider = r.provider->provider;
        req.from_state = true;
    }
}

providers::ProviderRequirements lock_requirements(const TreeRequirements& requirements) {
    providers::ProviderRequirements out;
    for (const auto& [provider, req] : requirements)
        out.emplace(provider, static_cast<const providers::ProviderRequirement&>(req));
    return out;
}

}  // namespace tfsift::config
