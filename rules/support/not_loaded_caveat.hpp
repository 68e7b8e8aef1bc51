// What a lock rule adds to its message while some module calls of the tree
// are not loaded: their modules may change the answer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfsift::lint::rules {

// "" when `unloaded` is empty; else "; module.vpc, which is not loaded,
// may WHAT" (at most three calls named, then how many more).
std::string not_loaded_caveat(const std::vector<std::string>& unloaded, std::string_view what);

}  // namespace tfsift::lint::rules
