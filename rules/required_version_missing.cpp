// required-version-missing: a module that states no `required_version`.
#include "support/factories.hpp"
#include "support/module_anchor.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    const config::Module& m = *ctx.module().module;
    if (!m.terraform.required_version.empty()) return;
    auto [file, range] = module_anchor(ctx);
    if (!file) return;
    Finding f;
    f.rule_id = "required-version-missing";
    f.severity = Severity::warning;
    f.file = std::move(file);
    f.range = range;
    f.message = "this module sets no required_version: say which Terraform versions it is written for";
    sink.report(std::move(f));
}

}  // namespace

Rule required_version_missing() {
    Rule r;
    r.id = "required-version-missing";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A module has no `required_version` in any `terraform` block.";
    r.doc.what =
        "Reports a module none of whose files (override files applied) sets `required_version` in a "
        "`terraform` block, at the first `terraform` block, or at the start of the module's first file when "
        "there is none. Root and called modules alike. TFLint calls this `terraform_required_version`.";
    r.doc.why =
        "Without it any Terraform release will try the module, and one older than the language features it "
        "uses fails with errors about unknown blocks and arguments rather than saying that it is too old; and "
        "readers cannot tell which releases the module is meant for.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_version = ">= 1.5"
}
)hcl";
    r.doc.fix_safety = "Not fixable: state the oldest release you test with yourself.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
