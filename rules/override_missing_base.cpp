// override-missing-base: a top-level block of an override file that has no
// block with the same header in the primary files to merge into.
//
// Terraform's loader rejects most of these (claimed below). It accepts a
// default (unaliased) `provider` block without a base, treating it as a new
// configuration; the check reports that case, since it is an override that
// overrides nothing.
#include <set>
#include <string_view>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/override_support.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    std::set<std::string, std::less<>> primary_providers;
    for (const auto& f : ctx.files()) {
        if (f.is_override) continue;
        for (const auto& [p, decl] : f.decoded->providers) primary_providers.insert(p.key());
    }
    for (const auto& f : ctx.files()) {
        if (!f.is_override) continue;
        for (const auto& [p, decl] : f.decoded->providers) {
            // An aliased configuration without a base is the loader's error.
            if (p.alias || primary_providers.count(p.key()) != 0) continue;
            Finding finding;
            finding.rule_id = "override-missing-base";
            finding.severity = Severity::error;
            finding.message = fmt::format(
                "provider \"{}\": the override file has no provider \"{}\" block in a primary file to merge into; "
                "Terraform silently treats it as a new default configuration",
                p.name, p.name);
            finding.file = f.parsed->source;
            finding.range = decl.def_range;
            sink.report(std::move(finding));
        }
    }
}

}  // namespace

Rule override_missing_base() {
    Rule r;
    r.id = "override-missing-base";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A block in an override file has no block with the same header in the primary files.";
    r.doc.what =
        "Each top-level block of an override file (`override.tf`, `*_override.tf`, and their JSON forms) is "
        "merged into the block of the primary files with the same header: the block type and all its labels. "
        "The rule reports an override block with no such base: a resource, data source, variable, output, "
        "module call, local value or aliased provider configuration that no primary file declares (Terraform "
        "rejects these), and a default `provider` block that no primary file declares (Terraform accepts it as "
        "a new configuration, so the override overrides nothing). `terraform` blocks, and the `backend`, "
        "`cloud` and `required_providers` settings inside them, need no base.";
    r.doc.why =
        "An override block without a base is usually a typo in a label or a block whose original was renamed "
        "or removed. Terraform stops loading the module for most of them; for a default provider configuration "
        "it silently creates one, which hides the mistake.";
    r.doc.failing_example = R"hcl(# main.tf
resource "aws_instance" "web" {
  ami = "ami-408c7f28"
}

# override.tf
resource "aws_instance" "webserver" {
  ami = "ami-0c55b159"
}
)hcl";
    r.doc.passing_example = R"hcl(# main.tf
resource "aws_instance" "web" {
  ami = "ami-408c7f28"
}

# override.tf
resource "aws_instance" "web" {
  ami = "ami-0c55b159"
}
)hcl";
    r.doc.fix_safety = "Not fixable: the override block must be renamed to its base, or the base restored.";
    r.check = check;
    r.claimed_codes = {
        code::missing_base_provider_configuration_for_override,
        code::missing_base_variable_declaration_to_override,
        code::missing_base_local_value_definition_to_override,
        code::missing_base_output_definition_to_override,
        code::missing_module_call_to_override,
        code::missing_resource_to_override,
        code::missing_data_resource_to_override,
    };
    return r;
}

}  // namespace tfsift::lint::rules
