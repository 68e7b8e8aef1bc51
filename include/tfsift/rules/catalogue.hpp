// The catalogue of built-in rules: what the front ends (the CLI, the
// benchmark, the tests, an editor server) hand to the lint engine, which
// knows no rule by itself (LintRequest::catalogue). The list is
// rules/support/catalogue.cpp; each rule lives in its own file in rules/.
#pragma once

#include <span>
#include <string_view>

#include "tfsift/lint/rule.hpp"

namespace tfsift::lint {

// Every built-in rule, in the order of rules/support/catalogue.cpp.
std::span<const Rule> builtin_rules();

// The built-in rule with this id, or nullptr.
const Rule* find_builtin_rule(std::string_view id);

}  // namespace tfsift::lint
