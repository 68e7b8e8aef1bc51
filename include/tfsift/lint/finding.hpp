// Findings: what a rule reports about a configuration.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/source.hpp"

namespace tfsift::lint {

// How safely a fix may be applied without a human looking at it.
enum class Applicability : std::uint8_t {
    safe,    // keeps the configuration's meaning; `--fix` applies it
    unsafe,  // may change what Terraform plans; applied only on request
};

std::string_view to_string(Applicability a);

// Replace the bytes of `range` in `file` with `replacement` (an empty range
// inserts, an empty replacement deletes).
struct TextEdit {
    std::shared_ptr<const SourceFile> file;
    Range range;
    std::string replacement;
};

struct Fix {
    std::string description;  // imperative, e.g. "Remove the stale entry"
    Applicability applicability = Applicability::safe;
    std::vector<TextEdit> edits;
};

// A second place that helps explain a finding: the base block an override
// changed, the caller of a module, the ignore comment...
struct RelatedLocation {
    std::shared_ptr<const SourceFile> file;
    Range range;
    std::string message;
};

struct Finding {
    std::string rule_id;
    Severity severity = Severity::error;
    std::string message;                     // one sentence, may carry detail after ": "
    std::shared_ptr<const SourceFile> file;  // never null
    Range range;                             // the narrowest range that shows the problem
    std::vector<RelatedLocation> related;
    std::optional<Fix> fix;
};

using Findings = std::vector<Finding>;

// Orders findings by file path, then position, then rule id, so every report
// lists them the same way whatever order the rules ran in, and drops exact
// repeats (a called module's loader diagnostics arrive with every caller).
void sort_findings(Findings& findings);

}  // namespace tfsift::lint
