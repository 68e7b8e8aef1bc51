// duplicate-block: two primary files of a module (or one file twice)
// declare the same object. Terraform's loader rejects this, so the rule
// claims the loader's duplicate-declaration diagnostics
// (src/config/override_merger.cpp, OverrideMerger::add_primary).
#include "support/factories.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::lint::rules {

Rule duplicate_block() {
    Rule r;
    r.id = "duplicate-block";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "Two primary configuration files of a module declare the same object.";
    r.doc.what =
        "Terraform reads every `.tf` and `.tf.json` file of a directory (except override files) as one module and "
        "expects each object to be declared once. The rule reports a second declaration of a resource or data "
        "source with the same type and name, a variable, output, module call or local value with the same name, "
        "or a provider configuration with the same name and alias (or two default configurations of one "
        "provider). The finding points at the later declaration; the message names where the first one is. "
        "Blocks repeated in override files (`override.tf`, `*_override.tf`) are not duplicates: they are merged "
        "into the primary block one after the other.";
    r.doc.why =
        "Terraform refuses to load the module (`init`, `validate` and `plan` all stop). A copy of a block "
        "usually appears when a file is split or duplicated; the two copies then drift apart and it is unclear "
        "which one was meant.";
    r.doc.failing_example = R"hcl(# main.tf
variable "region" {
  type = string
}

# variables.tf
variable "region" {
  type    = string
  default = "eu-west-1"
}
)hcl";
    r.doc.passing_example = R"hcl(# variables.tf
variable "region" {
  type    = string
  default = "eu-west-1"
}
)hcl";
    r.doc.fix_safety = "Not fixable: which declaration to keep is a decision for the author.";
    r.claimed_codes = {
        code::duplicate_provider_configuration,
        code::duplicate_variable_declaration,
        code::duplicate_local_value_definition,
        code::duplicate_output_definition,
        code::duplicate_module_call,
        code::duplicate_resource,
        code::duplicate_data,
    };
    return r;
}

}  // namespace tfsift::lint::rules
