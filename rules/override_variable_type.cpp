// override-variable-type: after an override file changes a variable's `type`
// or `default`, the default no longer converts to the type.
//
// Terraform's loader converts the merged default again after each override
// and rejects the module when that fails ("Invalid default value for
// variable"). The rule claims those diagnostics when an override file is
// their cause; the same summary for a primary file's own mistake stays with
// invalid-configuration.
#include <string_view>

#include "support/factories.hpp"
#include "support/override_support.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::lint::rules {

Rule override_variable_type() {
    Rule r;
    r.id = "override-variable-type";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "An override file makes a variable's default incompatible with its type.";
    r.doc.what =
        "When an override file changes the `type` of a variable whose primary block sets a `default`, Terraform "
        "converts that default to the new type; when an override changes the `default` of a variable whose "
        "primary block sets a `type`, the new default must convert to that type. The rule reports an override "
        "whose merged result fails that conversion, at the override block (or at the override's `default` when "
        "the override block sets both and they disagree). A primary block whose own default does not match its "
        "own type is reported by `invalid-configuration`.";
    r.doc.why =
        "Terraform refuses to load the module. The primary file alone looks correct, so the mistake is easy to "
        "miss in review.";
    r.doc.failing_example = R"hcl(# variables.tf
variable "zones" {
  default = "eu-west-1a"
}

# override.tf
variable "zones" {
  type = list(string)
}
)hcl";
    r.doc.passing_example = R"hcl(# variables.tf
variable "zones" {
  default = ["eu-west-1a"]
}

# override.tf
variable "zones" {
  type = list(string)
}
)hcl";
    r.doc.fix_safety = "Not fixable: change the default or the type so that they agree.";
    r.claimed_codes = {
        code::override_type_invalidates_default,
        code::override_default_type_mismatch,
        code::variable_default_type_mismatch,
    };
    // Only when an override file is the cause; the same mistake in a primary
    // file alone stays invalid-configuration.
    r.claim_only_if = [](const ClaimedDiagnostic& d) {
        return is_override_file_path(d.source ? std::string_view(d.source->path()) : d.filename);
    };
    return r;
}

}  // namespace tfsift::lint::rules
