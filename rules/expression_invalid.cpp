// expression-invalid: an expression that fails when Terraform evaluates it,
// whatever the input values: an object key written as a bare reference of
// more than one name ("Ambiguous attribute key"), or a reference that indexes
// or reads an attribute of a local value the module writes as a constant and
// that the value does not have (`local.pair[5]` on a two-element tuple).
#include <fmt/core.h>

#include <map>
#include <vector>

#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "expression-invalid";

// Whether `root` is the `providers` argument of a module block, whose keys
// Terraform reads statically as provider addresses (`aws.west = aws.east`).
bool is_module_providers(const written::WrittenExpression& root) {
    if (root.site.block_type != "module" || !root.file->parsed->native) return false;
    for (const auto& b : root.file->parsed->native->body->blocks) {
        if (std::string_view(b.type) != "module") continue;
        for (const auto& a : b.body.attributes) {
            if (a.expr && &*a.expr == root.expr) return std::string_view(a.name) == "providers";
        }
    }
    return false;
}

Finding finding(const written::WrittenExpression& root, Range range, std::string_view summary,
                std::string_view detail) {
    Finding f;
    f.rule_id = std::string(rule_id);
    f.severity = Severity::error;
    f.file = root.file->parsed->source;
    f.range = range;
    f.message = fmt::format("{}: {}", summary, detail);
    return f;
}

// The local values written as constants (no references, no calls), which
// Terraform knows in `validate` already.
std::map<std::string, cty::Value, std::less<>> constant_locals(const config::Module& m) {
    std::map<std::string, cty::Value, std::less<>> out;
    for (const auto& [name, local] : m.locals) {
        const hcl::Expr* e = local.expr.native;
        if (e == nullptr) continue;
        // A local that is a reference (local.x = var.y) is no constant, known without a walk.
        if (e->kind == hcl::ExprKind::scope_traversal) continue;
        if (hcl::refers_or_calls(*e)) continue;
        hcl::EvalResult r = hcl::evaluate(*e, nullptr);
        if (has_errors(r.diagnostics) || !r.value.is_wholly_known()) continue;
        out.emplace(name, std::move(r.value));
    }
    return out;
}

bool is_try_or_can(const hcl::Expr& e) {
    if (e.kind != hcl::ExprKind::function_call) return false;
    const std::string_view name = hcl::as<hcl::FunctionCallExpr>(e).name;
    return name == "try" || name == "can" || name == "core::try" || name == "core::can";
}

// Walks one written expression. A part that may never be evaluated, or
// whose errors are caught, is left alone: the arguments of try() and can(),
// the branches of a conditional, the body of a `for` expression.
class Checker {
public:
    Checker(const written::WrittenExpression& root, const std::map<std::string, cty::Value, std::less<>>& locals,
            FindingSink& sink)
        : root_(root), locals_(locals), sink_(sink), static_keys_(is_module_providers(root)) {}

    void walk(const hcl::Expr& e, bool guarded) {
        if (!guarded) {
            if (e.kind == hcl::ExprKind::object_key) ambiguous_key(hcl::as<hcl::ObjectKeyExpr>(e));
            if (e.kind == hcl::ExprKind::scope_traversal) constant_local_steps(hcl::as<hcl::ScopeTraversalExpr>(e));
        }
        const bool caught = is_try_or_can(e);
        if (e.kind == hcl::ExprKind::conditional) {
            const auto& c = hcl::as<hcl::ConditionalExpr>(e);
            walk(*c.condition, guarded);
            walk(*c.true_result, true);
            walk(*c.false_result, true);
            return;
        }
        if (e.kind == hcl::ExprKind::for_) {
            const auto& f = hcl::as<hcl::ForExpr>(e);
            walk(*f.collection, guarded);
            if (f.key_expr) walk(*f.key_expr, true);
            walk(*f.value_expr, true);
            if (f.condition) walk(*f.condition, true);
            return;
        }
        hcl::for_each_child(e, [&](const hcl::Expr& child) { walk(child, guarded || caught); });
    }

private:
    // hclsyntax's ObjectConsKeyExpr.Value: a bare traversal key is a literal
    // name only when it is one name; `var.k` could be either, and is refused.
    void ambiguous_key(const hcl::ObjectKeyExpr& key) {
        const hcl::Expr& wrapped = *key.wrapped;
        if (key.force_non_literal || wrapped.kind != hcl::ExprKind::scope_traversal) return;
        if (hcl::as<hcl::ScopeTraversalExpr>(wrapped).steps.empty() || static_keys_) return;
        sink_.report(finding(root_, wrapped.range, "Ambiguous attribute key",
                             "If this expression is intended to be a reference, wrap it in parentheses. If it's "
                             "instead intended as a literal name containing periods, wrap it in quotes to create a "
                             "string literal."));
    }

    // `local.NAME` followed by steps, where NAME is a constant: the steps are
    // evaluated on its value, and an error there is Terraform's too.
    void constant_local_steps(const hcl::ScopeTraversalExpr& t) {
        if (std::string_view(t.root) != "local" || t.steps.size() < 2) return;
        if (t.steps[0].kind != hcl::StepKind::attr) return;
        const auto value = locals_.find(std::string_view(t.steps[0].name));
        if (value == locals_.end()) return;
        hcl::EvalContext context;
        context.variables.emplace();
        (*context.variables)["local"] = cty::Value::object({{value->first, value->second}});
        const hcl::EvalResult r = hcl::evaluate(t, &context);
        for (const Diagnostic& d : r.diagnostics) {
            if (d.severity != Severity::error || !d.subject) continue;
            sink_.report(finding(root_, *d.subject, d.summary, d.detail));
            return;
        }
    }

    const written::WrittenExpression& root_;
    const std::map<std::string, cty::Value, std::less<>>& locals_;
    FindingSink& sink_;
    bool static_keys_;  // the top object's keys are provider addresses
};

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    std::map<std::string, cty::Value, std::less<>> locals;
    if (ctx.tree != nullptr && ctx.tree->root != nullptr) locals = constant_locals(*ctx.module().module);
    // The expressions with something to report: an object key that may be
    // ambiguous (a bare traversal of several names), or a traversal of a
    // constant local with steps to evaluate. The rest are not walked.
    std::vector<char> wanted(index->roots().size(), 0);
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::object_key)) {
        const auto& key = hcl::as<hcl::ObjectKeyExpr>(*node.expr);
        const hcl::Expr* wrapped = key.wrapped;
        if (wrapped == nullptr || key.force_non_literal || wrapped->kind != hcl::ExprKind::scope_traversal) continue;
        if (hcl::as<hcl::ScopeTraversalExpr>(*wrapped).steps.empty()) continue;
        wanted[node.root] = 1;
    }
    if (!locals.empty()) {
        for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::scope_traversal)) {
            const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*node.expr);
            if (std::string_view(t.root) == "local" && t.steps.size() >= 2) wanted[node.root] = 1;
        }
    }
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        if (wanted[i] == 0) continue;
        const written::WrittenExpression& root = index->roots()[i];
        if (root.site.from_json) continue;
        Checker(root, locals, sink).walk(*root.expr, false);
    }
}

}  // namespace

Rule expression_invalid() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.doc.summary = "An expression fails when Terraform evaluates it, whatever the input values.";
    r.doc.what =
        "Reports, with Terraform's messages, two errors that need no input value to show: an object key "
        "written as a bare reference of more than one name, `{ var.k = 1 }` (\"Ambiguous attribute key\": "
        "write `(var.k)` for the value or `\"var.k\"` for the name; the keys of a module's `providers` map are "
        "addresses and are not reported), and a reference that indexes or reads an attribute of a local value "
        "written as a constant and finds nothing there, `local.pair[5]` on a two-element tuple (\"Invalid "
        "index\") or `local.settings.nope` (\"Unsupported attribute\"). Parts that may never be evaluated, or whose "
        "errors are caught, are not checked: the arguments of `try()` and `can()`, the branches of a conditional, "
        "the body of a `for` expression. Native-syntax files only.";
    r.doc.why =
        "HCL refuses such a key when it evaluates the object, because it cannot tell a reference from a "
        "name with periods; and a local value written as a constant is known in `terraform validate`, "
        "which evaluates every reference to it. Both stop `validate`, `plan` and `apply`.";
    r.doc.failing_example = R"hcl(locals {
  pair   = ["a", "b"]
  third  = local.pair[2]
  tagged = { var.env = "yes" }
}
)hcl";
    r.doc.passing_example = R"hcl(locals {
  pair   = ["a", "b"]
  second = local.pair[1]
  tagged = { (var.env) = "yes" }
}
)hcl";
    r.doc.fix_safety = "Not fixable: whether a key is a reference or a name is the author's decision.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
