// lock-constraints-drift: the recorded `constraints` differ from what the
// configuration would record now.
#include <fmt/core.h>

#include <set>
#include <string_view>

#include "support/factories.hpp"
#include "support/not_loaded_caveat.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

namespace {

// Whether every comma-separated piece of the rendered constraints `part`
// is one of those of `whole`.
bool includes_every_piece(std::string_view whole, std::string_view part) {
    std::set<std::string_view> pieces;
    for (std::size_t at = 0; at <= whole.size();) {
        std::size_t end = whole.find(", ", at);
        if (end == std::string_view::npos) end = whole.size();
        pieces.insert(whole.substr(at, end - at));
        at = end + 2;
    }
    for (std::size_t at = 0; at <= part.size();) {
        std::size_t end = part.find(", ", at);
        if (end == std::string_view::npos) end = part.size();
        if (end > at && pieces.count(part.substr(at, end - at)) == 0) return false;
        at = end + 2;
    }
    return true;
}

}  // namespace

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
        "(absent counts as empty). Reported at `constraints`, or at the entry's label when it has none. While some "
        "module calls of the tree are not loaded (a remote module neither installed nor cached, see "
        "`module-not-loaded`), whose constraints are unknown, recorded constraints beyond the loaded modules' "
        "may be theirs: a drift is reported only when the entry lacks a constraint the loaded modules give, "
        "with the message naming the calls not loaded, and `--fix` leaves the entry alone.";
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
        // Modules that are not loaded may add constraints: a drift they
        // cannot explain is still reported, saying so, but not rewritten
        // by --fix.
        const std::vector<std::string> unloaded = config::unloaded_module_calls(ctx.module());
        for (const auto* req : in.lockable(ctx.engine)) {
            const auto* lock = in.read.locks.find(req->provider);
            if (lock == nullptr) continue;
            std::string want = providers::render_constraints(req->constraints);
            std::string have = providers::render_constraints(lock->constraints);
            if (want == have) continue;
            // Modules that are not loaded can only add constraints: while the
            // recorded ones include every one the loaded modules give, the
            // rest may be theirs.
            if (!unloaded.empty() && includes_every_piece(have, want)) continue;
            Finding f;
            f.rule_id = "lock-constraints-drift";
            f.severity = Severity::notice;
            f.message = fmt::format(
                "provider {}: the lock file records constraints \"{}\" but the configuration now gives \"{}\"",
                req->provider.to_string(), have, want);
            f.message += not_loaded_caveat(unloaded, "add constraints");
            f.file = in.source();
            f.range = in.entry_range(req->provider, &providers::LockEntryLocation::constraints);
            if (unloaded.empty()) attach_lock_repair(ctx, f, req->provider);
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
