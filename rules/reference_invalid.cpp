// reference-invalid: a reference that cannot be valid where it is written.
#include "support/factories.hpp"
#include "support/reference_findings.hpp"

namespace tfsift::lint::rules {

namespace {
constexpr std::string_view rule_id = "reference-invalid";
}  // namespace

Rule reference_invalid() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.doc.summary = "A reference is malformed, or names something that is not available where it is written.";
    r.doc.what =
        "Reports, with Terraform's messages, the references `terraform validate` rejects without looking at "
        "provider schemas: `count.index` outside a block that sets `count`, `each.key` / `each.value` outside a "
        "block that sets `for_each`, `self` outside provisioners, connection blocks and postconditions; attributes "
        "of `count`, `each`, `path` and `terraform` that do not exist, and the removed `terraform.env`; a bare "
        "`var`, `local` or resource type; the reserved names `template`, `lazy` and `arg`; an attribute access that "
        "the variable's declared type cannot have (`var.name.first` with `type = string`, or an attribute an "
        "object type does not declare); an index on a resource without `count` or `for_each`, an attribute of a "
        "resource with them but without an index, and the legacy `TYPE.NAME.count`; and `depends_on` items that "
        "name an attribute rather than a whole object. A variable without `type` accepts any attribute.";
    r.doc.why =
        "Terraform rejects each of these in `validate` and `plan`. Most come from copying an expression between "
        "blocks (`count.index` into a block without `count`) or from Terraform 0.11 habits.";
    r.doc.failing_example = R"hcl(variable "name" {
  type = string
}

locals {
  first = var.name.first
  index = count.index
}
)hcl";
    r.doc.passing_example = R"hcl(variable "name" {
  type = object({ first = string })
}

locals {
  first = var.name.first
}
)hcl";
    r.doc.fix_safety = "Not fixable: the intended expression is the author's decision.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        report_reference_problems(ctx, sink, rule_id, ReferenceProblemKind::invalid);
    };
    return r;
}

}  // namespace tfsift::lint::rules
