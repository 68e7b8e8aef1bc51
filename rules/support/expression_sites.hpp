// Every expression of a module's files with what is in scope
// where it is written: whether its block sets `count` or `for_each`, whether
// `self` is available (provisioners, connection blocks, postconditions), the
// iterator names of enclosing `dynamic` blocks, and the role of the argument
// (`depends_on` lists are references to objects, not values). Walks the
// files as written, so it sees every block type, those the model does not
// keep (check, import, ephemeral) included. Arguments whose values are not
// expressions to evaluate (variable types and defaults, `providers` maps,
// `ignore_changes`, `replace_triggered_by`, block addresses) are left out.
//
// In `.tf.json` files every string is a template (`"${var.region}"`) and each
// is visited as one expression, parsed on the fly; `depends_on` items are
// parsed as references. Nested objects whose keys the walker does not know
// as blocks are walked as values, whichever they are: a reference means the
// same in either.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::lint {

enum class SiteRole : std::uint8_t {
    value,       // evaluated like any expression
    depends_on,  // a `depends_on` list: each item names a whole object
};

struct ExpressionScope {
    std::string_view block_type;              // the top-level block: "resource", "locals", "output", ...
    const hcl::Block* block = nullptr;        // the top-level block
    const hcl::Block* check = nullptr;        // the enclosing `check` block, if any
    bool count = false;                       // count.index is available
    bool for_each = false;                    // each.key and each.value are available
    bool self = false;                        // self is available
    std::vector<std::string_view> iterators;  // names of enclosing dynamic block iterators
};

struct ExpressionSite {
    const hcl::Expr* expr = nullptr;
    const config::ModuleFile* file = nullptr;
    SiteRole role = SiteRole::value;
    std::string_view argument;  // the argument's name
    // The text the expression's ranges index into: the file's own, or for a
    // `.tf.json` file the decoded content of `json_string`.
    const SourceFile* text = nullptr;
    const json::Value* json_string = nullptr;

    // `range` (of `expr` or a part of it) in the file. Inside a JSON string
    // without escapes the offsets carry over; after an escape they would
    // not, so the whole string stands for them.
    [[nodiscard]] Range file_range(Range range) const;
};

using SiteVisitor = std::function<void(const ExpressionSite&, const ExpressionScope&)>;

// Calls `visit` for every expression of the module's files, in file load
// order and source order, except the constants (a literal, or a string of
// literal text only), which refer to nothing and call nothing.
void for_each_expression(const config::LoadedModule& module, const SiteVisitor& visit);

// The function calls in `expr`, in tree order, except inside the type
// argument of `convert` (a type expression, not a call of `list` or `map`).
std::vector<const hcl::FunctionCallExpr*> function_calls(const hcl::Expr& expr);
// The same, appended to `out` (a list a caller keeps between expressions
// costs no allocation for each).
void append_function_calls(const hcl::Expr& expr, std::vector<const hcl::FunctionCallExpr*>& out);

}  // namespace tfsift::lint
