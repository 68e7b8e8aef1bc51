// provider-version-invalid: a required_providers `version` that is not a
// valid constraint string. The loader checks the syntax of hashicorp's
// go-version and reports it (claimed here); `init` then parses the string
// again with go-versions, which is stricter, and that second check is the
// rule's own.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/core_version.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    for (const WrittenRequirement& w : written_provider_requirements(ctx)) {
        if (!w.version) continue;
        // Rejected by the loader already: its diagnostic is this rule's finding.
        if (!providers::parse_core_constraints(w.version->text)) continue;
        auto parsed = providers::parse_config_constraints(w.version->text);
        if (parsed.constraints) continue;
        Finding f;
        f.rule_id = "provider-version-invalid";
        f.severity = Severity::error;
        f.message = fmt::format("provider \"{}\": version \"{}\" is not a valid constraint: {}", w.name,
                                w.version->text, parsed.detail);
        f.file = w.file->parsed->source;
        f.range = w.version->range;
        sink.report(std::move(f));
    }
}

}  // namespace

Rule provider_version_invalid() {
    Rule r;
    r.id = "provider-version-invalid";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A provider `version` must be a valid version constraint string.";
    r.doc.what =
        "Checks the `version` of every `required_providers` entry (and the legacy string form `aws = \"...\"`): "
        "comma-separated constraints, each an optional operator (`=`, `!=`, `>`, `>=`, `<`, `<=`, `~>`) followed "
        "by a version number. Terraform's loader rejects strings that do not follow this syntax (\"Invalid "
        "version constraint\"); that diagnostic is reported under this rule when it concerns "
        "`required_providers`. Strings the loader lets through but provider installation rejects (for example "
        "a `v` prefix or two spaces after the operator) are reported as well.";
    r.doc.why =
        "An invalid constraint stops `init` before any provider is installed; the second kind only shows up at "
        "`init`, after `validate` in an initialized directory has passed.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> v5.0"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    r.claimed_codes = {code::invalid_version_constraint};
    r.claim_only_if = subject_in_required_providers;
    return r;
}

}  // namespace tfsift::lint::rules
