#include "name_suggestion.hpp"

#include <algorithm>

#include "tfsift/edit_distance.hpp"

namespace tfsift::lint {

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
