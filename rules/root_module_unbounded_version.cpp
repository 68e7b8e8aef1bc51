// root-module-unbounded-version: a root module's provider constraint that
// sets no maximum, so a new major release can be picked up unnoticed.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::lint::rules {

namespace {

bool sets_maximum(providers::ConstraintOperator op) {
    using Op = providers::ConstraintOperator;
    return op == Op::pessimistic_patch || op == Op::pessimistic_minor || op == Op::less || op == Op::less_equal ||
           op == Op::equal;
}

void check(const LintContext& ctx, FindingSink& sink) {
    if (ctx.role != ModuleRole::root) return;
    const auto written = written_provider_requirements(ctx);
    for (const auto& [name, req] : ctx.module().module->terraform.required_providers) {
        const WrittenRequirement* w = written_entry_for(written, req);
        // No version at all is provider-version-missing's finding.
        if (w == nullptr || !w->version) continue;
        auto parsed = providers::parse_constraints(w->version->text);
        if (!parsed.constraints) continue;  // provider-version-invalid
        bool bounded = false;
        for (const auto& c : *parsed.constraints) bounded = bounded || sets_maximum(c.op);
        if (bounded) continue;
        Finding f;
        f.rule_id = "root-module-unbounded-version";
        f.severity = Severity::warning;
        f.message = fmt::format("provider \"{}\": version \"{}\" in a root module sets no upper bound (use ~> or <)",
                                name, w->version->text);
        f.file = w->file->parsed->source;
        f.range = w->version->range;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule root_module_unbounded_version() {
    Rule r;
    r.id = "root-module-unbounded-version";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::medium;
    r.security_severity = 3.0;
    r.enabled_by_default = false;  // the strict preset: docs/corpus-findings.md
    r.fixable = false;
    r.doc.summary = "A root module's provider constraints should set a maximum version.";
    r.doc.what =
        "In a root module (one that no other module of the scan calls), reports a provider `version` "
        "constraint with no upper bound: none of its parts uses `~>`, `<`, `<=` or an exact version. "
        "Requirements without any `version` are left to `provider-version-missing`.";
    r.doc.why =
        "The root module is where `apply` runs; it should decide the newest provider release it accepts, so "
        "that an `init -upgrade` (or a first `init` without a lock file) cannot bring in an incompatible major "
        "release. `~>` is the usual way to allow only the rightmost version part to grow.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.31"
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: the maximum to accept is a release decision.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
