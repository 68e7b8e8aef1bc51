#include "tfsift/lint/fix_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tfsift::lint {
namespace {

// Lines with their line break (the last may have none).
std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        end = end == std::string_view::npos ? text.size() : end + 1;
        out.push_back(text.substr(begin, end - begin));
        begin = end;
    }
    return out;
}

enum class Op : std::uint8_t { keep, remove, add };

struct Step {
    Op op;
    std::size_t line;  // index into the old (keep, remove) or new (add) lines
};

// The edit script between the lines: common head and tail first, then a
// longest common subsequence of what is left. Fixes change few lines, so the
// middle is small; past a bound it is replaced whole rather than searched.
std::vector<Step> edit_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    std::size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
    std::size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
        ++tail;
    }
    const std::size_t n = a.size() - head - tail;
    const std::size_t m = b.size() - head - tail;
    std::vector<Step> steps;
    for (std::size_t i = 0; i < head; ++i) steps.push_back({Op::keep, i});
    constexpr std::size_t max_cells = 4'000'000;
    if (n > 0 && m > 0 && n * m <= max_cells) {
        // lcs[i][j]: the longest common subsequence of a[head+i..] and b[head+j..].
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        auto at = [m](std::size_t i, std::size_t j) { return i * (m + 1) + j; };
        for (std::size_t i = n; i-- > 0;) {
            for (std::size_t j = m; j-- > 0;) {
                lcs[at(i, j)] = a[head + i] == b[head + j] ? lcs[at(i + 1, j + 1)] + 1
                                                           : std::max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
            }
        }
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[head + i] == b[head + j]) {
                steps.push_back({Op::keep, head + i});
                ++i;
                ++j;
            } else if (i < n && (j == m || lcs[at(i + 1, j)] >= lcs[at(i, j + 1)])) {
                steps.push_back({Op::remove, head + i});
                ++i;
            } else {
                steps.push_back({Op::add, head + j});
                ++j;
            }
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) steps.push_back({Op::remove, head + i});
        for (std::size_t j = 0; j < m; ++j) steps.push_back({Op::add, head + j});
    }
    for (std::size_t i = a.size() - tail; i < a.size(); ++i) steps.push_back({Op::keep, i});
    return steps;
}

void append_line(std::string& out, char mark, std::string_view line) {
    out += mark;
    out.append(line);
    if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(const std::string& path, std::string_view old_text, std::string_view new_text,
                         std::size_t context) {
    if (old_text == new_text) return {};
    const auto a = split_lines(old_text);
    const auto b = split_lines(new_text);
    const std::vector<Step> steps = edit_script(a, b);
    std::string_view shown = path;
    while (shown.substr(0, 2) == "./") shown.remove_prefix(2);
    std::string out = fmt::format("--- a/{}\n+++ b/{}\n", shown, shown);
    // Old and new line numbers before each step.
    std::vector<std::size_t> old_at(steps.size() + 1, 0);
    std::vector<std::size_t> new_at(steps.size() + 1, 0);
    for (std::size_t k = 0; k < steps.size(); ++k) {
        old_at[k + 1] = old_at[k] + (steps[k].op != Op::add ? 1 : 0);
        new_at[k + 1] = new_at[k] + (steps[k].op != Op::remove ? 1 : 0);
    }
    std::size_t k = 0;
    while (k < steps.size()) {
        if (steps[k].op == Op::keep) {
            ++k;
            continue;
        }
        // A hunk: from `context` keeps before this change to `context` keeps
        // after the last change closer than 2 * context keeps to the next.
        std::size_t begin = k >= context ? k - context : 0;
        while (begin < k && steps[begin].op != Op::keep) ++begin;
        std::size_t end = k;
        while (true) {
            while (end < steps.size() && steps[end].op != Op::keep) ++end;
            std::size_t keeps = 0;
            while (end + keeps < steps.size() && steps[end + keeps].op == Op::keep) ++keeps;
            if (end + keeps < steps.size() && keeps <= 2 * context) {
                end += keeps;
                continue;
            }
            end += std::min(keeps, context);
            break;
        }
        const std::size_t old_count = old_at[end] - old_at[begin];
        const std::size_t new_count = new_at[end] - new_at[begin];
        out += fmt::format("@@ -{},{} +{},{} @@\n", old_count == 0 ? old_at[begin] : old_at[begin] + 1, old_count,
                           new_count == 0 ? new_at[begin] : new_at[begin] + 1, new_count);
        for (std::size_t s = begin; s < end; ++s) {
            const Step& step = steps[s];
            switch (step.op) {
                case Op::keep: append_line(out, ' ', a[step.line]); break;
                case Op::remove: append_line(out, '-', a[step.line]); break;
                case Op::add: append_line(out, '+', b[step.line]); break;
            }
        }
        k = end;
    }
    return out;
}

}  // namespace tfsift::lint
