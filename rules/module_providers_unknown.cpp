// module-providers-unknown: a key of a module call's `providers` map that the
// called module can do nothing with: it neither requires nor refers to that
// provider configuration.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/module_providers.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

// Every provider configuration name the called module could receive: its
// requirements and configuration aliases, its provider blocks, and every
// configuration it refers to (whether or not it declares it; a missing
// declaration is another rule's finding).
std::set<std::string> receivable(const config::LoadedModule& child) {
    const config::Module& m = *child.module;
    std::set<std::string> out = module_providers::default_providers_needed(child);
    for (const auto& [name, req] : m.terraform.required_providers) {
        out.insert(name);
        out.insert(req.configuration_aliases.begin(), req.configuration_aliases.end());
    }
    for (const auto& [key, p] : m.providers) out.insert(key);
    for (const auto* resources : {&m.resources, &m.data}) {
        for (const auto& [key, r] : *resources) {
            if (r.provider_ref) out.insert(*r.provider_ref);
        }
    }
    for (const auto& [name, call] : m.module_calls) {
        for (const auto& passing : call.providers) out.insert(passing.parent_key);
    }
    return out;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    for (const auto& [name, call] : module.module->module_calls) {
        if (call.providers.empty()) continue;
        auto child = module.children.find(name);
        if (child == module.children.end()) continue;  // not loaded: nothing to compare with
        const std::set<std::string> known = receivable(child->second);
        for (const auto& passing : call.providers) {
            if (known.count(passing.child_key) != 0) continue;
            Finding f;
            f.rule_id = "module-providers-unknown";
            f.severity = Severity::error;
            f.file = ctx.shared_source(passing.origin.file);
            if (!f.file) continue;
            f.range = module_providers::written_range(passing.origin, passing.child_key);
            const bool aliased = passing.child_key.find('.') != std::string::npos;
            f.message = fmt::format(
                "module \"{}\": the called module {} {}, so the configuration passed under that name is never used",
                name, aliased ? "neither declares nor uses the configuration" : "neither requires nor uses provider",
                passing.child_key);
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule module_providers_unknown() {
    Rule r;
    r.id = "module-providers-unknown";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A module call passes a provider configuration under a name the called module does not know.";
    r.doc.what =
        "Compares the keys of a module call's `providers` map with the called module. A key `NAME` is reported "
        "when the module neither lists `NAME` in `required_providers` nor uses it (a resource type prefix, a "
        "`provider` block or argument, a `providers` map value, or a module it calls without `providers` that "
        "uses it); a key `NAME.ALIAS` when the module neither lists it in `configuration_aliases` nor has a "
        "`provider` block with that alias nor refers to it. The finding is at the key. Keys the module uses "
        "without declaring are left to Terraform's own warning (\"Reference to undefined provider\") and to the "
        "rules about provider requirements. Remote modules are checked when installed in `.terraform/modules` or in the module cache; a call whose "
        "module is not loaded is reported by `module-not-loaded` instead.";
    r.doc.why =
        "The keys of `providers` are names inside the called module. A configuration passed under a name the "
        "module never refers to configures nothing there, while the resources it was meant for fall back to "
        "another configuration, often the wrong region or account; usually the key has a typo or the module "
        "changed. Terraform only warns about a key the module does not declare (\"Reference to undefined "
        "provider\", an error when the provider is outside the `hashicorp` namespace), and its message suggests "
        "declaring the name, not that nothing uses it.";
    r.doc.failing_example = R"hcl(# ./tunnel declares configuration_aliases = [aws.src, aws.dst]
module "tunnel" {
  source = "./tunnel"
  providers = {
    aws.src         = aws.usw1
    aws.destination = aws.usw2
  }
}
)hcl";
    r.doc.passing_example = R"hcl(module "tunnel" {
  source = "./tunnel"
  providers = {
    aws.src = aws.usw1
    aws.dst = aws.usw2
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: only the author knows which name was meant.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
