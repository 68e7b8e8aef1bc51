// Version constraint strings as the effective document lists them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfsift::config {

// Splits a constraint string at every comma and trims each part of spaces,
// tabs, CR, LF and form feeds, keeping the parts' spelling and order:
// ">= 1.2, < 2.0" gives {">= 1.2", "< 2.0"}.
std::vector<std::string> split_version_constraints(std::string_view text);

}  // namespace tfsift::config
