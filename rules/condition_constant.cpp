// condition-constant: a precondition or postcondition must check something
// from elsewhere in the configuration.
#include "support/factories.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::lint::rules {
namespace {}  // namespace

Rule condition_constant() {
    Rule r;
    r.id = "condition-constant";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "The `condition` of a precondition or postcondition refers to nothing, so it is a constant.";
    r.doc.what =
        "Reports a `precondition` or `postcondition` block (in a resource's or data source's `lifecycle` block, "
        "or in an `output` block) whose `condition` does not refer to any variable, resource, data source, local "
        "value, `self` or other object: `condition = true`, `condition = length([]) == 0`. The `error_message` "
        "may be constant; the condition may not.";
    r.doc.why =
        "A condition that refers to nothing always has the same result, so it checks nothing: it either always "
        "passes or always fails. Terraform refuses to load such a condition.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "web" {
  lifecycle {
    precondition {
      condition     = true
      error_message = "Always fine."
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "web" {
  lifecycle {
    precondition {
      condition     = data.aws_ami.app.architecture == "x86_64"
      error_message = "The AMI must be for the x86_64 architecture."
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.claimed_codes = {code::invalid_precondition_expression, code::invalid_postcondition_expression};
    return r;
}

}  // namespace tfsift::lint::rules
