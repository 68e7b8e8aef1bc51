// Inline ignore comments:
//   # tfsift-ignore: ID[, ID] [-- reason]   findings of ID starting on this line or the next
//   # tfsift-ignore-file: ID[, ID]          findings of ID anywhere in this file
//   # tflint-ignore: NAME[, NAME]          the same for the tfsift rules that stand
//   # tflint-ignore-file: NAME[, NAME]     for these TFLint rules (tflint_import.hpp)
// (`//` comments work the same way.)
#pragma once

#include <string>
#include <vector>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/finding.hpp"

namespace tfsift::lint {

struct IgnoredRule {
    std::string rule_id;
    Range range;        // the id inside the comment
    bool used = false;  // suppressed at least one finding
};

struct IgnoreComment {
    Range comment;  // the whole comment
    bool whole_file = false;
    std::uint32_t line = 0;  // the comment's line (it covers this line and the next)
    std::vector<IgnoredRule> rules;
    std::string reason;  // after `--`, may be empty
    // A `tflint-ignore` comment: it serves TFLint too, so it is never
    // reported (or removed) as unused.
    bool from_tflint = false;
};

// Every ignore comment of a parsed file, in source order.
std::vector<IgnoreComment> find_ignore_comments(const hcl::File& file);

// Drops the findings that an ignore comment of their file covers and marks
// those comments used. `ignores` holds the comments of `file` (findings of
// other files are kept).
void apply_ignore_comments(const SourceFile& file, std::vector<IgnoreComment>& ignores, Findings& findings);

}  // namespace tfsift::lint
