// lifecycle-unknown-argument: a `lifecycle` block holds only the arguments
// and blocks Terraform defines for it.
#include "support/factories.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::lint::rules {

Rule lifecycle_unknown_argument() {
    Rule r;
    r.id = "lifecycle-unknown-argument";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A `lifecycle` block sets an argument or holds a block that Terraform does not define.";
    r.doc.what =
        "A resource's `lifecycle` block may set `create_before_destroy`, `prevent_destroy`, `ignore_changes`, "
        "`replace_triggered_by` and `destroy` (Terraform v1.16, OpenTofu v1.12), and `enabled` with OpenTofu "
        "(v1.11), and hold `precondition`, `postcondition` and `action_trigger` (Terraform v1.14) blocks; a data "
        "source's `lifecycle` block may hold only the two condition blocks. Anything else there is reported: a "
        "misspelt name (`create_before_destory`), a setting that belongs elsewhere (`depends_on`, `count`), a "
        "`dynamic` block, or a resource-only argument or block on a data source. JSON syntax (`.tf.json`) is "
        "checked the same way.";
    r.doc.why =
        "Terraform refuses to load the module. A misspelt lifecycle argument is worse than most typos: the "
        "protection it was meant to give (`prevent_destroy`, `ignore_changes`) would silently be missing if it "
        "were accepted.";
    r.doc.failing_example = R"hcl(resource "aws_db_instance" "main" {
  lifecycle {
    prevent_destroys = true
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_db_instance" "main" {
  lifecycle {
    prevent_destroy = true
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.claimed_codes = {
        code::invalid_data_resource_lifecycle_argument,
        code::invalid_data_resource_lifecycle_nested_block,
        code::lifecycle_unknown_member,
    };
    return r;
}

}  // namespace tfsift::lint::rules
