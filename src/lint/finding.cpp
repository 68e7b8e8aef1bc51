#include "tfsift/lint/finding.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "tfsift/lint/context.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

std::string_view to_string(Applicability a) { return a == Applicability::safe ? "safe" : "unsafe"; }

namespace {

// What a finding is sorted by, small enough to move around cheaply: the rank
// of its file's path among the paths in tree order, its range, and where it
// is, for rule id and message on a tie and to keep the sort stable.
struct SortEntry {
    std::uint32_t path_rank;
    std::uint32_t start;
    std::uint32_t end;
    std::uint32_t index;
};

// The rank of each finding's path in tree order: by absolute path, segment
// by segment, so that `a/main.tf` comes before `a-b/main.tf` and a path named
// relative and one named absolute rank alike.
std::vector<std::uint32_t> path_ranks(const Findings& findings) {
    std::unordered_map<std::string_view, std::uint32_t> slot_of;  // path -> index into `keys`
    std::vector<std::string> keys;
    std::vector<std::uint32_t> slots;
    slots.reserve(findings.size());
    for (const auto& f : findings) {
        const std::string& path = f.file->path();
        auto [it, added] = slot_of.try_emplace(path, static_cast<std::uint32_t>(keys.size()));
        if (added) {
            std::string key = absolute_normal_path(path);
            std::replace(key.begin(), key.end(), '/', '\x01');
            keys.push_back(std::move(key));
        }
        slots.push_back(it->second);
    }
    std::vector<std::uint32_t> order(keys.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&keys](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    std::vector<std::uint32_t> rank_of_slot(keys.size());
    std::uint32_t rank = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && keys[order[i]] != keys[order[i - 1]]) ++rank;
        rank_of_slot[order[i]] = rank;
    }
    for (auto& s : slots) s = rank_of_slot[s];
    return slots;
}

}  // namespace

void sort_findings(Findings& findings) {
    // Sorted as entries, then moved into place once: a Finding is large.
    const std::vector<std::uint32_t> ranks = path_ranks(findings);
    std::vector<SortEntry> entries;
    entries.reserve(findings.size());
    for (std::size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        entries.push_back({ranks[i], f.range.start.byte, f.range.end.byte, static_cast<std::uint32_t>(i)});
    }
    std::sort(entries.begin(), entries.end(), [&findings](const SortEntry& a, const SortEntry& b) {
        if (a.path_rank != b.path_rank) return a.path_rank < b.path_rank;
        if (a.start != b.start) return a.start < b.start;
        if (a.end != b.end) return a.end < b.end;
        const Finding& fa = findings[a.index];
        const Finding& fb = findings[b.index];
        if (int c = fa.rule_id.compare(fb.rule_id); c != 0) return c < 0;
        if (int c = fa.message.compare(fb.message); c != 0) return c < 0;
        return a.index < b.index;
    });
    // Exact repeats are dropped: each finding is compared with the last one kept.
    auto same = [](const Finding& a, const Finding& b) {
        return a.rule_id == b.rule_id && a.file->path() == b.file->path() && a.range == b.range &&
               a.message == b.message;
    };
    Findings sorted;
    sorted.reserve(findings.size());
    for (const SortEntry& e : entries) {
        Finding& f = findings[e.index];
        if (!sorted.empty() && same(sorted.back(), f)) continue;
        sorted.push_back(std::move(f));
    }
    findings = std::move(sorted);
}

}  // namespace tfsift::lint
