// resource-provider-unresolved: in a module that declares its provider
// requirements, a resource whose type prefix names no declared provider and
// which sets no `provider` argument.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/provider_local_name_uses.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    if (!declares_requirements(module)) return;  // module-required-providers covers undeclared modules
    const auto& required = module.module->terraform.required_providers;
    const auto uses = provider_uses(module);
    UseRanges range_of(module);
    for (const ProviderUse& use : *uses) {
        if (use.kind != ProviderUseKind::resource_type || required.contains(use.local_name)) continue;
        Finding f;
        f.rule_id = "resource-provider-unresolved";
        f.severity = Severity::warning;
        f.message = fmt::format(
            "{}: no required provider is named \"{}\" and the block sets no provider argument, so it silently "
            "uses {}",
            object_of(use), use.local_name,
            providers::implied_provider(use.local_name, ctx.engine).for_display(ctx.engine));
        f.file = ctx.shared_source(use.origin.file);
        f.range = range_of(use);
        if (!f.file) continue;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule resource_provider_unresolved() {
    Rule r;
    r.id = "resource-provider-unresolved";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A resource's type prefix must name a declared provider, or the block must set `provider`.";
    r.doc.what =
        "In a module that declares its provider requirements (it has a `required_providers` block), reports a "
        "`resource` or `data` block without a `provider` argument whose type prefix (the part before the first "
        "`_`) is not one of the declared local names. The built-in `terraform` provider "
        "(`terraform_remote_state`, `terraform_data`) is exempt.\n\n"
        "Division of labour with `module-required-providers`: this rule reports each such resource; "
        "`module-required-providers` reports, once per local name, the other undeclared uses (`provider` "
        "blocks, `provider` arguments, module `providers` maps) and, in modules without any "
        "`required_providers` block, resource type prefixes too.";
    r.doc.why =
        "Without a `provider` argument, the type prefix is taken as the local name. When the module has no "
        "entry of that name, the resource silently binds to `hashicorp/<prefix>` instead of the provider the "
        "author declared under another name, for example a compound name such as `mycorp-http`, or a fork "
        "with a different source. The catalogue lists this as an error, but Terraform's and OpenTofu's own "
        "loaders accept such modules (their test data has valid modules that rely on the implied provider), so "
        "tfsift reports it as a warning; raise it to an error in `.tfsift.toml` if your project forbids it.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    mycorp-http = {
      source = "mycorp/http"
    }
  }
}

data "http" "status" {
  url = "https://status.example.com"
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    mycorp-http = {
      source = "mycorp/http"
    }
  }
}

data "http" "status" {
  provider = mycorp-http
  url      = "https://status.example.com"
}
)hcl";
    r.doc.fix_safety = "Not fixable: either add the requirement or a `provider` argument, depending on intent.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
