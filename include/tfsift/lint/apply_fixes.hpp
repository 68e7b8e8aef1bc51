// `tfsift lint --fix`: applying the text edits of findings' fixes to files.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "tfsift/lint/finding.hpp"

namespace tfsift::lint {

// Which fixes to apply: the safe ones, or all of them.
enum class FixMode : std::uint8_t { safe_only, include_unsafe };

// The new contents of the files the chosen fixes change.
struct FixPlan {
    std::map<std::string, std::string> new_text;  // by file path, as the findings name it
    std::map<std::string, std::string> old_text;  // what the fixes were computed against
    std::size_t findings_fixed = 0;
    // Fixes left out because one of their edits overlaps an edit of a fix
    // that comes earlier in the file (they may apply on a later run).
    std::size_t conflicts_skipped = 0;
    // What each fix taken does, in order: "PATH:LINE:COL: RULE: DESCRIPTION".
    std::vector<std::string> applied;
};

// Chooses and applies fixes in memory. Edits are gathered per file (one file
// named two ways, e.g. `a/b/main.tf` and `a/./b/main.tf`, is one file).
// Fixes are taken in the order of their
// first edit (file, then position); a fix whose edits overlap those of a fix
// already taken is skipped whole, as are fixes with an edit outside its file.
// Two edits overlap when their ranges share a byte, or when they start at the
// same place (the order of two insertions there would be a guess). A fix
// identical to one already taken (several findings sharing one repair, e.g.
// all the unused ids of one ignore comment) counts as applied without
// editing again.
FixPlan plan_fixes(const Findings& findings, FixMode mode);

struct FixWriteResult {
    std::vector<std::string> written;  // files changed on disk
    std::vector<std::string> errors;   // one message per file that could not be changed
};

// Writes each changed file atomically. A file whose content on disk no longer
// matches the text the fixes were computed from is left alone and reported.
FixWriteResult write_fixes(const FixPlan& plan);

}  // namespace tfsift::lint
