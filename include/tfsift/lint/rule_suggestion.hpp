// "Did you mean ...?" for a rule id that names no rule.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfsift::lint {

// The id among `known` closest to `unknown` by edit distance (insertions,
// deletions, substitutions; `_` and `-` count as the same), when it is close
// enough to be a typo: at most a third of the longer id's length. Empty when
// none is.
std::string nearest_rule_id(std::string_view unknown, const std::vector<std::string>& known);

// The same for any name: a subcommand, an option ("--recurse" gives
// "--recursive").
std::string nearest_name(std::string_view unknown, const std::vector<std::string>& known);

// " (did you mean `ID`?)" or "".
std::string did_you_mean(std::string_view unknown, const std::vector<std::string>& known);

}  // namespace tfsift::lint
