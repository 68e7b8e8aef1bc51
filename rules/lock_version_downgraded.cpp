// lock-version-downgraded: a lock-file change moves a provider to a lower
// version (`tfsift lock diff`).
#include <fmt/format.h>

#include "support/review_factories.hpp"

namespace tfsift::lint::rules {

ReviewRule lock_version_downgraded() {
    ReviewRule review;
    Rule& r = review.rule;
    r.id = "lock-version-downgraded";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::high;
    r.security_severity = 4.0;
    r.doc.summary = "A lock-file change moves a provider to a lower version than the base locked.";
    r.doc.what =
        "Run by `tfsift lock diff` (docs/lock-review.md). A provider whose locked version is lower than the one "
        "in the base (by version precedence, so 1.10.0 is above 1.9.0 and a prerelease below its release) is "
        "reported at the entry's `version`, naming both versions.";
    r.doc.why =
        "Lock files move forward when someone upgrades on purpose; a silent step back usually comes from a merge "
        "that kept an old branch's file, and it brings back the bugs and vulnerabilities the upgrade removed.";
    r.doc.failing_example = R"hcl(# base: version = "1.2.0"
provider "registry.terraform.io/example/demo" {
  version = "1.0.0"
}
)hcl";
    r.doc.passing_example = R"hcl(# base: version = "1.0.0"
provider "registry.terraform.io/example/demo" {
  version = "1.2.0"
}
)hcl";
    r.doc.fix_safety =
        "Not fixable: if the downgrade was not meant, take the base's entry back (`git checkout BASE -- "
        ".terraform.lock.hcl`) or run `tfsift lock` again.";
    review.check = [](const LockReviewContext& ctx, FindingSink& sink) {
        for (const auto& p : ctx.providers) {
            if (p.change.change != providers::LockChange::downgraded) continue;
            Finding f;
            f.rule_id = "lock-version-downgraded";
            f.severity = Severity::warning;
            f.file = ctx.file;
            f.range = ctx.entry_range(p.change.provider, &providers::LockEntryLocation::version);
            f.message = fmt::format("{} moves back from {} to {}", p.change.provider.to_string(),
                                    p.change.from->to_string(), p.change.to->to_string());
            sink.report(std::move(f));
        }
    };
    return review;
}

}  // namespace tfsift::lint::rules
