// lock-in-shared-module: a lock file beside a module that other modules call.
#include <filesystem>

#include "support/factories.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

Rule lock_in_shared_module() {
    Rule r;
    r.id = "lock-in-shared-module";
    r.default_severity = Severity::notice;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::medium;
    r.security_severity = 2.0;
    r.doc.summary = "A module that other modules call has its own dependency lock file, which Terraform ignores.";
    r.doc.what =
        "Reports a `.terraform.lock.hcl` in a module directory that another module of the scan calls by a local "
        "path. Terraform reads only the lock file of the root module (the working directory); provider selections "
        "of every module in the tree are recorded there.";
    r.doc.why =
        "A lock file in a shared module looks as if it pinned that module's providers, but it has no effect: "
        "callers select versions from their own lock file. It goes stale unnoticed and misleads reviewers.";
    r.doc.failing_example = R"hcl(# modules/network/.terraform.lock.hcl exists, and the root module calls
module "network" {
  source = "./modules/network"
}
)hcl";
    r.doc.passing_example = R"hcl(# only the root module has a .terraform.lock.hcl
module "network" {
  source = "./modules/network"
}
)hcl";
    r.doc.fix_safety = "Not fixable: delete the file (or stop calling the module) yourself.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::called) return;
        if (ctx.listed_without(config::absolute_normal_path(ctx.module_dir), providers::kLockFileName)) return;
        std::string path = lock_file_display_path(ctx.module_dir);
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) return;
        Finding f;
        f.rule_id = "lock-in-shared-module";
        f.severity = Severity::notice;
        f.message =
            "this module is called by other modules, so Terraform ignores its dependency lock file; provider "
            "versions are locked in the root module's .terraform.lock.hcl";
        try {
            f.file = SourceFile::read(path);
        } catch (const std::exception&) {
            f.file = std::make_shared<const SourceFile>(path, std::string());
        }
        sink.report(std::move(f));
    };
    return r;
}

}  // namespace tfsift::lint::rules
