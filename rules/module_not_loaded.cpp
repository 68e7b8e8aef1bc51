// module-not-loaded: a module call whose source is a registry address, git
// or an archive URL, and whose module neither .terraform/modules, the module
// cache nor (when the command may fetch) the network could provide. The
// loader makes one diagnostic on the call's `source` naming the checks the
// call leaves incomplete (config::load_module_tree); the rule claims it, so
// it can be switched off and ignored like any finding.
#include "support/factories.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::lint::rules {

Rule module_not_loaded() {
    Rule r;
    r.id = "module-not-loaded";
    r.default_severity = Severity::notice;
    // Off by default: a remote call per module is common, and a repository
    // linted without `terraform init` would fill every report (and code
    // scanning) with these. While it is off, each call is a notice on
    // stderr instead.
    r.enabled_by_default = false;
    r.fixable = false;
    r.category = RuleCategory::correctness;
    r.doc.summary = "A remote module call could not be loaded, so the checks that need its module are incomplete.";
    r.doc.what =
        "Reports a `module` call whose `source` is not a local path (a registry address, a git or archive URL) "
        "when the called module cannot be loaded: it is not installed in `.terraform/modules` (or its "
        "`modules.json` entry no longer matches the call's source or version), not in tfsift's module cache, and "
        "the command may not fetch it (`tfsift lint` stays offline unless `--online`). One notice per call, on its "
        "`source`, says why and names what stays unchecked until the module is loaded: the call's arguments and "
        "the providers it passes, references to the module's outputs, its `required_version` and the providers it "
        "requires (the lock rules). Everything else is checked as usual. A call whose `source` or `version` is "
        "written with variables and local values (OpenTofu v1.8, Terraform v1.15) is followed when tfsift can "
        "work the value out as `init` does; when it cannot (a variable without a default that no "
        "`terraform.tfvars` or `*.auto.tfvars` sets, a function tfsift does not evaluate), the notice names "
        "what is unknown. A call whose fetch was tried and failed "
        "(a 404, an unresolvable version constraint, a refused credential, a hostile archive) is an error. Calls "
        "written inside remote modules are not reported (see `remote_module_findings`). The rule is off by "
        "default (on in the `strict` preset): while it is off, each such call is printed on stderr as "
        "`FILE:LINE:COLUMN: notice: Module not loaded: ...` instead, which reports leave out, and a failed fetch "
        "still fails the run. Turn it on to see the notices in reports and editors and to ignore one inline. "
        "See docs/modules.md.";
    r.doc.why =
        "A finding that is not made is not a pass: the notice says which checks did not run, and that `tfsift "
        "fetch` (or `terraform init`) makes them run.";
    r.doc.failing_example = R"hcl(# No .terraform/modules from `terraform init`, nothing in the module cache
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
}
)hcl";
    r.doc.passing_example = R"hcl(# After `tfsift fetch` (or `terraform init`)
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
}
)hcl";
    r.doc.fix_safety = "Not fixable: `tfsift fetch` or `terraform init` fetches the module.";
    r.claimed_codes = {code::module_not_loaded};
    return r;
}

}  // namespace tfsift::lint::rules
