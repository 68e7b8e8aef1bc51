// provider-source-invalid: a required_providers `source` that is not
// `[HOSTNAME/]NAMESPACE/TYPE` with valid parts. The loader rejects most of
// these itself (its diagnostics are claimed here); the rule checks the rest
// with the installer's stricter address parser for the chosen engine.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    for (const WrittenRequirement& w : written_provider_requirements(ctx)) {
        if (!w.source) continue;
        // The loader's own parser rejected it: that diagnostic is this rule's finding already.
        if (!config::parse_provider_source(w.source->text).ok()) continue;
        auto parsed = providers::parse_provider_source(w.source->text, ctx.engine);
        if (parsed.provider) continue;
        Finding f;
        f.rule_id = "provider-source-invalid";
        f.severity = Severity::error;
        f.message = fmt::format("provider \"{}\": source \"{}\" is not a valid provider address: {}", w.name,
                                w.source->text, parsed.error ? parsed.error->detail : std::string("invalid address"));
        f.file = w.file->parsed->source;
        f.range = w.source->range;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule provider_source_invalid() {
    Rule r;
    r.id = "provider-source-invalid";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A provider `source` must be `[HOSTNAME/]NAMESPACE/TYPE` with valid parts.";
    r.doc.what =
        "Checks the `source` of every `required_providers` entry: at most three parts separated by `/`, none "
        "empty; a type and a namespace made of letters, digits and single dashes (no leading or trailing dash); "
        "a valid hostname; no `terraform-provider-` or `terraform-` prefix on the type. Terraform's loader "
        "rejects most of these itself (\"Invalid provider source string\", \"Invalid provider type\", "
        "\"Invalid provider namespace\", \"Invalid provider source hostname\", \"Invalid source\"); those "
        "diagnostics are reported under this rule. Addresses the loader lets through but the installer cannot "
        "use (for example a hostname that is not a valid internationalized domain name) are reported as well.";
    r.doc.why =
        "The source address is the provider's global identity and tells `init` where to download it. An invalid "
        "address stops `init`, and a repository name such as `terraform-provider-aws` is a common mistake.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source = "hashicorp/terraform-provider-aws"
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
    r.doc.fix_safety = "Not fixable: the right address depends on the provider meant.";
    r.check = check;
    r.claimed_codes = {
        code::invalid_provider_source_string,   code::invalid_provider_type, code::invalid_provider_namespace,
        code::invalid_provider_source_hostname, code::invalid_source,
    };
    return r;
}

}  // namespace tfsift::lint::rules
