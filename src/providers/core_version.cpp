#include "tfsift/providers/core_version.hpp"

#include <re2/re2.h>

#include <charconv>

#include "tfsift/string_memo.hpp"

namespace tfsift::providers {

namespace {

// go-version's VersionRegexpRaw, in RE2 syntax (Go's regexp is RE2).
constexpr std::string_view kVersionPattern =
    R"(v?([0-9]+(\.[0-9]+)*?))"
    R"((-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?)"
    R"((\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?)"
    R"(?)";

const RE2& version_regex() {
    static const RE2 re("^" + std::string(kVersionPattern) + "$");
    return re;
}

const RE2& constraint_regex() {
    static const RE2 re(R"(^\s*(=|!=|>|<|>=|<=|~>|)\s*()" + std::string(kVersionPattern) + R"()\s*$)");
    return re;
}

int compare_segments(const CoreVersion& a, const CoreVersion& b) {
    const std::size_t n = std::max(a.segments.size(), b.segments.size());
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t x = i < a.segments.size() ? a.segments[i] : 0;
        const std::int64_t y = i < b.segments.size() ? b.segments[i] : 0;
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

// Version.Compare: segments, then a version without prerelease is greater;
// prereleases compare by dot-separated identifiers.
int compare(const CoreVersion& a, const CoreVersion& b) {
    if (int c = compare_segments(a, b)) return c;
    if (a.prerelease == b.prerelease) return 0;
    if (a.prerelease.empty()) return 1;
    if (b.prerelease.empty()) return -1;
    return a.prerelease < b.prerelease ? -1 : 1;
}

bool prerelease_check(const CoreVersion& v, const CoreVersion& c) {
    const bool v_pre = !v.prerelease.empty();
    const bool c_pre = !c.prerelease.empty();
    if (c_pre && v_pre) return compare_segments(v, c) == 0;
    if (!c_pre && v_pre) return false;
    return true;
}

bool pessimistic(const CoreVersion& v, const CoreVersion& c) {
    if (!prerelease_check(v, c) || (!c.prerelease.empty() && v.prerelease.empty())) return false;
    if (compare(v, c) < 0) return false;
    const std::size_t cs = c.segments.size();
    if (cs > v.segments.size()) return false;
    for (std::size_t i = 0; i + 1 < c.written_segments; ++i) {
        if (v.segments[i] != c.segments[i]) return false;
    }
    return c.segments[cs - 1] <= v.segments[cs - 1];
}

bool check(const CoreConstraint& c, const CoreVersion& v) {
    const CoreVersion& b = c.version;
    if (c.op.empty() || c.op == "=") return compare(v, b) == 0;
    if (c.op == "!=") return compare(v, b) != 0;
    if (c.op == "~>") return pessimistic(v, b);
    if (!prerelease_check(v, b)) return false;
    const int cmp = compare(v, b);
    if (c.op == ">") return cmp > 0;
    if (c.op == "<") return cmp < 0;
    if (c.op == ">=") return cmp >= 0;
    return cmp <= 0;  // "<="
}

std::string_view trim_ascii(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || (s.front() >= '\t' && s.front() <= '\r'))) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || (s.back() >= '\t' && s.back() <= '\r'))) s.remove_suffix(1);
    return s;
}

}  // namespace

std::optional<CoreVersion> parse_core_version(std::string_view text) {
    std::string numbers;
    std::string g2, g3, g4, g5, g6, g7, g8, g9, g10;
    if (!RE2::FullMatch(text, version_regex(), &numbers, &g2, &g3, &g4, &g5, &g6, &g7, &g8, &g9, &g10)) {
        return std::nullopt;
    }
    CoreVersion v;
    std::size_t start = 0;
    while (true) {
        auto dot = numbers.find('.', start);
        std::string_view piece =
            std::string_view(numbers).substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        std::int64_t value = 0;
        auto [ptr, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
        if (ec != std::errc() || ptr != piece.data() + piece.size()) return std::nullopt;
        v.segments.push_back(value);
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    v.written_segments = v.segments.size();
    while (v.segments.size() < 3) v.segments.push_back(0);
    v.prerelease = !g7.empty() ? g7 : g4;
    v.metadata = g10;
    return v;
}

namespace {

std::optional<std::vector<CoreConstraint>> parse_core_constraints_once(std::string_view text) {
    std::vector<CoreConstraint> out;
    std::size_t start = 0;
    while (true) {
        auto comma = text.find(',', start);
        std::string_view piece =
            text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        std::string op;
        std::string version_text;
        if (!RE2::FullMatch(piece, constraint_regex(), &op, &version_text)) return std::nullopt;
        auto version = parse_core_version(version_text);
        if (!version) return std::nullopt;
        out.push_back({op, std::move(*version), std::string(trim_ascii(piece))});
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

}  // namespace

std::optional<std::vector<CoreConstraint>> parse_core_constraints(std::string_view text) {
    // Every module repeats a few constraint strings, and each parse runs
    // regular expressions: each thread remembers its answers.
    thread_local StringMemo<std::optional<std::vector<CoreConstraint>>> memo;
    return memo.get(text, parse_core_constraints_once);
}

bool core_constraints_allow(const std::vector<CoreConstraint>& constraints, const CoreVersion& version) {
    for (const auto& c : constraints) {
        if (!check(c, version)) return false;
    }
    return true;
}

}  // namespace tfsift::providers
