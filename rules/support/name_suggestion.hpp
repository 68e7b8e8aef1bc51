// "Did you mean ...?" as Terraform and hcl suggest names: the first
// candidate whose Levenshtein distance to the given name is less than 3.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfsift::lint {

// The suggested candidate, or "" when none is close enough. Candidates are
// tried in the order given.
std::string name_suggestion(std::string_view given, const std::vector<std::string_view>& candidates);

}  // namespace tfsift::lint
