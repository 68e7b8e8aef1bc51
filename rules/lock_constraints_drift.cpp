// lock-constraints-drift: the recorded `constraints` differ from what the
// configuration would record now.
#include <fmt/core.h>

#include "support/factories.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

Rule lock_constraints_drift() {
    Rule r;
    r.id = "lock-constraints-drift";
    r.default_severity = Severity::notice;
    r.category = RuleCategory::supply_chain;
    r.security_severity = 2.0;
    r.fixable = true;
    r.doc.summary = "A lock entry's `constraints` string differs from what the current configuration would record.";
    r.doc.what =
        "Renders the combined version constraints of every module for each locked provider the way the lock file "
        "records them (deduplicated, sorted, normalized) and compares the result with the entry's `constraints` "
        "(absent counts as empty). Reported at `constraints`, or at the entry's label when it has none. Nothing is "
        "reported while the tree calls modules that are not loaded (registry or remote sources), whose constraints "
        "are unknown.";
    r.doc.why =
        "The lock file records the constraints that were in force at the last `init`. A change to the "
        "configuration's constraints leaves the recorded string behind until someone runs `init` again and "
        "commits the result, so the lock file under review describes another configuration and reviewers read "
        "outdated intent from it.";
    r.doc.failing_example = R"hcl(# .terraform.lock.hcl: constraints = "~> 4.0"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(# .terraform.lock.hcl: constraints = "~> 5.0"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
)hcl";
    r.doc.fix_safety =
        std::string("`tfsift lint --fix` writes the current constraints string; by itself that changes no version.") +
        std::string(kLockRepairFixSafety);
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors()) return;
        // Modules that are not loaded (remote sources) may require more.
        if (!config::unloaded_module_calls(ctx.module()).empty()) return;
        for (const auto* req : in.lockable(ctx.engine)) {
            const auto* lock = in.read.locks.find(req->provider);
            if (lock == nullptr) continue;
            std::string want = providers::render_constraints(req->constraints);
            std::string have = providers::render_constraints(lock->constraints);
            if (want == have) continue;
            Finding f;
            f.rule_id = "lock-constraints-drift";
            f.severity = Severity::notice;
            f.message = fmt::format(
                "provider {}: the lock file records constraints \"{}\" but the configuration now gives \"{}\"",
                req->provider.to_string(), have, want);
            f.file = in.source();
            f.range = in.entry_range(req->provider, &providers::LockEntryLocation::constraints);
            attach_lock_repair(ctx, f, req->provider);
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
