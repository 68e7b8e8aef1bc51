// The Levenshtein distance between two names (insertions, deletions and
// substitutions of bytes), as hcl's "Did you mean" suggestions measure it.
#pragma once

#include <cstddef>
#include <string_view>

namespace tfsift {

std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace tfsift
