// lock-platforms-lost: a lock-file change leaves a provider with hashes for
// fewer platforms than the base had (`tfsift lock diff`).
#include <fmt/format.h>

#include "support/review_factories.hpp"

namespace tfsift::lint::rules {

ReviewRule lock_platforms_lost() {
    ReviewRule review;
    Rule& r = review.rule;
    r.id = "lock-platforms-lost";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::high;
    r.security_severity = 2.0;
    r.doc.summary = "A lock-file change drops the hashes of platforms the base covered.";
    r.doc.what =
        "Run by `tfsift lock diff` (docs/lock-review.md). The platforms an entry covers are read from its hashes: "
        "a `zh:` names its platform through the file name of its line in the signed `SHA256SUMS`, an `h1:` "
        "through the signed package it is the hash of. A provider that the base covered for a platform and the "
        "change no longer covers is reported at the entry's `hashes`, naming the platforms lost. Needs the "
        "registry: with `--offline` it reports nothing.";
    r.doc.why =
        "`terraform init` on a platform the lock file has no hash for fails, since the package matches none of "
        "the recorded checksums: a teammate on macOS or a runner on arm64 finds out after the merge. An install "
        "from the registry records the signed `zh:` checksums of every platform, but one from a filesystem or "
        "network mirror records only the platform it ran on, and a hand edit or a merge can drop the rest.";
    r.doc.failing_example = R"hcl(# base: hashes for darwin_arm64 and linux_amd64
provider "registry.terraform.io/example/demo" {
  version = "1.2.0"
  hashes = [
    "zh:<the signed sha256 of the linux_amd64 package>",
  ]
}
)hcl";
    r.doc.passing_example = R"hcl(# base: hashes for darwin_arm64 and linux_amd64
provider "registry.terraform.io/example/demo" {
  version = "1.2.0"
  hashes = [
    "zh:<the signed sha256 of the darwin_arm64 package>",
    "zh:<the signed sha256 of the linux_amd64 package>",
  ]
}
)hcl";
    r.doc.fix_safety =
        "Not fixable here: `tfsift lock --platform OS_ARCH` (once per platform) records the missing hashes.";
    review.check = [](const LockReviewContext& ctx, FindingSink& sink) {
        for (const auto& p : ctx.providers) {
            if (!p.change.from || !p.change.to) continue;
            const auto lost = providers::platforms_lost(p.platforms_before, p.platforms_after);
            if (lost.empty()) continue;
            std::string names;
            for (const auto& l : lost) names += (names.empty() ? "" : ", ") + l;
            Finding f;
            f.rule_id = "lock-platforms-lost";
            f.severity = Severity::warning;
            f.file = ctx.file;
            f.range = ctx.entry_range(p.change.provider, &providers::LockEntryLocation::hashes);
            f.message =
                fmt::format("{} {} no longer has hashes for {} (the base's {} had)", p.change.provider.to_string(),
                            p.change.to->to_string(), names, p.change.from->to_string());
            sink.report(std::move(f));
        }
    };
    return review;
}

}  // namespace tfsift::lint::rules
