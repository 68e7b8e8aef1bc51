#include "name_suggestion.hpp"

#include <algorithm>

namespace tfsift::lint {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string name_suggestion(std::string_view given, const std::vector<std::string_view>& candidates) {
    constexpr std::size_t max_distance = 3;
    for (std::string_view c : candidates) {
        // Lengths further apart than the limit cannot be close enough.
        const std::size_t gap = c.size() > given.size() ? c.size() - given.size() : given.size() - c.size();
        if (gap < max_distance && edit_distance(given, c) < max_distance) return std::string(c);
    }
    return {};
}

}  // namespace tfsift::lint
