// provider-local-name: a provider's local name should be its preferred name
// (the type part of its source address); when two required providers share
// a type, the compound `namespace-type` form keeps them apart readably.
#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint::rules {

namespace {

struct Entry {
    const config::RequiredProvider* requirement;
    providers::Provider address;
};

// Beta channels such as hashicorp/google-beta keep the stable provider's
// resource type prefix, which is then their preferred name as well.
bool is_preferred_name(std::string_view name, std::string_view type) {
    if (name == type) return true;
    constexpr std::string_view beta = "-beta";
    return type.ends_with(beta) && name == type.substr(0, type.size() - beta.size());
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto written = written_provider_requirements(ctx);
    std::vector<Entry> entries;
    for (const auto& [name, req] : ctx.module().module->terraform.required_providers) {
        if (!req.source_as_written) continue;  // the implied source has the local name as its type
        auto parsed = providers::parse_provider_source(*req.source_as_written, ctx.engine);
        if (!parsed.provider || parsed.provider->is_builtin(ctx.engine)) continue;
        entries.push_back({&req, *parsed.provider});
    }
    // Indexes, so that a module with thousands of providers is not
    // quadratic: how often each address is required, and the first two
    // entries (in order) of each type and of each local name.
    std::map<providers::Provider, std::size_t> per_address;
    std::unordered_map<std::string_view, std::array<std::size_t, 2>> by_type, by_name;
    constexpr std::size_t none = static_cast<std::size_t>(-1);
    auto note = [&](std::unordered_map<std::string_view, std::array<std::size_t, 2>>& index, std::string_view key,
                    std::size_t i) {
        auto [it, inserted] = index.try_emplace(key, std::array<std::size_t, 2>{i, none});
        if (!inserted && it->second[1] == none) it->second[1] = i;
    };
    for (std::size_t i = 0; i < entries.size(); ++i) {
        ++per_address[entries[i].address];
        note(by_type, entries[i].address.type, i);
        note(by_name, entries[i].requirement->name, i);
    }
    // The first entry other than `self` in an index slot.
    auto first_other = [&](const std::unordered_map<std::string_view, std::array<std::size_t, 2>>& index,
                           std::string_view key, std::size_t self) {
        auto it = index.find(key);
        if (it == index.end()) return none;
        return it->second[0] != self ? it->second[0] : it->second[1];
    };
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        const std::string& name = e.requirement->name;
        const std::string& type = e.address.type;
        // One provider under two names: provider-local-name-duplicate reports it.
        if (per_address[e.address] > 1) continue;
        // Another provider with the same type, or one that already uses this type as its local name.
        const std::size_t c = std::min(first_other(by_type, type, i), first_other(by_name, type, i));
        const Entry* conflict = c == none ? nullptr : &entries[c];
        const std::string compound = e.address.namespace_ + "-" + type;
        std::string message;
        if (conflict == nullptr) {
            if (is_preferred_name(name, type)) continue;
            message = fmt::format("provider \"{}\" ({}) is not named after its type; use the local name \"{}\"", name,
                                  e.address.for_display(ctx.engine), type);
        } else {
            if (name == compound || name == type) continue;
            message =
                fmt::format("provider \"{}\" ({}) shares its type with {}; use the compound local name \"{}\"", name,
                            e.address.for_display(ctx.engine), conflict->address.for_display(ctx.engine), compound);
        }
        const WrittenRequirement* w = written_entry_for(written, *e.requirement);
        if (w == nullptr) continue;
        Finding f;
        f.rule_id = "provider-local-name";
        f.severity = Severity::warning;
        f.message = std::move(message);
        f.file = w->file->parsed->source;
        f.range = w->name_range;
        if (conflict != nullptr) {
            if (const WrittenRequirement* cw = written_entry_for(written, *conflict->requirement)) {
                f.related.push_back({cw->file->parsed->source, cw->name_range, "the provider with the same type"});
            }
        }
        sink.report(std::move(f));
    }
}

}  // namespace

Rule provider_local_name() {
    Rule r;
    r.id = "provider-local-name";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::style;
    r.precision = RulePrecision::medium;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A provider's local name should be its preferred name, or `namespace-type` on a conflict.";
    r.doc.what =
        "Reports a `required_providers` entry whose local name differs from the type part of its `source` "
        "(`aws` for `hashicorp/aws`; a beta channel such as `hashicorp/google-beta` may also use the stable "
        "name `google`) when nothing forces another name. When two required providers have the same type, "
        "one of them may keep the type as its name and the other should use the compound form "
        "`<namespace>-<type>` (`mycorp-http`); other names are reported with that suggestion. Local names "
        "that Terraform's loader rejects (\"Invalid provider local name\": not lower case, invalid "
        "characters) are reported under this rule too, with the loader's error severity. An entry whose provider is also required under another name is left to "
        "`provider-local-name-duplicate`.";
    r.doc.why =
        "The preferred name is the prefix of the provider's resource types, so resources find their provider "
        "without a `provider` argument and readers recognise it at once. A made-up name forces a `provider` "
        "argument on every resource and hides which provider is meant.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    amazon = {
      source = "hashicorp/aws"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    hashicorp-http = {
      source = "hashicorp/http"
    }
    mycorp-http = {
      source = "mycorp/http"
    }
  }
}
)hcl";
    r.doc.fix_safety =
        "Not fixable: renaming a local name means changing every resource, provider block and module "
        "`providers` map that uses it.";
    r.check = check;
    r.claimed_codes = {code::invalid_provider_local_name, code::invalid_provider_name};
    return r;
}

}  // namespace tfsift::lint::rules
