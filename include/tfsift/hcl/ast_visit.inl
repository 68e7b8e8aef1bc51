// Implementation of for_each_child and for_each_child_reversed (included by
// ast.hpp).
#pragma once

namespace tfsift::hcl {

template <class F>
void for_each_child(const Expr& e, F&& f) {
    switch (e.kind) {
        case ExprKind::literal:
        case ExprKind::scope_traversal:
        case ExprKind::anon_symbol: return;
        case ExprKind::template_:
            for (const Expr* p : as<TemplateExpr>(e).parts) f(*p);
            return;
        case ExprKind::template_wrap: f(*as<TemplateWrapExpr>(e).wrapped); return;
        case ExprKind::template_join: f(*as<TemplateJoinExpr>(e).tuple); return;
        case ExprKind::relative_traversal: f(*as<RelativeTraversalExpr>(e).source); return;
        case ExprKind::function_call:
            for (const Expr* a : as<FunctionCallExpr>(e).args) f(*a);
            return;
        case ExprKind::conditional: {
            const auto& c = as<ConditionalExpr>(e);
            f(*c.condition);
            f(*c.true_result);
            f(*c.false_result);
            return;
        }
        case ExprKind::binary_op: {
            const auto& b = as<BinaryOpExpr>(e);
            f(*b.lhs);
            f(*b.rhs);
            return;
        }
        case ExprKind::unary_op: f(*as<UnaryOpExpr>(e).operand); return;
        case ExprKind::tuple:
            for (const Expr* i : as<TupleExpr>(e).items) f(*i);
            return;
        case ExprKind::object:
            for (const ObjectItem& i : as<ObjectExpr>(e).items) {
                f(*i.key);
                f(*i.value);
            }
            return;
        case ExprKind::object_key: f(*as<ObjectKeyExpr>(e).wrapped); return;
        case ExprKind::for_: {
            const auto& x = as<ForExpr>(e);
            f(*x.collection);
            if (x.key_expr) f(*x.key_expr);
            f(*x.value_expr);
            if (x.condition) f(*x.condition);
            return;
        }
        case ExprKind::index: {
            const auto& x = as<IndexExpr>(e);
            f(*x.collection);
            f(*x.key);
            return;
        }
        case ExprKind::splat: {
            const auto& s = as<SplatExpr>(e);
            f(*s.source);
            f(*s.each);
            return;
        }
        case ExprKind::parentheses: f(*as<ParenthesesExpr>(e).inner); return;
    }
}

template <class F>
void for_each_child_reversed(const Expr& e, F&& f) {
    auto each_reversed = [&f](const auto& list) {
        for (std::size_t i = list.size(); i-- > 0;) f(*list[i]);
    };
    switch (e.kind) {
        case ExprKind::literal:
        case ExprKind::scope_traversal:
        case ExprKind::anon_symbol: return;
        case ExprKind::template_: each_reversed(as<TemplateExpr>(e).parts); return;
        case ExprKind::template_wrap: f(*as<TemplateWrapExpr>(e).wrapped); return;
        case ExprKind::template_join: f(*as<TemplateJoinExpr>(e).tuple); return;
        case ExprKind::relative_traversal: f(*as<RelativeTraversalExpr>(e).source); return;
        case ExprKind::function_call: each_reversed(as<FunctionCallExpr>(e).args); return;
        case ExprKind::conditional: {
            const auto& c = as<ConditionalExpr>(e);
            f(*c.false_result);
            f(*c.true_result);
            f(*c.condition);
            return;
        }
        case ExprKind::binary_op: {
            const auto& b = as<BinaryOpExpr>(e);
            f(*b.rhs);
            f(*b.lhs);
            return;
        }
        case ExprKind::unary_op: f(*as<UnaryOpExpr>(e).operand); return;
        case ExprKind::tuple: each_reversed(as<TupleExpr>(e).items); return;
        case ExprKind::object: {
            const auto& items = as<ObjectExpr>(e).items;
            for (std::size_t i = items.size(); i-- > 0;) {
                f(*items[i].value);
                f(*items[i].key);
            }
            return;
        }
        case ExprKind::object_key: f(*as<ObjectKeyExpr>(e).wrapped); return;
        case ExprKind::for_: {
            const auto& x = as<ForExpr>(e);
            if (x.condition) f(*x.condition);
            f(*x.value_expr);
            if (x.key_expr) f(*x.key_expr);
            f(*x.collection);
            return;
        }
        case ExprKind::index: {
            const auto& x = as<IndexExpr>(e);
            f(*x.key);
            f(*x.collection);
            return;
        }
        case ExprKind::splat: {
            const auto& s = as<SplatExpr>(e);
            f(*s.each);
            f(*s.source);
            return;
        }
        case ExprKind::parentheses: f(*as<ParenthesesExpr>(e).inner); return;
    }
}

}  // namespace tfsift::hcl
