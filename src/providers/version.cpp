#include "tfsift/providers/version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "providers/go_quote.hpp"

namespace tfsift::providers {

namespace {

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Ragel's `space`: the ASCII whitespace characters.
bool is_ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_wildcard_char(char c) { return c == '*' || c == 'x' || c == 'X'; }
bool is_extra_char(char c) { return is_ascii_digit(c) || is_ascii_alpha(c) || c == '.' || c == '-'; }

// Length of the whitespace rune (Go's unicode.IsSpace) at the front of `t`.
std::size_t space_prefix_length(std::string_view t) {
    if (t.empty()) return 0;
    if (is_ascii_space(t[0])) return 1;
    static constexpr std::array<std::string_view, 19> kUnicodeSpaces = {
        "\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82", "\xE2\x80\x83",
        "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87", "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A",
        "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
    for (auto sp : kUnicodeSpaces) {
        if (t.starts_with(sp)) return sp.size();
    }
    return 0;
}

// Go's strings.TrimSpace.
std::string_view go_trim_space(std::string_view s) {
    while (auto n = space_prefix_length(s)) s.remove_prefix(n);
    while (!s.empty()) {
        std::size_t n = 0;
        for (std::size_t len = 1; len <= 3 && len <= s.size() && n == 0; ++len) {
            if (space_prefix_length(s.substr(s.size() - len)) == len) n = len;
        }
        if (n == 0) break;
        s.remove_suffix(n);
    }
    return s;
}

constexpr std::array<std::string_view, 3> kNumNames = {"major", "minor", "patch"};

// The token layer shared by version and constraint parsing, reproducing the
// Ragel scanner of go-versions 1.0.2:
//   op   = run of bytes that are not digit, space, letter, "." or "*"
//   sep  = run of ASCII spaces
//   nums = num ("." num)*, num = digits | "*" | "x" | "X"
//   pre  = "-" extra*, meta = "+" extra*, extra = letter | digit | "." | "-"
// Scanning stops at the first byte that does not fit; the rest is `extra`.
struct RawConstraint {
    std::string_view op;
    std::string_view sep;
    std::array<std::string_view, 3> nums;
    int num_count = 0;
    std::string_view pre;
    std::string_view meta;
    std::string_view extra;
};

RawConstraint scan_constraint(std::string_view data) {
    RawConstraint raw;
    std::size_t p = 0;
    const std::size_t n = data.size();
    auto is_op_char = [](char c) {
        return !is_ascii_digit(c) && !is_ascii_space(c) && !is_ascii_alpha(c) && c != '.' && c != '*';
    };
    while (p < n && is_op_char(data[p])) ++p;
    raw.op = data.substr(0, p);
    if (p == n) {
        // At end of input right after the operator the scanner's separator
        // token still starts where the operator started.
        raw.sep = raw.op;
        return raw;
    }
    const std::size_t sep_start = p;
    while (p < n && is_ascii_space(data[p])) ++p;
    raw.sep = data.substr(sep_start, p - sep_start);
    auto rest = [&]() { return data.substr(p); };
    while (true) {
        if (p == n) return raw;
        const std::size_t start = p;
        if (is_ascii_digit(data[p])) {
            while (p < n && is_ascii_digit(data[p])) ++p;
        } else if (is_wildcard_char(data[p])) {
            ++p;
        } else {
            raw.extra = rest();
            return raw;
        }
        if (raw.num_count < 3) raw.nums[static_cast<std::size_t>(raw.num_count)] = data.substr(start, p - start);
        ++raw.num_count;
        if (p < n && data[p] == '.') {
            ++p;
            continue;
        }
        break;
    }
    auto scan_extra = [&](char lead, std::string_view& into) {
        if (p < n && data[p] == lead) {
            const std::size_t start = ++p;
            while (p < n && is_extra_char(data[p])) ++p;
            into = data.substr(start, p - start);
        }
    };
    scan_extra('-', raw.pre);
    scan_extra('+', raw.meta);
    raw.extra = rest();
    return raw;
}

struct NumberResult {
    std::uint64_t value = 0;
    std::string error;
};

NumberResult parse_number(std::string_view digits) {
    NumberResult r;
    if (digits.empty()) return r;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), r.value);
    if (ec == std::errc::result_out_of_range) {
        r.error = fmt::format("version number {} is too large; the largest supported number is 18446744073709551615",
                              go_quote(digits));
    } else if (ec != std::errc() || ptr != digits.data() + digits.size()) {
        r.error = fmt::format("invalid version number {}", go_quote(digits));
    }
    return r;
}

// Builds the boundary, missing numbers being zero.
std::string boundary_from_raw(const RawConstraint& raw, Version& out) {
    std::array<std::uint64_t*, 3> fields = {&out.major, &out.minor, &out.patch};
    for (std::size_t i = 0; i < 3; ++i) {
        auto number = parse_number(raw.nums[i]);
        if (!number.error.empty()) return number.error;
        *fields[i] = number.value;
    }
    out.prerelease = std::string(raw.pre);
    out.metadata = std::string(raw.meta);
    return {};
}

bool is_wildcard(std::string_view num) { return num.size() == 1 && is_wildcard_char(num[0]); }

struct SingleConstraint {
    VersionConstraint constraint;
    std::string_view remain;
    std::string error;
};

// go-versions parseRubyStyle: one constraint from the front of `text`.
SingleConstraint parse_one_constraint(std::string_view text) {
    SingleConstraint out;
    const RawConstraint raw = scan_constraint(text);
    out.remain = raw.extra;
    auto& op = out.constraint.op;
    if (raw.op.empty() || raw.op == "=") {
        op = ConstraintOperator::equal;
    } else if (raw.op == "!=") {
        op = ConstraintOperator::not_equal;
    } else if (raw.op == ">") {
        op = ConstraintOperator::greater;
    } else if (raw.op == ">=") {
        op = ConstraintOperator::greater_equal;
    } else if (raw.op == "<") {
        op = ConstraintOperator::less;
    } else if (raw.op == "<=") {
        op = ConstraintOperator::less_equal;
    } else if (raw.op == "~>") {
        op = raw.num_count == 3 ? ConstraintOperator::pessimistic_patch : ConstraintOperator::pessimistic_minor;
    } else if (raw.op == "=<") {
        out.error = fmt::format("invalid constraint operator {}; did you mean \"<=\"?", go_quote(raw.op));
        return out;
    } else if (raw.op == "=>") {
        out.error = fmt::format("invalid constraint operator {}; did you mean \">=\"?", go_quote(raw.op));
        return out;
    } else {
        out.error = fmt::format("invalid constraint operator {}", go_quote(raw.op));
        return out;
    }
    if (!raw.sep.empty() && raw.sep != " ") {
        out.error = raw.op.empty() ? std::string("extraneous spaces at start of specification")
                                   : fmt::format("only one space is expected after the operator {}", go_quote(raw.op));
        return out;
    }
    if (raw.sep == " " && raw.op.empty()) {
        out.error = "extraneous spaces at start of specification";
        return out;
    }
    if (raw.num_count > 3) {
        out.error = "too many numbered portions; only three are allowed (major, minor, patch)";
        return out;
    }
    for (std::size_t i = 0; i < 3; ++i) {
        if (is_wildcard(raw.nums[i])) {
            out.error = fmt::format("can't use wildcard for {} number; omit segments that should be unconstrained",
                                    kNumNames[i]);
            return out;
        }
    }
    out.error = boundary_from_raw(raw, out.constraint.boundary);
    return out;
}

int compare_numbers_text(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

bool all_digits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_ascii_digit); }

std::vector<std::string_view> split_dots(std::string_view s) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        auto dot = s.find('.', start);
        parts.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos) return parts;
        start = dot + 1;
    }
}

// go-versions' prerelease-style comparison of two non-empty extras.
int compare_extra(std::string_view a, std::string_view b) {
    const auto pa = split_dots(a);
    const auto pb = split_dots(b);
    if (pa.size() != pb.size()) return pa.size() < pb.size() ? -1 : 1;
    for (std::size_t i = 0; i < pa.size(); ++i) {
        const bool na = all_digits(pa[i]);
        const bool nb = all_digits(pb[i]);
        int c = 0;
        if (na && nb) {
            c = compare_numbers_text(pa[i], pb[i]);
        } else if (na != nb) {
            c = na ? -1 : 1;
        } else {
            c = pa[i] < pb[i] ? -1 : (pa[i] == pb[i] ? 0 : 1);
        }
        if (c != 0) return c;
    }
    return 0;
}

int three_way(std::uint64_t a, std::uint64_t b) { return a < b ? -1 : (a == b ? 0 : 1); }

bool is_zero_version(const Version& v) { return v.major == 0 && v.minor == 0 && v.patch == 0 && v.prerelease.empty(); }

// The set a single constraint describes, before the prerelease rule.
bool constraint_contains(const VersionConstraint& c, const Version& v) {
    Version lower = c.boundary;
    if (c.op != ConstraintOperator::equal && c.op != ConstraintOperator::not_equal) lower.metadata.clear();
    switch (c.op) {
        case ConstraintOperator::equal: return v == lower;
        case ConstraintOperator::not_equal: return !(v == lower);
        case ConstraintOperator::greater: return compare_precedence(v, lower) > 0;
        case ConstraintOperator::greater_equal: return compare_precedence(v, lower) >= 0;
        case ConstraintOperator::less: return compare_precedence(v, lower) < 0;
        case ConstraintOperator::less_equal: return compare_precedence(v, lower) <= 0;
        case ConstraintOperator::pessimistic_minor:
        case ConstraintOperator::pessimistic_patch: {
            Version upper = lower;
            if (c.op == ConstraintOperator::pessimistic_minor) {
                ++upper.major;
                upper.minor = 0;
            } else {
                ++upper.minor;
            }
            upper.patch = 0;
            upper.prerelease.clear();
            return compare_precedence(v, lower) >= 0 && compare_precedence(v, upper) < 0;
        }
    }
    return false;
}

std::string_view operator_text(ConstraintOperator op) {
    switch (op) {
        case ConstraintOperator::greater: return "> ";
        case ConstraintOperator::greater_equal: return ">= ";
        case ConstraintOperator::equal: return "";
        case ConstraintOperator::pessimistic_patch:
        case ConstraintOperator::pessimistic_minor: return "~> ";
        case ConstraintOperator::less_equal: return "<= ";
        case ConstraintOperator::less: return "< ";
        case ConstraintOperator::not_equal: return "!= ";
    }
    return "";
}

// Render order: boundary precedence, then metadata (none first), then the
// operator in enum order.
int compare_for_render(const VersionConstraint& a, const VersionConstraint& b) {
    if (int c = compare_precedence(a.boundary, b.boundary)) return c;
    const auto& ma = a.boundary.metadata;
    const auto& mb = b.boundary.metadata;
    if (ma.empty() != mb.empty()) return ma.empty() ? -1 : 1;
    if (!ma.empty()) {
        if (int c = compare_extra(ma, mb)) return c;
    }
    return three_way(static_cast<std::uint64_t>(a.op), static_cast<std::uint64_t>(b.op));
}

}  // namespace

std::string Version::to_string() const {
    std::string out = fmt::format("{}.{}.{}", major, minor, patch);
    if (!prerelease.empty()) out += "-" + prerelease;
    if (!metadata.empty()) out += "+" + metadata;
    return out;
}

int compare_precedence(const Version& a, const Version& b) {
    if (int c = three_way(a.major, b.major)) return c;
    if (int c = three_way(a.minor, b.minor)) return c;
    if (int c = three_way(a.patch, b.patch)) return c;
    if (a.prerelease.empty() || b.prerelease.empty()) {
        if (a.prerelease.empty() == b.prerelease.empty()) return 0;
        return a.prerelease.empty() ? 1 : -1;
    }
    return compare_extra(a.prerelease, b.prerelease);
}

ParsedVersion parse_version(std::string_view text) {
    ParsedVersion out;
    if (go_trim_space(text).empty()) {
        out.error = "empty specification";
        return out;
    }
    const RawConstraint raw = scan_constraint(text);
    const std::string_view op = go_trim_space(raw.op);
    if (op == ">" || op == ">=" || op == "<" || op == "<=" || op == "!" || op == "!=" || op == "~>" || op == "^" ||
        op == "~") {
        out.error = fmt::format("can't use constraint operator {}; an exact version is required", go_quote(raw.op));
        return out;
    }
    if (op.empty()) {
        if (!raw.sep.empty()) {
            out.error = "extraneous spaces at start of specification";
            return out;
        }
    } else {
        out.error = fmt::format("invalid sequence {} at start of specification", go_quote(raw.op));
        return out;
    }
    if (!raw.extra.empty()) {
        const std::string_view remain = go_trim_space(raw.extra);
        if (remain.empty()) {
            out.error = "extraneous spaces at end of specification";
        } else if (text.starts_with("v")) {
            out.error = "a \"v\" prefix should not be used";
        } else if (remain.starts_with(",") || remain.starts_with("|")) {
            out.error = "can't specify multiple versions; a single exact version is required";
        } else if (remain.starts_with("-")) {
            out.error = "can't specify version range; a single exact version is required";
        } else if (go_trim_space(text).starts_with(remain)) {
            out.error = "invalid specification; required format is three positive integers separated by periods";
        } else {
            out.error = fmt::format("invalid characters {}", go_quote(remain));
        }
        return out;
    }
    if (raw.num_count > 3) {
        out.error = "too many numbered portions; only three are allowed (major, minor, patch)";
        return out;
    }
    for (std::size_t i = 0; i < 3; ++i) {
        if (is_wildcard(raw.nums[i])) {
            out.error = fmt::format("can't use wildcard for {} number; an exact version is required", kNumNames[i]);
            return out;
        }
    }
    Version v;
    out.error = boundary_from_raw(raw, v);
    if (out.error.empty()) out.version = std::move(v);
    return out;
}

ParsedConstraints parse_constraints(std::string_view text) {
    ParsedConstraints out;
    VersionConstraints result;
    std::string_view remain = go_trim_space(text);
    while (!remain.empty()) {
        SingleConstraint one = parse_one_constraint(remain);
        const std::string_view consumed = remain.substr(0, remain.size() - one.remain.size());
        if (!one.error.empty()) {
            out.error = fmt::format("invalid specification {}: {}", go_quote(consumed), one.error);
            return out;
        }
        remain = go_trim_space(one.remain);
        if (!remain.empty()) {
            if (remain.starts_with("v")) {
                out.error = "a \"v\" prefix should not be used";
                return out;
            }
            if (!remain.starts_with(",")) {
                out.error = fmt::format("missing comma after {}", go_quote(consumed));
                return out;
            }
            remain = go_trim_space(remain.substr(1));
        }
        result.push_back(std::move(one.constraint));
    }
    out.constraints = std::move(result);
    return out;
}

std::string render_constraints(const VersionConstraints& constraints) {
    VersionConstraints sorted;
    for (const auto& c : constraints) {
        if (std::find(sorted.begin(), sorted.end(), c) == sorted.end()) sorted.push_back(c);
    }
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return compare_for_render(a, b) < 0; });
    std::string out;
    for (const auto& c : sorted) {
        if (!out.empty()) out += ", ";
        out += operator_text(c.op);
        const Version& b = c.boundary;
        if (c.op == ConstraintOperator::pessimistic_minor) {
            out += fmt::format("{}.{}", b.major, b.minor);
        } else {
            out += fmt::format("{}.{}.{}", b.major, b.minor, b.patch);
        }
        if (!b.prerelease.empty()) out += "-" + b.prerelease;
        if (!b.metadata.empty()) out += "+" + b.metadata;
    }
    return out;
}

bool constraints_allow(const VersionConstraints& constraints, const Version& version) {
    if (is_zero_version(version)) return false;
    bool named_exactly = false;
    for (const auto& c : constraints) {
        if (!constraint_contains(c, version)) return false;
        if (c.op == ConstraintOperator::equal && c.boundary == version) named_exactly = true;
    }
    return version.prerelease.empty() || named_exactly;
}

std::optional<Version> select_newest(const VersionConstraints& constraints, std::span<const Version> available) {
    std::vector<Version> sorted(available.begin(), available.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Version& a, const Version& b) { return compare_precedence(a, b) < 0; });
    for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
        if (constraints_allow(constraints, *it)) return *it;
    }
    return std::nullopt;
}

}  // namespace tfsift::providers
