// module-providers-incomplete: a module call sets `providers`, which the
// documents say turns off the inheritance of default provider
// configurations, but leaves out a default configuration the called module
// uses.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/module_providers.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

// The name of the `providers` argument that holds the entry written at `key`;
// the entry itself when the file is JSON or the argument cannot be found.
Range providers_argument(const LintContext& ctx, const config::ProviderPassing& first) {
    Range fallback = module_providers::written_range(first.origin, first.child_key);
    for (const auto& file : ctx.files()) {
        if (file.decoded->source != first.origin.file) continue;
        const hcl::File* native = LintContext::native(file);
        if (native == nullptr) return fallback;
        for (const hcl::Block& block : native->body->blocks) {
            if (block.type != "module") continue;
            for (const hcl::Attribute& a : block.body.attributes) {
                if (a.name == "providers" && a.range.start.byte <= first.origin.pos.byte &&
                    first.origin.pos.byte < a.range.end.byte) {
                    return a.name_range();
                }
            }
        }
    }
    return fallback;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    for (const auto& [name, call] : module.module->module_calls) {
        if (call.providers.empty()) continue;
        auto child = module.children.find(name);
        if (child == module.children.end()) continue;  // not loaded: nothing to compare with
        std::set<std::string> missing = module_providers::default_providers_needed(child->second);
        for (const auto& passing : call.providers) missing.erase(passing.child_key);
        if (missing.empty()) continue;
        const config::ProviderPassing& first = call.providers.front();
        Finding f;
        f.rule_id = "module-providers-incomplete";
        f.severity = Severity::warning;
        f.file = ctx.shared_source(first.origin.file);
        if (!f.file) continue;
        f.range = providers_argument(ctx, first);
        std::string names;
        for (const auto& n : missing) names += (names.empty() ? "" : ", ") + n;
        std::string remedy = missing.size() == 1 ? fmt::format("`{0} = {0}`", *missing.begin()) : "them to the map";
        f.message = fmt::format(
            "module \"{}\": `providers` does not list the default configuration of {}, which the called module "
            "uses; once `providers` is set, every provider the module needs should be passed: add {}",
            name, names, remedy);
        sink.report(std::move(f));
    }
}

}  // namespace

Rule module_providers_incomplete() {
    Rule r;
    r.id = "module-providers-incomplete";
    r.default_severity = Severity::warning;
    r.enabled_by_default = false;  // the strict preset: docs/corpus-findings.md
    r.fixable = false;
    r.doc.summary = "A module call's providers map leaves out a default provider the module uses.";
    r.doc.what =
        "Reports a module call that sets `providers` (at that argument) when the called module uses the default "
        "(unaliased) configuration of a provider that the map does not pass. A module uses a default "
        "configuration through a resource or data source whose type prefix names the provider and that sets no "
        "`provider` argument, an unaliased `provider` argument, an empty `provider` block, an unaliased value of "
        "one of its own `providers` maps, or a module it calls without `providers` that uses it in turn. "
        "Providers the module configures itself and the built-in `terraform` provider need nothing. "
        "Remote modules are checked when installed in `.terraform/modules` or in the module cache; a call whose "
        "module is not loaded is reported by `module-not-loaded` instead.";
    r.doc.why =
        "The documents state that once a module call sets `providers` it overrides the default inheritance, so "
        "every provider the module needs must be listed. Terraform releases to date still let a left-out default "
        "configuration be inherited, so such a call works, but it relies on behaviour the documents disclaim, "
        "and a reader of the call cannot tell which configuration the module's other resources end up with.";
    r.doc.failing_example = R"hcl(# ./app uses aws_* and random_* resources
module "app" {
  source = "./app"
  providers = {
    aws = aws.usw2
  }
}
)hcl";
    r.doc.passing_example = R"hcl(module "app" {
  source = "./app"
  providers = {
    aws    = aws.usw2
    random = random
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: passing the caller's default configuration is usual but not always intended.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
