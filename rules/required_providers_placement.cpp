// required-providers-placement: a `required_providers` block written
// outside the `terraform` block. Terraform's loader rejects it with its own
// diagnostic, which this rule claims.
#include "support/factories.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::lint::rules {

Rule required_providers_placement() {
    Rule r;
    r.id = "required-providers-placement";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A `required_providers` block must sit inside the top-level `terraform` block.";
    r.doc.what =
        "Reports a `required_providers` block written at the top level of a file instead of nested in a "
        "`terraform` block (or, for OpenTofu, a `tofu` block). The finding is Terraform's own load error "
        "\"Invalid required_providers block\", reported under this rule.";
    r.doc.why =
        "Terraform refuses to load the module, so `init`, `validate` and `plan` all stop. The block only has a "
        "meaning inside the settings block, next to `required_version` and the backend.";
    r.doc.failing_example = R"hcl(required_providers {
  aws = {
    source  = "hashicorp/aws"
    version = "~> 5.0"
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
    r.doc.fix_safety = "Not fixable: move the block into the `terraform` block by hand.";
    r.claimed_codes = {code::invalid_required_providers_block};
    return r;
}

}  // namespace tfsift::lint::rules
