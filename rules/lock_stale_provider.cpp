// lock-stale-provider: a lock file entry for a provider nothing requires.
#include "support/factories.hpp"
#include "support/not_loaded_caveat.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

Rule lock_stale_provider() {
    Rule r;
    r.id = "lock-stale-provider";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::medium;
    r.security_severity = 2.0;
    r.fixable = true;
    r.doc.summary = "The lock file has an entry for a provider that neither the configuration nor the state requires.";
    r.doc.what =
        "Reports each `provider` block of the root module's `.terraform.lock.hcl` whose provider is required by no "
        "module of the tree and used by no resource of the state file (when there is one). `terraform init` "
        "removes such entries the next time it runs. A state file that cannot be read is reported too, since "
        "entries it might still need cannot be told apart then. While some module calls of the tree are not loaded "
        "(a remote module neither installed nor cached, see `module-not-loaded`), entries are still reported, "
        "as notices whose message names those calls, since they may require the provider; `--fix` then leaves "
        "the entry alone. `tfsift fetch` (or `terraform init`) makes the answer certain.";
    r.doc.why =
        "Stale entries make the lock file say the project depends on providers it no longer uses, and the next "
        "`init` produces an unrelated diff in whatever change happens to run it.";
    r.doc.failing_example = R"hcl(# .terraform.lock.hcl still lists hashicorp/null, which nothing uses
resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}
)hcl";
    r.doc.passing_example = R"hcl(# .terraform.lock.hcl lists only hashicorp/aws
resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}
)hcl";
    r.doc.fix_safety = std::string("`tfsift lint --fix` removes the entry, as `terraform init` would.") +
                       std::string(kLockRepairFixSafety);
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors()) return;
        // Modules that are not loaded may require more: the entry is still
        // reported, saying so, as a notice, and not removed by --fix.
        const std::vector<std::string> unloaded = config::unloaded_module_calls(ctx.module());
        auto state = load_state(ctx);
        config::TreeRequirements from_state;  // what only the state requires
        if (state) {
            report_state_diagnostics(*state, "lock-stale-provider", Severity::warning, sink);
            if (state->has_errors()) return;
            config::add_state_requirements(from_state, *state);
        }
        for (const auto& [provider, lock] : in.read.locks.providers) {
            if (in.requirements().count(provider) || from_state.count(provider)) continue;
            Finding f;
            f.rule_id = "lock-stale-provider";
            // A maybe: a notice, which does not fail a run by default.
            f.severity = unloaded.empty() ? Severity::warning : Severity::notice;
            f.message =
                "provider " + provider.to_string() + " is locked but " +
                (state ? "neither the configuration nor the state requires" : "the configuration does not require") +
                " it any more" + not_loaded_caveat(unloaded, "require it");
            f.file = in.source();
            f.range = in.entry_range(provider, nullptr);
            if (unloaded.empty()) attach_lock_repair(ctx, f, provider);
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
