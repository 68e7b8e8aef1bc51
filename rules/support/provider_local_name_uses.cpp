// Collecting the provider local names a module uses.
#include "provider_local_name_uses.hpp"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "expression_sites.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint::rules {

namespace {

std::string root_of(std::string_view reference) { return std::string(reference.substr(0, reference.find('.'))); }

std::string_view block_type(config::ResourceMode mode) {
    switch (mode) {
        case config::ResourceMode::managed: return "resource";
        case config::ResourceMode::data: return "data";
        case config::ResourceMode::ephemeral: return "ephemeral";
        case config::ResourceMode::action: return "action";
    }
    return "resource";
}

std::string describe(const config::Resource& r) {
    return fmt::format("{} \"{}\" \"{}\"", block_type(r.mode), r.type, r.name);
}

std::vector<ProviderUse> compute_provider_uses(const config::LoadedModule& module) {
    std::vector<ProviderUse> uses;
    const config::Module& m = *module.module;
    auto add_resource = [&](const config::Resource& r) {
        ProviderUse u;
        u.resource = &r;
        if (r.provider_ref && r.provider_origin) {
            u.kind = ProviderUseKind::provider_argument;
            u.local_name = root_of(*r.provider_ref);
            u.origin = *r.provider_origin;
            u.name_length = u.local_name.size();
        } else {
            u.kind = ProviderUseKind::resource_type;
            u.local_name = std::string(providers::implied_local_name(r.type));
            u.origin = r.origin;
        }
        uses.push_back(std::move(u));
    };
    // One use per resource and provider block, most of them.
    uses.reserve(m.resources.size() + m.data.size() + m.ephemeral.size() + m.actions.size() + m.providers.size());
    for (const auto& [key, r] : m.resources) add_resource(r);
    for (const auto& [key, r] : m.data) add_resource(r);
    for (const auto& [key, r] : m.ephemeral) add_resource(r);
    for (const auto& [key, r] : m.actions) add_resource(r);
    for (const auto& [key, p] : m.providers) {
        ProviderUse u;
        u.kind = ProviderUseKind::provider_block;
        u.local_name = p.name;
        u.object = p.alias ? fmt::format("provider \"{}\" (alias \"{}\")", p.name, *p.alias)
                           : fmt::format("provider \"{}\"", p.name);
        u.origin = p.origin;
        uses.push_back(std::move(u));
    }
    for (const auto& [name, call] : m.module_calls) {
        for (const config::ProviderPassing& pass : call.providers) {
            ProviderUse u;
            u.kind = ProviderUseKind::module_providers;
            u.local_name = root_of(pass.parent_key);
            u.object = fmt::format("module \"{}\"", name);
            u.origin = pass.parent_origin;
            u.name_length = u.local_name.size();
            uses.push_back(std::move(u));
        }
    }
    // Provider-defined functions, when a file may call one (walking every
    // expression of every file for each use list would cost more): a native
    // file whose parse met a namespaced call, a JSON file whose text has a
    // `::` (its expressions are parsed as they are walked).
    bool mentions_functions = false;
    for (const config::ModuleFile& file : module.files) {
        if (file.parsed->native ? file.parsed->native->calls_namespaced_functions
                                : file.parsed->source->text().find("::") != std::string_view::npos) {
            mentions_functions = true;
            break;
        }
    }
    if (mentions_functions) {
        for_each_expression(module, [&uses](const ExpressionSite& site, const ExpressionScope&) {
            for (const hcl::FunctionCallExpr* call : function_calls(*site.expr)) {
                const std::string_view name = call->name;
                if (name.substr(0, 10) != "provider::") continue;
                const std::string_view rest = name.substr(10);
                const auto end = rest.find("::");
                if (end == std::string_view::npos) continue;
                ProviderUse u;
                u.kind = ProviderUseKind::function;
                u.local_name = std::string(rest.substr(0, end));
                u.object = fmt::format("function {}", name);
                u.origin = config::Origin{site.file->parsed->source.get(), site.file_range(call->range).start};
                u.name_length = name.size();
                uses.push_back(std::move(u));
            }
        });
    }
    std::erase_if(uses, [](const ProviderUse& u) { return u.local_name.empty() || u.local_name == "terraform"; });
    // Sort by (file order, position), each file's index looked up once: a
    // module may have tens of thousands of files.
    std::unordered_map<const SourceFile*, std::size_t> file_order;
    file_order.reserve(module.files.size());
    for (std::size_t i = 0; i < module.files.size(); ++i) file_order.emplace(module.files[i].parsed->source.get(), i);
    std::vector<std::pair<std::pair<std::size_t, std::uint32_t>, std::size_t>> keys;
    keys.reserve(uses.size());
    for (std::size_t i = 0; i < uses.size(); ++i) {
        auto it = file_order.find(uses[i].origin.file);
        std::size_t index = it == file_order.end() ? module.files.size() : it->second;
        keys.push_back({{index, uses[i].origin.pos.byte}, i});
    }
    std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<ProviderUse> sorted;
    sorted.reserve(uses.size());
    for (const auto& k : keys) sorted.push_back(std::move(uses[k.second]));
    uses = std::move(sorted);
    return uses;
}

}  // namespace

std::shared_ptr<const std::vector<ProviderUse>> provider_uses(const config::LoadedModule& module) {
    // Several rules ask for the same module's uses, and every caller of a
    // module directory shares its merged module and files, on which alone
    // the uses depend: each thread remembers the last few, each by a weak
    // handle on the shared module (a module freed and another made at the
    // same address does not match).
    if (module.module == config::empty_module()) {
        return std::make_shared<const std::vector<ProviderUse>>(compute_provider_uses(module));
    }
    struct Remembered {
        std::weak_ptr<const config::Module> module;
        std::shared_ptr<const std::vector<ProviderUse>> uses;
    };
    constexpr std::size_t kept = 8;
    thread_local std::vector<Remembered> recent;
    for (const Remembered& r : recent) {
        if (r.module.lock() == module.module) return r.uses;
    }
    auto uses = std::make_shared<const std::vector<ProviderUse>>(compute_provider_uses(module));
    if (recent.size() == kept) recent.erase(recent.begin());
    recent.push_back(Remembered{module.module, uses});
    return uses;
}

std::string object_of(const ProviderUse& use) { return use.resource != nullptr ? describe(*use.resource) : use.object; }

bool declares_requirements(const config::LoadedModule& module) {
    if (!module.module->terraform.required_providers.empty()) return true;
    for (const config::ModuleFile& file : module.files) {
        for (const config::TerraformBlock& tb : file.decoded->terraform) {
            if (!tb.required_providers.empty()) return true;
        }
    }
    return false;
}

UseRanges::UseRanges(const config::LoadedModule& module) : module_(module) {}

void UseRanges::index() {
    indexed_ = true;
    for (const config::ModuleFile& file : module_.files) {
        // A file met again keeps its first entries, as a search in file
        // order finds them.
        auto [it, added] = by_file_.try_emplace(file.parsed->source.get());
        if (!added) continue;
        FileHeaders& headers = it->second;
        if (file.parsed->native) {
            for (const hcl::Block& b : file.parsed->native->body->blocks) {
                headers.blocks.add(b.type_range().start.byte, &b);
            }
        }
        for (const auto* table : {&file.decoded->resources, &file.decoded->others}) {
            for (const auto& [r, decl] : *table) headers.decoded.add(r.origin.pos.byte, decl.def_range);
        }
        for (const auto& [p, decl] : file.decoded->providers) {
            headers.decoded.add(p.origin.pos.byte, decl.def_range);
        }
        headers.blocks.sort();
        headers.decoded.sort();
    }
}

// The header of the top-level block that starts at `origin`: its label
// `label_index` in native syntax, its definition range otherwise.
Range UseRanges::header(const config::Origin& origin, std::size_t label_index) {
    if (!indexed_) index();
    auto it = by_file_.find(origin.file);
    if (it == by_file_.end()) return Range{origin.pos, origin.pos};
    const FileHeaders& headers = it->second;
    if (const hcl::Block* const* b = headers.blocks.find(origin.pos.byte)) {
        if (label_index < (*b)->labels.size()) return (*b)->labels[label_index].range;
        return (*b)->def_range();
    }
    if (const Range* r = headers.decoded.find(origin.pos.byte)) return *r;
    return Range{origin.pos, origin.pos};
}

Range UseRanges::operator()(const ProviderUse& use) {
    switch (use.kind) {
        case ProviderUseKind::resource_type:
        case ProviderUseKind::provider_block: return header(use.origin, 0);
        case ProviderUseKind::function:
            return Range{use.origin.pos, Pos{use.origin.pos.byte + static_cast<std::uint32_t>(use.name_length)}};
        case ProviderUseKind::provider_argument:
        case ProviderUseKind::module_providers: {
            Pos start = use.origin.pos;
            // In JSON syntax the reference is a string: skip its opening quote.
            if (use.origin.file != nullptr && start.byte < use.origin.file->text().size() &&
                use.origin.file->text()[start.byte] == '"') {
                ++start.byte;
            }
            Pos end = start;
            end.byte += static_cast<std::uint32_t>(use.name_length);
            return Range{start, end};
        }
    }
    return Range{use.origin.pos, use.origin.pos};
}

Range use_range(const config::LoadedModule& module, const ProviderUse& use) { return UseRanges(module)(use); }

}  // namespace tfsift::lint::rules
