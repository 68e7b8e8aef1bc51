#include "tfsift/lint/glob.hpp"

#include <algorithm>
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

// The text positions (indexes into `txt`) at which the pattern can stand
// after matching all of `pat` from position 0: reach[k] is true when
// pat matches txt[0, k). A set of positions is carried from one pattern
// segment to the next, so `**` costs one pass instead of a backtracking
// search: O(pattern segments x text segments), whatever the number of `**`.
std::vector<bool> reachable(const std::vector<std::string_view>& pat, const std::vector<std::string_view>& txt) {
    std::vector<bool> reach(txt.size() + 1, false);
    reach[0] = true;
    std::vector<bool> next(txt.size() + 1, false);
    for (std::string_view segment : pat) {
        std::fill(next.begin(), next.end(), false);
        if (segment == "**") {
            // Any number of whole segments, none included.
            bool any = false;
            for (std::size_t k = 0; k <= txt.size(); ++k) {
                any = any || reach[k];
                next[k] = any;
            }
        } else {
            for (std::size_t k = 0; k < txt.size(); ++k) {
                if (reach[k] && match_segment(segment, txt[k])) next[k + 1] = true;
            }
        }
        reach.swap(next);
    }
    return reach;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
    auto txt = split(text);
    return reachable(split(pattern), txt)[txt.size()];
}

PathGlob::PathGlob(std::string pattern) : pattern_(std::move(pattern)) {
    while (pattern_.size() > 1 && pattern_.back() == '/') pattern_.pop_back();
    if (pattern_.rfind("./", 0) == 0) pattern_.erase(0, 2);
}

bool PathGlob::matches(std::string_view relative_path) const {
    bool anchored = pattern_.find('/') != std::string::npos;
    // A directory pattern covers everything below it: any non-empty prefix
    // of the path may match.
    auto parts = split(relative_path);
    if (anchored) {
        auto reach = reachable(split(pattern_), parts);
        for (std::size_t len = 1; len <= parts.size(); ++len) {
            if (reach[len]) return true;
        }
        return false;
    }
    for (std::string_view part : parts) {
        if (match_segment(pattern_, part)) return true;
    }
    return false;
}

}  // namespace tfsift::lint
