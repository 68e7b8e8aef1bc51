// provider-source-missing: a provider requirement without `source`, which
// makes Terraform assume `hashicorp/<local name>`.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    const auto written = written_provider_requirements(ctx);
    for (const auto& [name, req] : ctx.module().module->terraform.required_providers) {
        if (req.source_as_written) continue;
        // A `terraform` entry is wrong whatever its source: provider-legacy-terraform reports it.
        if (name == "terraform") continue;
        const WrittenRequirement* w = written_entry_for(written, req);
        if (w == nullptr || w->has_source) continue;  // a source the loader rejected is reported there
        Finding f;
        f.rule_id = "provider-source-missing";
        f.severity = Severity::warning;
        f.message = fmt::format("provider \"{}\" has no source; {} assumes \"hashicorp/{}\"", name,
                                product_name(ctx.engine), name);
        f.file = w->file->parsed->source;
        f.range = w->name_range;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule provider_source_missing() {
    Rule r;
    r.id = "provider-source-missing";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.security_severity = 4.0;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "Every provider requirement should give an explicit `source`.";
    r.doc.what =
        "Reports an entry of `required_providers` (after override files are applied) that has no `source` "
        "argument, including the legacy form `aws = \"~> 5.0\"` that only gives a version. Without a source, "
        "Terraform and OpenTofu take the implied address `hashicorp/<local name>` on their default registry. A "
        "`terraform` entry is left to `provider-legacy-terraform`.";
    r.doc.why =
        "The implied address is right only for HashiCorp's own providers. For any other provider it silently "
        "names a provider that does not exist or, worse, a different one; the documents recommend an explicit "
        "source for every provider so the module says what it needs.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    datadog = {
      version = ">= 3.0"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    datadog = {
      source  = "DataDog/datadog"
      version = ">= 3.0"
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: only the author knows which provider is meant.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
