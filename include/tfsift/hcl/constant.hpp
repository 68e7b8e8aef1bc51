// Constant evaluation of expressions, as hcl's expr.Value(nil) does it: no
// variables and no functions in scope.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "tfsift/hcl/ast.hpp"

namespace tfsift::hcl {

// The expression's value in cty's JSON encoding when evaluating it with no
// context gives a wholly known value and no diagnostics at all; nullopt
// otherwise. This is the `{"value": V}` form of the parse dump.
std::optional<nlohmann::json> constant_value_json(const Expr& expr);

}  // namespace tfsift::hcl
