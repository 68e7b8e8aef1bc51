// reference-undeclared: an expression refers to an input variable, local
// value, resource, data source, ephemeral resource or module call the module
// does not declare, or to an output the called module does not declare.
#include "support/factories.hpp"
#include "support/reference_findings.hpp"

namespace tfsift::lint::rules {

namespace {
constexpr std::string_view rule_id = "reference-undeclared";
}  // namespace

Rule reference_undeclared() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.doc.summary = "An expression refers to something the module does not declare.";
    r.doc.what =
        "Every reference in every expression of the module must name something declared: `var.NAME` a `variable` "
        "block, `local.NAME` an entry of a `locals` block, `TYPE.NAME`, `data.TYPE.NAME` and `ephemeral.TYPE.NAME` a "
        "resource, data source or ephemeral resource of this module (a data source nested in a `check` block only "
        "from inside that block), `module.NAME` a module call, and `module.NAME.OUTPUT` an `output` the called "
        "module declares (checked when the called module is a local directory, or a remote module installed in "
        "`.terraform/modules` or cached). The "
        "message is Terraform's (`terraform validate`), with its suggestion of a close name. In `.tf.json` files "
        "every string is read as a template (`\"${var.region}\"`) and `depends_on` items as references; a finding "
        "in a string with escapes points at the whole string.";
    r.doc.why =
        "Terraform rejects the configuration in `validate`, `plan` and `apply`; a typo in a name otherwise goes "
        "unnoticed until someone runs them with credentials and a backend.";
    r.doc.failing_example = R"hcl(variable "region" {
  type = string
}

output "region" {
  value = var.regoin
}
)hcl";
    r.doc.passing_example = R"hcl(variable "region" {
  type = string
}

output "region" {
  value = var.region
}
)hcl";
    r.doc.fix_safety = "Not fixable: whether to declare the object or correct the name is the author's decision.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        report_reference_problems(ctx, sink, rule_id, ReferenceProblemKind::undeclared);
    };
    return r;
}

}  // namespace tfsift::lint::rules
