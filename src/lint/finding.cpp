#include "tfsift/lint/finding.hpp"

#include <algorithm>
#include <tuple>

#include "tfsift/lint/context.hpp"

namespace tfsift::lint {

std::string_view to_string(Applicability a) {
    return a == Applicability::safe ? "safe" : "unsafe";
}

std::string_view to_string(EngineFlavour e) {
    return e == EngineFlavour::opentofu ? "opentofu" : "terraform";
}

void sort_findings(Findings& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        return std::tie(a.file->path(), a.range.start.byte, a.range.end.byte, a.rule_id, a.message) <
               std::tie(b.file->path(), b.range.start.byte, b.range.end.byte, b.rule_id, b.message);
    });
}

}  // namespace tfsift::lint
