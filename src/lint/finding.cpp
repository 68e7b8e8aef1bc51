#include "tfsift/lint/finding.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "tfsift/lint/context.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

std::string_view to_string(Applicability a) { return a == Applicability::safe ? "safe" : "unsafe"; }

void sort_findings(Findings& findings) {
    // Paths in tree order: by absolute path, segment by segment, so that
    // `a/main.tf` comes before `a-b/main.tf` and a path named relative and one
    // named absolute sort alike (reports print both relative to the working
    // directory).
    std::map<std::string, std::string, std::less<>> keys;
    for (const auto& f : findings) {
        if (keys.count(f.file->path())) continue;
        std::string key = absolute_normal_path(f.file->path());
        std::replace(key.begin(), key.end(), '/', '\x01');
        keys.emplace(f.file->path(), std::move(key));
    }
    std::stable_sort(findings.begin(), findings.end(), [&keys](const Finding& a, const Finding& b) {
        const std::string& ka = keys.find(a.file->path())->second;
        const std::string& kb = keys.find(b.file->path())->second;
        return std::tie(ka, a.range.start.byte, a.range.end.byte, a.rule_id, a.message) <
               std::tie(kb, b.range.start.byte, b.range.end.byte, b.rule_id, b.message);
    });
    auto same = [](const Finding& a, const Finding& b) {
        return a.rule_id == b.rule_id && a.file->path() == b.file->path() && a.range == b.range &&
               a.message == b.message;
    };
    findings.erase(std::unique(findings.begin(), findings.end(), same), findings.end());
}

}  // namespace tfsift::lint
