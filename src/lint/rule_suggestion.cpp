#include "tfsift/lint/rule_suggestion.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tfsift::lint {
namespace {

char fold(char c) {
    if (c == '_') return '-';
    if (c >= 'A' && c <= 'Z') return static_cast<char>(c - 'A' + 'a');
    return c;
}

// Optimal string alignment distance: a swap of two neighbours counts as one
// edit, the commonest typo.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t w = b.size() + 1;
    std::vector<std::size_t> d((a.size() + 1) * w);
    for (std::size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
            std::size_t best = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1])) {
                best = std::min(best, d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    return d[a.size() * w + b.size()];
}

}  // namespace

std::string nearest_rule_id(std::string_view unknown, const std::vector<std::string>& known) {
    return nearest_name(unknown, known);
}

std::string nearest_name(std::string_view unknown, const std::vector<std::string>& known) {
    // Names are short; a very long input is no typo of one.
    if (unknown.size() > 256) return {};
    std::string best;
    std::size_t best_distance = 0;
    for (const auto& id : known) {
        const std::size_t d = edit_distance(unknown, id);
        if (best.empty() || d < best_distance) {
            best = id;
            best_distance = d;
        }
    }
    if (best.empty() || best_distance * 3 > std::max(unknown.size(), best.size())) return {};
    return best;
}

std::string did_you_mean(std::string_view unknown, const std::vector<std::string>& known) {
    std::string near = nearest_rule_id(unknown, known);
    return near.empty() ? std::string() : fmt::format(" (did you mean `{}`?)", near);
}

}  // namespace tfsift::lint
