// lock-missing-hashes: a lock entry that records no checksum at all.
#include "support/factories.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

Rule lock_missing_hashes() {
    Rule r;
    r.id = "lock-missing-hashes";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::very_high;
    r.security_severity = 6.0;
    r.fixable = true;
    r.doc.summary = "A lock file entry records no package checksum.";
    r.doc.what =
        "Reports each `provider` block of the root module's `.terraform.lock.hcl` whose `hashes` is missing or "
        "empty. `terraform init` and `tofu init` record at least the checksum of the package they install; such "
        "an entry usually comes from a hand edit, a merge "
        "that lost the list, or a tool that recorded a version without being able to hash a package.";
    r.doc.why =
        "The checksums are what the lock file protects: with none recorded, the next `init` has nothing to "
        "compare the package with beyond what its source vouches for (a filesystem or network mirror vouches "
        "for nothing), and records the checksum of what it received as if it had always been trusted.";
    r.doc.failing_example = R"hcl(provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = "~> 5.0"
}
)hcl";
    r.doc.passing_example = R"hcl(provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = "~> 5.0"
  hashes = [
    "h1:<checksum of the package>",
  ]
}
)hcl";
    r.doc.fix_safety =
        std::string(
            "`tfsift lint --fix` (or `tfsift lock`) records the `h1:` checksum of each wanted platform whose package "
            "can be found and hashes cleanly; without such a package the entry stays as it is and the finding remains.") +
        std::string(kLockRepairFixSafety);
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors()) return;
        for (const auto& [provider, lock] : in.read.locks.providers) {
            if (!lock.hashes.empty()) continue;
            Finding f;
            f.rule_id = "lock-missing-hashes";
            f.severity = Severity::warning;
            f.message = "provider " + provider.to_string() + " " + lock.version.to_string() +
                        " is locked without any checksum, so any package of that version would be accepted; run "
                        "`tfsift lint --fix` with the package available, or `terraform providers lock`";
            f.file = in.source();
            f.range = in.entry_range(provider, nullptr);
            attach_lock_repair(ctx, f, provider);
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
