// lock-hash-unsigned: a lock-file change adds a hash that the provider's
// registry did not sign for that version (`tfsift lock diff`).
#include <fmt/format.h>

#include "support/review_factories.hpp"

namespace tfsift::lint::rules {

ReviewRule lock_hash_unsigned() {
    ReviewRule review;
    Rule& r = review.rule;
    r.id = "lock-hash-unsigned";
    r.default_severity = Severity::error;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::very_high;
    r.security_severity = 9.0;
    r.doc.summary = "A lock-file change adds a hash that the provider's registry did not sign for that version.";
    r.doc.what =
        "Run by `tfsift lock diff` (docs/lock-review.md), which compares each `.terraform.lock.hcl` with the same "
        "file at a git revision or with `--base-file`. Every hash the change adds to an entry is checked against "
        "what the provider's registry signed for the entry's version: a `zh:` must be a line of the version's "
        "`SHA256SUMS`, whose OpenPGP signature is verified with the registry's keys; an `h1:` must be the hash of "
        "one of the packages that `SHA256SUMS` lists (taken from the download cache, or downloaded once and "
        "checked against its signed `zh:`). An added hash that is neither is reported at its own line, naming the "
        "provider, the version and the key that signed. A version the registry does not publish has no signed "
        "hashes, so every hash added for it is reported. With `--offline` nothing is verified and the rule "
        "reports nothing.";
    r.doc.why =
        "Tools that update lock files (Renovate, Dependabot, `terraform providers lock` since it merges hashes) "
        "do not check the hashes already in a file or the ones a pull request adds. `init` accepts a package "
        "that matches any recorded hash, and a package from a filesystem or network mirror or from the plugin "
        "cache has no other check: a hash no registry signed lets in a package the provider's author never "
        "published, and a forged entry merged once is trusted on every machine afterwards.";
    r.doc.failing_example = R"hcl(# base: version 1.0.0; the change upgrades and adds a zh: that is not in
# the signed SHA256SUMS of 1.2.0
provider "registry.terraform.io/example/demo" {
  version = "1.2.0"
  hashes = [
    "zh:0000000000000000000000000000000000000000000000000000000000000000",
  ]
}
)hcl";
    r.doc.passing_example = R"hcl(# every added hash is a line of the signed SHA256SUMS of 1.2.0
provider "registry.terraform.io/example/demo" {
  version = "1.2.0"
  hashes = [
    "zh:<the signed sha256 of a 1.2.0 package>",
  ]
}
)hcl";
    r.doc.fix_safety =
        "Not fixable: tfsift cannot know which hash was meant. Regenerate the entry with `tfsift lock` (which "
        "verifies what it records) and review the change again.";
    review.check = [](const LockReviewContext& ctx, FindingSink& sink) {
        for (const auto& p : ctx.providers) {
            if (!p.change.to) continue;
            const std::string what = fmt::format("{} {}", p.change.provider.to_string(), p.change.to->to_string());
            for (const auto& h : p.added) {
                if (!h.is_signed || *h.is_signed) continue;
                Finding f;
                f.rule_id = "lock-hash-unsigned";
                f.severity = Severity::error;
                f.file = ctx.file;
                f.range = ctx.hash_range(p.change.provider, h.hash);
                if (!p.published) {
                    f.message = fmt::format(
                        "{} was added for {}, a version the registry {} does not publish: "
                        "nobody signed it",
                        h.hash, what, p.change.provider.hostname);
                } else if (h.hash.starts_with("zh:")) {
                    f.message = fmt::format(
                        "{} was added for {} but is not in the SHA256SUMS the registry {} signed ({}, key {})", h.hash,
                        what, p.change.provider.hostname, h.trust, h.key_id);
                } else {
                    f.message = fmt::format(
                        "{} was added for {} but is the hash of none of the packages in the SHA256SUMS the registry "
                        "{} signed ({}, key {})",
                        h.hash, what, p.change.provider.hostname, h.trust, h.key_id);
                }
                sink.report(std::move(f));
            }
        }
    };
    return review;
}

}  // namespace tfsift::lint::rules
