// lock-signing-key-changed: the new version of a provider is signed by
// another key than the version the base locked (`tfsift lock diff`).
#include <fmt/format.h>

#include "support/review_factories.hpp"

namespace tfsift::lint::rules {

ReviewRule lock_signing_key_changed() {
    ReviewRule review;
    Rule& r = review.rule;
    r.id = "lock-signing-key-changed";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::medium;
    r.security_severity = 6.0;
    r.doc.summary = "A lock-file change moves a provider to a version signed by another key than the base version.";
    r.doc.what =
        "Run by `tfsift lock diff` (docs/lock-review.md). For a provider whose locked version changes, the key "
        "that signed the old version's `SHA256SUMS` is compared with the key that signed the new one's; when they "
        "differ, the finding sits on the entry's `version` and names both keys with their trust tiers. Needs the "
        "registry: with `--offline` it reports nothing.";
    r.doc.why =
        "A provider's author signs every release with the same key until they rotate it. A new key can be a "
        "planned rotation, or a namespace taken over by someone else: either way a reviewer should know before "
        "the new version runs with the pipeline's credentials.";
    r.doc.failing_example = R"hcl(# base: 1.0.0, signed by key 1111111111111111
provider "registry.terraform.io/example/demo" {
  version = "1.1.0" # signed by key 2222222222222222
  hashes = [
    "zh:<the signed sha256 of a 1.1.0 package>",
  ]
}
)hcl";
    r.doc.passing_example = R"hcl(# base: 1.0.0, signed by key 1111111111111111
provider "registry.terraform.io/example/demo" {
  version = "1.2.0" # signed by key 1111111111111111 too
  hashes = [
    "zh:<the signed sha256 of a 1.2.0 package>",
  ]
}
)hcl";
    r.doc.fix_safety =
        "Not fixable: check the new key with the provider's author (its `source_url` in the registry) and keep the "
        "change only when the rotation is genuine.";
    review.check = [](const LockReviewContext& ctx, FindingSink& sink) {
        for (const auto& p : ctx.providers) {
            if (!p.signer_before || !p.signer_after) continue;
            if (p.signer_before->key_id.empty() || p.signer_after->key_id.empty()) continue;
            if (p.signer_before->key_id == p.signer_after->key_id) continue;
            Finding f;
            f.rule_id = "lock-signing-key-changed";
            f.severity = Severity::warning;
            f.file = ctx.file;
            f.range = ctx.entry_range(p.change.provider, &providers::LockEntryLocation::version);
            f.message = fmt::format("{} {} is signed by key {} ({}), but {} was signed by key {} ({})",
                                    p.change.provider.to_string(), p.change.to->to_string(), p.signer_after->key_id,
                                    p.signer_after->trust, p.change.from->to_string(), p.signer_before->key_id,
                                    p.signer_before->trust);
            sink.report(std::move(f));
        }
    };
    return review;
}

}  // namespace tfsift::lint::rules
