// provider-local-name-duplicate: one local name given twice in a module's
// requirements, or one provider required under two local names.
#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint::rules {

namespace {

Finding finding(const WrittenRequirement& w, std::string message, const WrittenRequirement& first,
                std::string related_message) {
    Finding f;
    f.rule_id = "provider-local-name-duplicate";
    f.severity = Severity::warning;
    f.message = std::move(message);
    f.file = w.file->parsed->source;
    f.range = w.name_range;
    f.related.push_back({first.file->parsed->source, first.name_range, std::move(related_message)});
    return f;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto written = written_provider_requirements(ctx);
    // The same name twice in one block. The native parser already rejects a
    // repeated argument ("Attribute redefined"); JSON objects keep both, and
    // Terraform's loader then reports "Duplicate attribute definition".
    std::map<std::tuple<const config::ModuleFile*, std::size_t, std::string_view>, const WrittenRequirement*> first;
    for (const WrittenRequirement& b : written) {
        auto [it, inserted] = first.emplace(std::tuple(b.file, b.block_index, std::string_view(b.name)), &b);
        if (inserted) continue;
        sink.report(finding(
            b, fmt::format("provider local name \"{}\" is declared twice in one required_providers block", b.name),
            *it->second, "first declared here"));
    }
    // One provider under two local names: each name gets its own
    // configurations. Terraform accepts it (its own valid test configurations
    // do it, with import blocks choosing a local name), so a warning.
    std::map<providers::Provider, const config::RequiredProvider*> by_address;
    std::vector<std::pair<const config::RequiredProvider*, providers::Provider>> in_order;
    for (const auto& [name, req] : ctx.module().module->terraform.required_providers) {
        auto address = req.source_as_written
                           ? providers::parse_provider_source(*req.source_as_written, ctx.engine).provider
                           : std::optional(providers::implied_provider(name, ctx.engine));
        if (!address || address->is_builtin(ctx.engine)) continue;
        in_order.emplace_back(&req, *address);
    }
    // Report the later entry in source order, pointing at the earlier.
    auto position = [&](const config::RequiredProvider* r) {
        const WrittenRequirement* w = written_entry_for(written, *r);
        return w == nullptr ? written.size() : static_cast<std::size_t>(w - written.data());
    };
    std::sort(in_order.begin(), in_order.end(),
              [&](const auto& x, const auto& y) { return position(x.first) < position(y.first); });
    for (const auto& [req, address] : in_order) {
        auto [it, inserted] = by_address.emplace(address, req);
        if (inserted) continue;
        const WrittenRequirement* w = written_entry_for(written, *req);
        const WrittenRequirement* first = written_entry_for(written, *it->second);
        if (w == nullptr || first == nullptr) continue;
        sink.report(finding(*w,
                            fmt::format("provider {} is required twice, as \"{}\" and as \"{}\"",
                                        address.for_display(ctx.engine), it->second->name, req->name),
                            *first, "first required here"));
    }
}

}  // namespace

Rule provider_local_name_duplicate() {
    Rule r;
    r.id = "provider-local-name-duplicate";
    r.default_severity = Severity::warning;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "Each local name, and each provider, may be required only once in a module.";
    r.doc.what =
        "Reports a local name given twice in one `required_providers` block written in JSON syntax (the loader "
        "rejects it as \"Duplicate attribute definition\"; the native syntax parser rejects a repeated argument "
        "as \"Attribute redefined\", and two "
        "`required_providers` blocks in the primary files are rejected by the loader as \"Duplicate required "
        "providers configuration\"), and one provider source address required under two different local "
        "names. The second entry is reported, with the first as a related location.";
    r.doc.why =
        "Local names identify providers everywhere in a module and must be unique: Terraform refuses a JSON "
        "`required_providers` object that repeats one. Requiring one "
        "provider under two names splits its configurations between names, which is rarely what was meant; "
        "Terraform accepts it (an `import` block may choose which local name to use), so this is a warning, "
        "not an error.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    amazon = {
      source = "hashicorp/aws"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: decide which entry and which name to keep.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
