#include "tfsift/lint/baseline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <nlohmann/json.hpp>

#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {
namespace {

// FNV-1a, 64 bits: stable across platforms and versions, which a baseline
// committed to a repository needs; collisions only merge two entries.
std::uint64_t fnv1a(std::string_view text, std::uint64_t h = 14695981039346656037ULL) {
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

// The line with leading and trailing blanks dropped and inner runs of blanks
// made one space: re-indenting a block keeps its findings recorded.
std::string normalized(std::string_view line) {
    std::string out;
    bool blank = false;
    for (char c : line) {
        if (c == ' ' || c == '\t' || c == '\r') {
            blank = !out.empty();
            continue;
        }
        if (blank) out += ' ';
        blank = false;
        out += c;
    }
    return out;
}

std::string relative_to(const std::string& path, const std::string& dir) {
    const std::string abs = absolute_normal_path(path);
    const std::string base = absolute_normal_path(dir.empty() ? "." : dir);
    const std::string prefix = base == "/" ? base : base + "/";
    if (abs.compare(0, prefix.size(), prefix) == 0) return abs.substr(prefix.size());
    return abs;
}

std::string line_text_of(const Finding& f) {
    if (f.file->size() == 0) return {};
    return normalized(f.file->line_text(f.file->line(f.range.start)));
}

// Each finding's entry, by the finding's index in `findings`.
std::vector<BaselineEntry> entries_by_finding(const Findings& findings, const std::string& baseline_dir) {
    // Position order within a file decides the occurrence index.
    std::vector<std::size_t> ordered(findings.size());
    for (std::size_t i = 0; i < ordered.size(); ++i) ordered[i] = i;
    std::stable_sort(ordered.begin(), ordered.end(), [&findings](std::size_t a, std::size_t b) {
        return std::tie(findings[a].file->path(), findings[a].range.start.byte) <
               std::tie(findings[b].file->path(), findings[b].range.start.byte);
    });
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> seen;
    std::vector<BaselineEntry> out(findings.size());
    for (std::size_t i : ordered) {
        const Finding& f = findings[i];
        BaselineEntry& e = out[i];
        e.rule = f.rule_id;
        e.file = relative_to(f.file->path(), baseline_dir);
        const std::string text = line_text_of(f);
        const std::size_t index = seen[{e.rule, e.file, text}]++;
        std::uint64_t h = fnv1a(e.rule);
        h = fnv1a(std::string_view("\0", 1), h);
        h = fnv1a(e.file, h);
        h = fnv1a(std::string_view("\0", 1), h);
        h = fnv1a(text, h);
        h = fnv1a(fmt::format("\n{}", index), h);
        e.fingerprint = fmt::format("{:016x}", h);
    }
    return out;
}

}  // namespace

std::vector<BaselineEntry> baseline_entries(const Findings& findings, const std::string& baseline_dir) {
    std::vector<BaselineEntry> out = entries_by_finding(findings, baseline_dir);
    std::sort(out.begin(), out.end());
    return out;
}

std::string render_baseline(const std::vector<BaselineEntry>& entries) {
    std::string out = "{\n  \"tfsift_baseline\": 1,\n  \"findings\": [";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const nlohmann::json entry = {
            {"rule", entries[i].rule}, {"file", entries[i].file}, {"fingerprint", entries[i].fingerprint}};
        out += i == 0 ? "\n    " : ",\n    ";
        out += entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    out += entries.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

BaselineParse parse_baseline(std::string_view text) {
    BaselineParse out;
    auto position = [&text](std::size_t byte) {
        std::size_t line = 1;
        std::size_t column = 1;
        for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return fmt::format("{}:{}", line, column);
    };
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        out.error = fmt::format("{}: not JSON ({})", position(e.byte == 0 ? 0 : e.byte - 1),
                                std::string(e.what()).substr(std::string(e.what()).rfind(':') + 2));
        return out;
    }
    if (!doc.is_object() || !doc.contains("tfsift_baseline") || doc["tfsift_baseline"] != 1 ||
        !doc.contains("findings") || !doc["findings"].is_array()) {
        out.error = "1:1: not a tfsift baseline (expected {\"tfsift_baseline\": 1, \"findings\": [...]})";
        return out;
    }
    std::size_t index = 0;
    for (const auto& item : doc["findings"]) {
        ++index;
        auto field = [&item](const char* name) -> const nlohmann::json* {
            if (!item.is_object() || !item.contains(name) || !item[name].is_string()) return nullptr;
            return &item[name];
        };
        const auto* rule = field("rule");
        const auto* file = field("file");
        const auto* fingerprint = field("fingerprint");
        if (rule == nullptr || file == nullptr || fingerprint == nullptr) {
            // The entries are one per line, after the three opening lines.
            out.error =
                fmt::format("{}:5: entry {} needs the strings `rule`, `file` and `fingerprint`", index + 3, index);
            out.entries.clear();
            return out;
        }
        out.entries.push_back({rule->get<std::string>(), file->get<std::string>(), fingerprint->get<std::string>()});
    }
    return out;
}

std::size_t filter_baseline(Findings& findings, const std::vector<BaselineEntry>& baseline,
                            const std::string& baseline_dir) {
    std::map<BaselineEntry, std::size_t> remaining;
    for (const auto& e : baseline) ++remaining[e];
    const std::vector<BaselineEntry> entries = entries_by_finding(findings, baseline_dir);
    Findings kept;
    kept.reserve(findings.size());
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < findings.size(); ++i) {
        auto it = remaining.find(entries[i]);
        if (it != remaining.end() && it->second > 0) {
            --it->second;
            ++dropped;
        } else {
            kept.push_back(std::move(findings[i]));
        }
    }
    findings = std::move(kept);
    return dropped;
}

}  // namespace tfsift::lint
