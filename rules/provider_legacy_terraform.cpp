// provider-legacy-terraform: `hashicorp/terraform` in required_providers.
// That registry provider is the pre-0.13 form of what is now built in.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint::rules {

namespace {

bool is_legacy_terraform(const providers::Provider& p) {
    return p.namespace_ == "hashicorp" && p.type == "terraform" &&
           (p.hostname == default_registry_host(Engine::terraform) ||
            p.hostname == default_registry_host(Engine::opentofu));
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto written = written_provider_requirements(ctx);
    for (const auto& [name, req] : ctx.module().module->terraform.required_providers) {
        if (!req.source_as_written) continue;
        auto parsed = providers::parse_provider_source(*req.source_as_written, ctx.engine);
        if (!parsed.provider || !is_legacy_terraform(*parsed.provider)) continue;
        const WrittenRequirement* w = written_entry_for(written, req);
        if (w == nullptr || !w->source) continue;
        Finding f;
        f.rule_id = "provider-legacy-terraform";
        f.severity = Severity::error;
        f.message = fmt::format(
            "provider \"{}\" requires \"{}\", the obsolete registry form of the built-in terraform provider; "
            "remove the entry (terraform_remote_state needs no requirement)",
            name, w->source->text);
        f.file = w->file->parsed->source;
        f.range = w->source->range;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule provider_legacy_terraform() {
    Rule r;
    r.id = "provider-legacy-terraform";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "`hashicorp/terraform` must not be required: the terraform provider is built in.";
    r.doc.what =
        "Reports a `required_providers` entry whose `source` is `hashicorp/terraform` (on either engine's "
        "public registry). The provider behind `terraform_remote_state` and `terraform_data` is built into "
        "Terraform and OpenTofu as `terraform.io/builtin/terraform` and needs no requirement at all.";
    r.doc.why =
        "`hashicorp/terraform` is an old registry release of the provider that is now built in; the registry "
        "lists it as archived and no longer needed, and `init` shows that warning. Requiring it makes `init` "
        "download the outdated plugin, and the module's `terraform_remote_state` data sources use it instead of "
        "the built-in provider, if the running release can load it at all.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    terraform = {
      source = "hashicorp/terraform"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(data "terraform_remote_state" "network" {
  backend = "local"
  config = {
    path = "../network/terraform.tfstate"
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: delete the entry by hand.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
