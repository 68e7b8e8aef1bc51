// provider-alias-undeclared: a reference to an aliased provider
// configuration (`provider = aws.east`, or a value of a module call's
// `providers` map) that the module neither defines nor declares in
// `configuration_aliases`.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/module_providers.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

bool is_aliased(std::string_view address) { return address.find('.') != std::string_view::npos; }

std::string remedy(std::string_view address) {
    return fmt::format(
        "add a provider \"{}\" block with alias = \"{}\" (root module) or list {} in "
        "`configuration_aliases` (called module)",
        module_providers::local_name(address), address.substr(address.find('.') + 1), address);
}

void check_resources(const LintContext& ctx, const std::map<std::string, config::Resource>& resources,
                     std::string_view kind, FindingSink& sink) {
    for (const auto& [key, r] : resources) {
        if (!r.provider_ref || !r.provider_origin || !is_aliased(*r.provider_ref)) continue;
        if (module_providers::declares_alias(*ctx.module().module, *r.provider_ref)) continue;
        Finding f;
        f.rule_id = "provider-alias-undeclared";
        f.severity = Severity::error;
        f.file = ctx.shared_source(r.provider_origin->file);
        if (!f.file) continue;
        f.range = module_providers::written_range(*r.provider_origin, *r.provider_ref);
        f.message = fmt::format("{} \"{}\" \"{}\": provider configuration {} is not defined in this module; {}", kind,
                                r.type, r.name, *r.provider_ref, remedy(*r.provider_ref));
        sink.report(std::move(f));
    }
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::Module& m = *ctx.module().module;
    check_resources(ctx, m.resources, "resource", sink);
    check_resources(ctx, m.data, "data", sink);
    check_resources(ctx, m.ephemeral, "ephemeral", sink);
    check_resources(ctx, m.actions, "action", sink);
    for (const auto& [name, call] : m.module_calls) {
        for (const auto& passing : call.providers) {
            if (!is_aliased(passing.parent_key) || module_providers::declares_alias(m, passing.parent_key)) continue;
            Finding f;
            f.rule_id = "provider-alias-undeclared";
            f.severity = Severity::error;
            f.file = ctx.shared_source(passing.parent_origin.file);
            if (!f.file) continue;
            f.range = module_providers::written_range(passing.parent_origin, passing.parent_key);
            f.message = fmt::format(
                "module \"{}\": passes provider configuration {} as {}, but {} is not defined in "
                "this module; {}",
                name, passing.parent_key, passing.child_key, passing.parent_key, remedy(passing.parent_key));
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule provider_alias_undeclared() {
    Rule r;
    r.id = "provider-alias-undeclared";
    r.default_severity = Severity::error;
    r.enabled_by_default = false;  // the strict preset: docs/corpus-findings.md
    r.fixable = false;
    r.doc.summary = "A reference to an aliased provider configuration that the module does not define.";
    r.doc.what =
        "Reports `provider = NAME.ALIAS` on a `resource` or `data` block, and every value `NAME.ALIAS` of a "
        "module call's `providers` map, when the module has no `provider \"NAME\"` block with that `alias` and "
        "does not list `NAME.ALIAS` in the `configuration_aliases` of its `required_providers` entry. The finding "
        "is at the reference. Default (unaliased) configurations are not checked: they exist implicitly.";
    r.doc.why =
        "An aliased configuration exists only where it is defined, or where the module declares that its caller "
        "passes it in; aliased configurations are never inherited. Terraform fails at validate or plan time with "
        "\"Provider configuration not present\" or a missing-provider error; a typo in the alias is the usual "
        "cause.";
    r.doc.failing_example = R"hcl(provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

resource "aws_s3_bucket" "replica" {
  provider = aws.wset
  bucket   = "replica"
}
)hcl";
    r.doc.passing_example = R"hcl(provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

resource "aws_s3_bucket" "replica" {
  provider = aws.west
  bucket   = "replica"
}
)hcl";
    r.doc.fix_safety = "Not fixable: only the author knows which configuration was meant.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
