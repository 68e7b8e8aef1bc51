// The formats of `tfsift lock diff` (docs/lock-review.md) that show the
// reviewed change itself: a table for a terminal, a Markdown pull-request
// comment, and the JSON document other tools read. Its findings also go
// through the ordinary reports (report.hpp: sarif, github, ...).
#pragma once

#include <ostream>
#include <string_view>

#include "tfsift/lint/lock_review.hpp"

namespace tfsift::report {

// The first line of the Markdown comment: CI scripts find the comment they
// posted before by it and update it in place.
inline constexpr std::string_view lock_review_marker = "<!-- tfsift lock review -->";

struct LockReviewReportInput {
    const lint::LockReview& review;
    std::string_view base;  // what was compared with: "HEAD~1", or the --base-file path
    bool color = false;     // text only
};

void write_lock_review_text(const LockReviewReportInput& input, std::ostream& out);
void write_lock_review_markdown(const LockReviewReportInput& input, std::ostream& out);
// {"lock_files": [{"path", "base", "state", "providers": [{"address",
// "change", "from", "to", ...}], "findings": [...]}], "verified", ...}
void write_lock_review_json(const LockReviewReportInput& input, std::ostream& out);

}  // namespace tfsift::report
