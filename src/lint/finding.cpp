#include "tfsift/lint/finding.hpp"

#include <algorithm>
#include <tuple>

#include "tfsift/lint/context.hpp"

namespace tfsift::lint {

std::string_view to_string(Applicability a) {
    return a == Applicability::safe ? "safe" : "unsafe";
}


void sort_findings(Findings& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        return std::tie(a.file->path(), a.range.start.byte, a.range.end.byte, a.rule_id, a.message) <
               std::tie(b.file->path(), b.range.start.byte, b.range.end.byte, b.rule_id, b.message);
    });
    auto same = [](const Finding& a, const Finding& b) {
        return a.rule_id == b.rule_id && a.file->path() == b.file->path() && a.range == b.range &&
               a.message == b.message;
    };
    findings.erase(std::unique(findings.begin(), findings.end(), same), findings.end());
}

}  // namespace tfsift::lint
