// Constant evaluation of expressions, as hcl's expr.Value(nil) does it: no
// variables and no functions in scope.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tfsift/hcl/ast.hpp"

namespace tfsift::hcl {

// The expression's value in cty's JSON encoding when evaluating it with no
// context gives a wholly known value and no diagnostics at all; nullopt
// otherwise. This is the `{"value": V}` form of the parse dump.
// Numbers are nlohmann integers when integral and within 64 bits, doubles
// otherwise: digits beyond a double's precision are lost, and a magnitude
// beyond ~1.8e308 becomes an infinite double (printed as null). Printers that
// must keep every digit use constant_value_json_text.
std::optional<nlohmann::json> constant_value_json(const Expr& expr);

// The same value as exact JSON text: numbers in plain shortest decimal with
// every digit (e.g. 1e400 is 1 followed by 400 zeros). nullopt exactly when
// constant_value_json gives nullopt.
std::optional<std::string> constant_value_json_text(const Expr& expr);

}  // namespace tfsift::hcl
