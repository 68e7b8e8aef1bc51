// What an expression refers to, with hcl's Variables() semantics: every
// scope traversal in the tree, except those rooted at a `for` iterator inside
// its scope, and except bare-identifier object keys (which are literal names).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tfsift/hcl/ast.hpp"

namespace tfsift::hcl {

// The scope traversals `expr` references, in tree order (duplicates kept).
std::vector<const ScopeTraversalExpr*> referenced_traversals(const Expr& expr);
// The same, appended to `out`: a caller that walks many expressions keeps
// one list instead of allocating one per expression.
void append_referenced_traversals(const Expr& expr, std::vector<const ScopeTraversalExpr*>& out);

// Whether `expr` references anything (as referenced_traversals counts) or
// calls a function anywhere: what neither does is known before a plan. The
// walk stops at the first it meets.
bool refers_or_calls(const Expr& expr);

// The names of every function called anywhere in `expr`, in tree order
// (duplicates kept). Provider functions carry their full `provider::NS::NAME`.
std::vector<std::string_view> called_functions(const Expr& expr);

// A traversal in the parse dump's string form: `root.attr[0]["key"]`.
std::string render_traversal(const ScopeTraversalExpr& traversal);

// A number literal's spelling in the shortest plain decimal form with no
// exponent, as cty prints numbers: "1e3" -> "1000", "0.10" -> "0.1".
std::string render_number(std::string_view spelling);

// A string as a JSON string literal escaping only `"`, `\` and control
// characters (as Go's encoding/json does without HTML escaping).
std::string render_json_string(std::string_view s);

}  // namespace tfsift::hcl
