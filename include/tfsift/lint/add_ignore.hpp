// `tfsift lint --add-ignore`: suppress every current finding with an inline
// `# tfsift-ignore: RULE -- REASON` comment on the line above it, so that an
// existing repository can adopt tfsift and fix its findings over time (what
// Ruff's `--add-noqa` does).
#pragma once

#include <cstddef>
#include <string>

#include "tfsift/lint/apply_fixes.hpp"
#include "tfsift/lint/finding.hpp"

namespace tfsift::lint {

struct AddIgnorePlan {
    FixPlan edits;             // new file contents, written like fixes (write_fixes)
    std::size_t comments = 0;  // ignore comments added
    std::size_t findings_covered = 0;
    // Findings that cannot take an inline comment: JSON configuration files,
    // lock files, a finding inside a heredoc, `syntax-error` and
    // `unused-ignore` (an ignore of an ignore, or in a file that does not parse).
    std::size_t findings_skipped = 0;
};

// One comment per line that has findings, naming their rules (sorted), indented
// like that line, inserted on its own line above it; `reason` follows ` -- `
// when not empty.
AddIgnorePlan plan_add_ignores(const Findings& findings, const std::string& reason);

}  // namespace tfsift::lint
