// lock-version-mismatch: the locked version is outside the combined
// constraints of the module tree.
#include "support/factories.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

Rule lock_version_mismatch() {
    Rule r;
    r.id = "lock-version-mismatch";
    r.default_severity = Severity::error;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::very_high;
    r.security_severity = 4.0;
    r.fixable = true;
    r.doc.summary = "A locked provider version does not satisfy the version constraints of all modules.";
    r.doc.what =
        "Combines the version constraints every module of the tree gives a provider (an intersection) and reports "
        "a lock entry whose `version` they do not accept, at that `version` argument. The message names the "
        "combined constraints in the form the lock file records them.";
    r.doc.why =
        "`terraform init` stops with \"locked provider ... does not match configured version constraint\" until "
        "someone runs `init -upgrade`; in CI this usually surfaces only after a module upgrade is merged.";
    r.doc.failing_example = R"hcl(# .terraform.lock.hcl: version = "4.67.0"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(# .terraform.lock.hcl: version = "5.31.0"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
)hcl";
    r.doc.fix_safety =
        std::string(
            "`tfsift lint --fix --unsafe-fixes` replaces the version with the newest one the constraints accept among "
            "the packages that can be found (and records that version's hashes); without one it leaves the entry alone.") +
        std::string(kLockRepairFixSafety);
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors()) return;
        for (const auto* req : in.lockable(ctx.engine)) {
            const auto* lock = in.read.locks.find(req->provider);
            if (lock == nullptr || providers::constraints_allow(req->constraints, lock->version)) continue;
            Finding f;
            f.rule_id = "lock-version-mismatch";
            f.severity = Severity::error;
            f.message = "locked provider " + req->provider.to_string() + " " + lock->version.to_string() +
                        " does not match the configured version constraint " +
                        providers::render_constraints(req->constraints);
            f.file = in.source();
            f.range = in.entry_range(req->provider, &providers::LockEntryLocation::version);
            for (const auto& site : req->sites) {
                if (site.constraints_text.empty()) continue;
                if (auto file = ctx.shared_source(site.origin.file)) {
                    f.related.push_back({file, Range{site.origin.pos, site.origin.pos},
                                         "constraint \"" + site.constraints_text + "\""});
                }
            }
            attach_lock_repair(ctx, f, req->provider);
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
