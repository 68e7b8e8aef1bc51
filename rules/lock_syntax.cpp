// lock-syntax: the root module's `.terraform.lock.hcl` as Terraform reads it.
#include "support/factories.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

Rule lock_syntax() {
    Rule r;
    r.id = "lock-syntax";
    r.default_severity = Severity::error;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::very_high;
    r.security_severity = 4.0;
    r.doc.summary = "The dependency lock file cannot be read the way Terraform reads it.";
    r.doc.what =
        "Reads the root module's `.terraform.lock.hcl` with every check of Terraform's lock file reader: the file "
        "must parse as HCL, hold only `provider` blocks with one label that is a valid, canonical, lockable provider "
        "address, each at most once; `version` must be a canonical exact version, `constraints` a canonical "
        "constraint string and `hashes` a list of strings. Each problem is reported with the reader's own wording "
        "at the place it concerns; warnings (such as the ignored `module` blocks) keep their warning severity. "
        "Runs for modules that no other module of the scan calls.";
    r.doc.why =
        "`terraform init` refuses a lock file it cannot read, so every later command fails until someone repairs "
        "it by hand; hand edits and merge conflicts are the usual cause.";
    r.doc.failing_example = R"hcl(provider "registry.terraform.io/hashicorp/aws" {
  version = "v5.31.0"
}
)hcl";
    r.doc.passing_example = R"hcl(provider "registry.terraform.io/hashicorp/aws" {
  version = "5.31.0"
}
)hcl";
    r.doc.fix_safety =
        "Not fixable: `tfsift lint --fix` and `tfsift lock` never overwrite a lock file they cannot read.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists) return;
        for (const auto& d : in.read.diagnostics) {
            Finding f;
            f.rule_id = "lock-syntax";
            f.severity = d.severity;
            f.message = d.detail.empty() ? d.summary : d.summary + ": " + d.detail;
            f.file = in.source();
            f.range = d.subject.value_or(Range{});
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
