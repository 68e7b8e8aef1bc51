// terraform-workspace-remote: `terraform.workspace` in a module with the
// `remote` backend, for Terraform releases before v1.1 (TFLint's
// terraform_workspace_remote).
#include "support/factories.hpp"
#include "support/reference_findings.hpp"

namespace tfsift::lint::rules {

namespace {
constexpr std::string_view rule_id = "terraform-workspace-remote";
}  // namespace

Rule terraform_workspace_remote() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.doc.summary = "`terraform.workspace` is used with the `remote` backend on a Terraform release before v1.1.";
    r.doc.what =
        "Reports each `terraform.workspace` in a module whose `terraform` block configures `backend \"remote\"`, "
        "when the Terraform release in use may be older than v1.1: `engine_version` names such a release, or, "
        "without it, `required_version` allows one. Without either, a current release is assumed and nothing is "
        "reported (as TFLint's `terraform_workspace_remote` does). OpenTofu is not affected.";
    r.doc.why =
        "With remote operations, those releases evaluate `terraform.workspace` on the remote side as `default`, "
        "whatever workspace the run belongs to, so names and tags built from it collide across workspaces.";
    r.doc.failing_example = R"hcl(terraform {
  required_version = ">= 0.14"
  backend "remote" {
    organization = "example"
    workspaces {
      prefix = "app-"
    }
  }
}

locals {
  environment = terraform.workspace
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_version = ">= 1.1"
  backend "remote" {
    organization = "example"
    workspaces {
      prefix = "app-"
    }
  }
}

locals {
  environment = terraform.workspace
}
)hcl";
    r.doc.fix_safety = "Not fixable: raise `required_version` to `>= 1.1` or pass the environment as a variable.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        report_reference_problems(ctx, sink, rule_id, ReferenceProblemKind::workspace_remote);
    };
    return r;
}

}  // namespace tfsift::lint::rules
