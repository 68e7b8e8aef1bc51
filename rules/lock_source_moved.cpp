// lock-source-moved: a lock-file change replaces a provider with one of the
// same type from another host or namespace (`tfsift lock diff`).
#include <fmt/format.h>

#include "support/review_factories.hpp"

namespace tfsift::lint::rules {

ReviewRule lock_source_moved() {
    ReviewRule review;
    Rule& r = review.rule;
    r.id = "lock-source-moved";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::medium;
    r.security_severity = 7.0;
    r.doc.summary = "A lock-file change swaps a provider for one of the same type from another host or namespace.";
    r.doc.what =
        "Run by `tfsift lock diff` (docs/lock-review.md). When the change removes a provider and adds one of the "
        "same type under another registry host or namespace (`hashicorp/aws` for `someone/aws`), the new entry's "
        "`provider` label is reported, naming where it came from.";
    r.doc.why =
        "A fork in another namespace runs with the same credentials as the provider it replaces. Sometimes that "
        "is the plan (a community fork, an internal mirror); sometimes it is a typo-squatted namespace slipped "
        "into a large pull request.";
    r.doc.failing_example = R"hcl(# base: provider "registry.terraform.io/hashicorp/aws"
provider "registry.terraform.io/hashicorps/aws" {
  version = "5.31.0"
}
)hcl";
    r.doc.passing_example = R"hcl(# base: provider "registry.terraform.io/hashicorp/aws"
provider "registry.terraform.io/hashicorp/aws" {
  version = "5.32.0"
}
)hcl";
    r.doc.fix_safety = "Not fixable: check the new `source` in `required_providers` and who publishes it.";
    review.check = [](const LockReviewContext& ctx, FindingSink& sink) {
        for (const auto& p : ctx.providers) {
            if (!p.change.moved_from) continue;
            const auto& from = *p.change.moved_from;
            const auto& to = p.change.provider;
            Finding f;
            f.rule_id = "lock-source-moved";
            f.severity = Severity::warning;
            f.file = ctx.file;
            f.range = ctx.entry_range(to);
            f.message =
                fmt::format("{} replaces {}: the {} provider now comes from {} {}", to.to_string(), from.to_string(),
                            to.type, from.hostname != to.hostname ? "the host" : "the namespace",
                            from.hostname != to.hostname ? to.hostname : to.namespace_);
            sink.report(std::move(f));
        }
    };
    return review;
}

}  // namespace tfsift::lint::rules
