#include "module_providers.hpp"

#include <algorithm>

namespace tfsift::lint::rules::module_providers {

std::string_view local_name(std::string_view config_address) {
    return config_address.substr(0, config_address.find('.'));
}

namespace {

// The provider a resource type implies: its name up to the first underscore.
std::string_view implied_provider(std::string_view resource_type) {
    return resource_type.substr(0, resource_type.find('_'));
}

// The built-in provider needs no configuration from anyone, unless the
// module gave the name `terraform` to some other provider.
bool is_builtin(const config::Module& m, std::string_view name) {
    if (name != "terraform") return false;
    auto it = m.terraform.required_providers.find("terraform");
    return it == m.terraform.required_providers.end() || !it->second.source ||
           it->second.source->starts_with("terraform.io/builtin/");
}

void add_resource_needs(const std::map<std::string, config::Resource>& resources, std::set<std::string>& out) {
    for (const auto& [key, r] : resources) {
        if (!r.provider_ref) {
            out.emplace(implied_provider(r.type));
        } else if (r.provider_ref->find('.') == std::string::npos) {
            out.insert(*r.provider_ref);
        }
    }
}

}  // namespace

std::set<std::string> default_providers_needed(const config::LoadedModule& module) {
    const config::Module& m = *module.module;
    std::set<std::string> needed;
    add_resource_needs(m.resources, needed);
    add_resource_needs(m.data, needed);
    add_resource_needs(m.ephemeral, needed);
    add_resource_needs(m.actions, needed);
    for (const auto& [key, p] : m.providers) {
        if (!p.alias && !p.configures()) needed.insert(p.name);
    }
    for (const auto& [name, call] : m.module_calls) {
        if (!call.providers.empty()) {
            for (const auto& passing : call.providers) {
                if (passing.parent_key.find('.') == std::string::npos) needed.insert(passing.parent_key);
            }
            continue;
        }
        auto child = module.children.find(name);
        if (child == module.children.end()) continue;
        needed.merge(default_providers_needed(child->second));
    }
    std::erase_if(needed, [&](const std::string& name) {
        auto own = m.providers.find(name);
        return (own != m.providers.end() && own->second.configures()) || is_builtin(m, name);
    });
    return needed;
}

bool declares_alias(const config::Module& module, std::string_view address) {
    if (module.providers.count(std::string(address)) != 0) return true;
    auto req = module.terraform.required_providers.find(std::string(local_name(address)));
    if (req == module.terraform.required_providers.end()) return false;
    const auto& aliases = req->second.configuration_aliases;
    return std::find(aliases.begin(), aliases.end(), address) != aliases.end();
}

Range written_range(const config::Origin& at, std::string_view text) {
    Range empty{at.pos, at.pos};
    if (at.file == nullptr) return empty;
    std::string_view src = at.file->text();
    std::uint32_t begin = at.pos.byte;
    if (begin > src.size()) return empty;
    std::string_view rest = src.substr(begin);
    if (rest.starts_with(text)) {
        return {at.pos, Pos{begin + static_cast<std::uint32_t>(text.size())}};
    }
    if (rest.starts_with('"') && rest.substr(1).starts_with(text)) {
        auto end = static_cast<std::uint32_t>(begin + 1 + text.size());
        if (end < src.size() && src[end] == '"') ++end;
        return {at.pos, Pos{static_cast<std::uint32_t>(end)}};
    }
    return empty;
}

DeclaredAt provider_declaration(const config::LoadedModule& module, const config::Origin& origin) {
    for (const auto& file : module.files) {
        if (file.decoded->source != origin.file) continue;
        for (const auto& [p, declared] : file.decoded->providers) {
            if (p.origin.pos == origin.pos) return {&file, &p, declared.def_range};
        }
    }
    return {nullptr, nullptr, Range{origin.pos, origin.pos}};
}

namespace {

void collect_configured(const config::LoadedModule& module,
                        std::vector<std::pair<const config::LoadedModule*, const config::Provider*>>& out) {
    for (const auto& [key, p] : module.module->providers) {
        if (p.configures()) out.emplace_back(&module, &p);
    }
    for (const auto& [name, child] : module.children) collect_configured(child, out);
}

}  // namespace

std::vector<std::pair<const config::LoadedModule*, const config::Provider*>> configured_providers_below(
    const config::LoadedModule& module) {
    std::vector<std::pair<const config::LoadedModule*, const config::Provider*>> out;
    collect_configured(module, out);
    return out;
}

}  // namespace tfsift::lint::rules::module_providers
