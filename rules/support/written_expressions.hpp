// Every expression written in a module's own files, whatever block holds it:
// the rules about how expressions are written (deprecated forms, duplicate
// keys) and about what is referenced at all (unused declarations) look at
// the files as written rather than at the decoded model, which keeps only
// the blocks and arguments the loader knows (not `check`, `removed`,
// `import` arguments, actions' `config`, ...).
#pragma once

#include <functional>
#include <string_view>

#include "tfsift/config/decode.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::lint::written {

// Where an expression sits: the top-level block's type and first label
// (`variable` and `"region"`), empty for neither.
struct ExpressionSite {
    std::string_view block_type;
    std::string_view block_label;
    bool from_json = false;  // a JSON string parsed as a template: its ranges are not the file's
};

using ExpressionVisitor = std::function<void(const hcl::Expr&, const ExpressionSite&)>;

// Calls `visit` with the whole expression of every attribute of every block
// (nested blocks included) of a native-syntax file, and with every string of
// a JSON file that holds a template (`${` or `%{`), parsed as one. Parsing
// errors leave an expression out.
void for_each_expression(const config::ParsedFile& file, const ExpressionVisitor& visit);

// Calls `visit` with `e` and every expression below it, parents first. A
// template, so that the visitor is inlined: the rules run it over every
// node of every file.
template <class Visit>
void for_each_node(const hcl::Expr& e, Visit&& visit) {
    visit(e);
    hcl::for_each_child(e, [&](const hcl::Expr& child) { for_each_node(child, visit); });
}

}  // namespace tfsift::lint::written
