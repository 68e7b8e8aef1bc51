// provider-version-missing: a provider requirement without a version
// constraint, so any version is acceptable.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    const auto written = written_provider_requirements(ctx);
    for (const auto& [name, req] : ctx.module().module->terraform.required_providers) {
        if (!req.version_constraints.empty()) continue;
        if (name == "terraform") continue;  // provider-legacy-terraform
        // A built-in provider comes with Terraform itself: `init` rejects any
        // version constraint for it.
        if (req.source && req.source->starts_with("terraform.io/builtin/")) continue;
        const WrittenRequirement* w = written_entry_for(written, req);
        if (w == nullptr || w->has_version) continue;  // a version the loader rejected is reported there
        Finding f;
        f.rule_id = "provider-version-missing";
        f.severity = Severity::warning;
        f.message = fmt::format("provider \"{}\" has no version constraint, so any version is accepted", name);
        f.file = w->file->parsed->source;
        f.range = w->name_range;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule provider_version_missing() {
    Rule r;
    r.id = "provider-version-missing";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.security_severity = 4.0;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "Every provider requirement should give a `version` constraint.";
    r.doc.what =
        "Reports an entry of `required_providers` (after override files are applied) without a `version` "
        "argument. A `terraform` entry is left to `provider-legacy-terraform`.";
    r.doc.why =
        "Without a constraint any version of the provider is acceptable, so a new major release can be "
        "installed by the next `init -upgrade` (or the first `init` without a lock file) and break the module. "
        "The documents strongly recommend a constraint for every provider a module depends on: at least the "
        "minimum version known to work.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: the right minimum version depends on what the module uses.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
