// shared-module-max-version: a module that other modules call should only
// state minimum provider versions (`>=`) and leave maxima to the root.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    if (ctx.role != ModuleRole::called) return;
    const auto written = written_provider_requirements(ctx);
    for (const auto& [name, req] : ctx.module().module->terraform.required_providers) {
        const WrittenRequirement* w = written_entry_for(written, req);
        if (w == nullptr || !w->version) continue;
        auto parsed = providers::parse_constraints(w->version->text);
        if (!parsed.constraints) continue;  // provider-version-invalid
        bool only_minimum = true;
        for (const auto& c : *parsed.constraints) {
            if (c.op != providers::ConstraintOperator::greater_equal) only_minimum = false;
        }
        if (only_minimum) continue;
        Finding f;
        f.rule_id = "shared-module-max-version";
        f.severity = Severity::warning;
        f.message = fmt::format(
            "provider \"{}\": version \"{}\" in a module that other modules call should only set a minimum (>=)", name,
            w->version->text);
        f.file = w->file->parsed->source;
        f.range = w->version->range;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule shared_module_max_version() {
    Rule r;
    r.id = "shared-module-max-version";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::maintainability;
    r.precision = RulePrecision::medium;
    r.enabled_by_default = false;  // the strict preset: docs/corpus-findings.md
    r.fixable = false;
    r.doc.summary = "A module that other modules call should constrain providers with `>=` only.";
    r.doc.what =
        "In a module called by another module of the scan, reports a provider `version` constraint that uses "
        "any operator other than `>=`: `~>`, `<`, `<=`, `=` (or a bare version), `>` and `!=`. A constraint "
        "combining several parts is reported when any part is not `>=`.";
    r.doc.why =
        "Every module's constraints on a provider are combined, so a maximum (or an exact version) in a shared "
        "module caps the version for every configuration that uses it. Routine upgrades then need new releases "
        "of several modules at once. The documents ask shared modules to state the minimum version they are "
        "known to work with, document known incompatibilities, and let the root module set the maximum.";
    r.doc.failing_example = R"hcl(# modules/network/versions.tf, called by the root module
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(# modules/network/versions.tf, called by the root module
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: the minimum version to keep is the author's call.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
