#include "tfsift/lint/glob.hpp"

#include <vector>

namespace tfsift::lint {
namespace {

// Matches one character class starting at pattern[p] == '['. Sets `next` to
// the index after the closing ']'. A '[' without a closing ']' is literal.
bool match_class(std::string_view pattern, std::size_t p, char c, std::size_t& next, bool& valid) {
    std::size_t i = p + 1;
    bool negate = false;
    if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
        negate = true;
        ++i;
    }
    bool matched = false;
    bool first = true;
    while (i < pattern.size() && (first || pattern[i] != ']')) {
        first = false;
        char lo = pattern[i];
        char hi = lo;
        if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
            hi = pattern[i + 2];
            i += 3;
        } else {
            ++i;
        }
        if (lo <= c && c <= hi) matched = true;
    }
    if (i >= pattern.size()) {
        valid = false;
        return false;
    }
    valid = true;
    next = i + 1;
    return matched != negate && c != '/';
}

bool match_segment(std::string_view pattern, std::string_view text) {
    // Classic backtracking over '*' within one segment (no '/' in either).
    std::size_t p = 0;
    std::size_t t = 0;
    std::size_t star_p = std::string_view::npos;
    std::size_t star_t = 0;
    while (t < text.size()) {
        if (p < pattern.size()) {
            char pc = pattern[p];
            if (pc == '*') {
                star_p = p++;
                star_t = t;
                continue;
            }
            if (pc == '?') {
                ++p;
                ++t;
                continue;
            }
            if (pc == '[') {
                std::size_t next = 0;
                bool valid = false;
                bool ok = match_class(pattern, p, text[t], next, valid);
                if (valid) {
                    if (ok) {
                        p = next;
                        ++t;
                        continue;
                    }
                } else if (text[t] == '[') {
                    ++p;
                    ++t;
                    continue;
                }
            } else if (pc == text[t]) {
                ++p;
                ++t;
                continue;
            }
        }
        if (star_p == std::string_view::npos) return false;
        p = star_p + 1;
        t = ++star_t;
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

std::vector<std::string_view> split(std::string_view s) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= s.size()) {
        auto end = s.find('/', start);
        if (end == std::string_view::npos) end = s.size();
        if (end > start) parts.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

bool match_segments(const std::vector<std::string_view>& pat, std::size_t pi, const std::vector<std::string_view>& txt,
                    std::size_t ti) {
    if (pi == pat.size()) return ti == txt.size();
    if (pat[pi] == "**") {
        for (std::size_t k = ti; k <= txt.size(); ++k) {
            if (match_segments(pat, pi + 1, txt, k)) return true;
        }
        return false;
    }
    if (ti == txt.size()) return false;
    return match_segment(pat[pi], txt[ti]) && match_segments(pat, pi + 1, txt, ti + 1);
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
    return match_segments(split(pattern), 0, split(text), 0);
}

PathGlob::PathGlob(std::string pattern) : pattern_(std::move(pattern)) {
    while (pattern_.size() > 1 && pattern_.back() == '/') pattern_.pop_back();
    if (pattern_.rfind("./", 0) == 0) pattern_.erase(0, 2);
}

bool PathGlob::matches(std::string_view relative_path) const {
    bool anchored = pattern_.find('/') != std::string::npos;
    // A directory pattern covers everything below it: try every prefix.
    auto parts = split(relative_path);
    auto pat = split(pattern_);
    for (std::size_t len = 1; len <= parts.size(); ++len) {
        std::vector<std::string_view> prefix(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(len));
        if (anchored) {
            if (match_segments(pat, 0, prefix, 0)) return true;
        } else if (match_segment(pattern_, prefix.back())) {
            return true;
        }
    }
    return false;
}

}  // namespace tfsift::lint
