// The expression walker: one function per hclsyntax node type, following
// upstream's Value methods (order of evaluation, which diagnostics are kept,
// and what an erroneous sub-expression yields).
#include "tfsift/hcl/eval.hpp"
#include "tfsift/stack_budget.hpp"

#include <utility>
#include <vector>

#include "eval_access.hpp"
#include "eval_operators.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::hcl {

using cty::Type;
using cty::Value;

namespace {

class Evaluator {
public:
    explicit Evaluator(std::string filename) : filename_(std::move(filename)) {}

    Value eval(const Expr& e, const EvalContext* ctx, Diagnostics& diags);

private:
    void error(Diagnostics& diags, std::string_view code, std::string summary, std::string detail, Range subject,
               std::optional<Range> context = std::nullopt) const {
        diags.push_back(
            Diagnostic{Severity::error, std::move(summary), std::move(detail), filename_, subject, context, code});
    }

    Value literal(const LiteralExpr& e, Diagnostics& diags) const;
    Value scope_traversal(const ScopeTraversalExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value traverse(Value v, std::span<const TraversalStep> steps, Diagnostics& diags);
    Value function_call(const FunctionCallExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value conditional(const ConditionalExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value binary(const BinaryOpExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value unary(const UnaryOpExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value object(const ObjectExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value object_key(const ObjectKeyExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value for_expr(const ForExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value splat(const SplatExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value template_expr(const TemplateExpr& e, const EvalContext* ctx, Diagnostics& diags);
    Value template_join(const TemplateJoinExpr& e, const EvalContext* ctx, Diagnostics& diags);

    std::string filename_;
    int depth_ = 0;
    // Sanitizer builds have much larger frames; this keeps them off the
    // guard page where the level count alone would not.
    StackBudget stack_{4U << 20};
    bool told_too_deep_ = false;  // "Expression too complex" given for the expression being evaluated
    // The values splat items currently stand for, innermost last.
    std::vector<std::pair<const AnonSymbolExpr*, Value>> splat_items_;
};

bool has_errors_since(const Diagnostics& diags, std::size_t mark) {
    for (std::size_t i = mark; i < diags.size(); ++i)
        if (diags[i].severity == Severity::error) return true;
    return false;
}

// The (key, value) pairs a for expression iterates: indices for sequences,
// keys in byte-wise order for objects and maps, the elements for sets.
std::vector<std::pair<Value, Value>> iteration_pairs(const Value& coll) {
    std::vector<std::pair<Value, Value>> out;
    const Type& t = coll.type();
    if (t.is_tuple() || t.is_list()) {
        std::int64_t i = 0;
        for (const Value& v : coll.elements()) out.emplace_back(Value::number(cty::Number::from_int(i++)), v);
    } else if (t.is_set()) {
        for (const Value& v : coll.elements()) out.emplace_back(v, v);
    } else {
        for (const auto& [k, v] : coll.attributes()) out.emplace_back(Value::string(k), v);
    }
    return out;
}

bool can_iterate(const Type& t) { return t.is_collection() || t.is_tuple() || t.is_object(); }

// A child scope binding a for expression's iterators.
EvalContext iterator_scope(const EvalContext* parent, const ForExpr& e, const Value& key, const Value& value) {
    EvalContext child;
    child.parent = parent;
    child.variables.emplace();
    if (!e.key_var.empty()) child.variables->insert_or_assign(std::string(e.key_var), key);
    child.variables->insert_or_assign(std::string(e.value_var), value);
    if (parent) child.filename = parent->filename;
    return child;
}

}  // namespace

// Nesting beyond this is refused with a diagnostic rather than risking the
// stack: the parser bounds bracket nesting, but an operator chain such as
// 1 + 1 + ... + 1 is one level deeper per operator. The stack budget below
// stops sanitizer builds earlier.
constexpr int max_evaluation_depth = 1000;

Value Evaluator::eval(const Expr& e, const EvalContext* ctx, Diagnostics& diags) {
    if (depth_ == 0) told_too_deep_ = false;
    if (depth_ >= max_evaluation_depth || stack_.exceeded()) {
        // Said once per expression: every operand still waiting above the
        // cut would otherwise add its own copy (a long chain gave hundreds).
        if (!told_too_deep_) {
            told_too_deep_ = true;
            error(diags, code::expression_too_complex, "Expression too complex",
                  "This expression is nested too deeply to evaluate.", e.range);
        }
        return Value::dynamic_unknown();
    }
    struct DepthGuard {
        int& depth;
        explicit DepthGuard(int& d) : depth(d) { ++depth; }
        ~DepthGuard() { --depth; }
        DepthGuard(const DepthGuard&) = delete;
        DepthGuard& operator=(const DepthGuard&) = delete;
    } guard(depth_);
    switch (e.kind) {
        case ExprKind::literal: return literal(as<LiteralExpr>(e), diags);
        case ExprKind::template_: return template_expr(as<TemplateExpr>(e), ctx, diags);
        case ExprKind::template_wrap: return eval(*as<TemplateWrapExpr>(e).wrapped, ctx, diags);
        case ExprKind::template_join: return template_join(as<TemplateJoinExpr>(e), ctx, diags);
        case ExprKind::scope_traversal: return scope_traversal(as<ScopeTraversalExpr>(e), ctx, diags);
        case ExprKind::relative_traversal: {
            const auto& r = as<RelativeTraversalExpr>(e);
            Value source = eval(*r.source, ctx, diags);
            return traverse(std::move(source), r.steps, diags);
        }
        case ExprKind::function_call: return function_call(as<FunctionCallExpr>(e), ctx, diags);
        case ExprKind::conditional: return conditional(as<ConditionalExpr>(e), ctx, diags);
        case ExprKind::binary_op: return binary(as<BinaryOpExpr>(e), ctx, diags);
        case ExprKind::unary_op: return unary(as<UnaryOpExpr>(e), ctx, diags);
        case ExprKind::tuple: {
            Value::Elements items;
            for (const Expr* item : as<TupleExpr>(e).items) items.push_back(eval(*item, ctx, diags));
            return Value::tuple(std::move(items));
        }
        case ExprKind::object: return object(as<ObjectExpr>(e), ctx, diags);
        case ExprKind::object_key: return object_key(as<ObjectKeyExpr>(e), ctx, diags);
        case ExprKind::for_: return for_expr(as<ForExpr>(e), ctx, diags);
        case ExprKind::index: {
            const auto& x = as<IndexExpr>(e);
            const Value coll = eval(*x.collection, ctx, diags);
            const Value key = eval(*x.key, ctx, diags);
            AccessResult r = index_value(coll, key);
            if (r.error) error(diags, code::invalid_index, r.error->summary, r.error->detail, x.bracket_range, x.range);
            return std::move(r.value);
        }
        case ExprKind::splat: return splat(as<SplatExpr>(e), ctx, diags);
        case ExprKind::anon_symbol: {
            for (auto it = splat_items_.rbegin(); it != splat_items_.rend(); ++it)
                if (it->first == &e) return it->second;
            return Value::dynamic_unknown();
        }
        case ExprKind::parentheses: return eval(*as<ParenthesesExpr>(e).inner, ctx, diags);
    }
    return Value::dynamic_unknown();
}

Value Evaluator::literal(const LiteralExpr& e, Diagnostics& diags) const {
    switch (e.literal) {
        case LiteralKind::number: {
            auto n = cty::Number::parse(e.text);
            if (!n) {
                error(diags, code::invalid_number_literal, "Invalid number literal",
                      "Failed to recognize the value of this number literal.", e.range);
                return Value::unknown(Type::number());
            }
            return Value::number(std::move(*n));
        }
        case LiteralKind::string: return Value::string(e.text);
        case LiteralKind::boolean: return Value::boolean(e.text == "true");
        case LiteralKind::null: return Value::dynamic_null();
    }
    return Value::dynamic_unknown();
}

Value Evaluator::scope_traversal(const ScopeTraversalExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    bool any_table = false;
    for (const EvalContext* c = ctx; c != nullptr; c = c->parent) {
        if (!c->variables) continue;
        any_table = true;
        const auto it = c->variables->find(e.root);
        if (it != c->variables->end()) return traverse(it->second, e.steps, diags);
    }
    if (!any_table) {
        error(diags, code::variables_not_allowed, "Variables not allowed", "Variables may not be used here.",
              e.root_range());
    } else {
        error(diags, code::unknown_variable, "Unknown variable",
              "There is no variable named \"" + std::string(e.root) + "\".", e.root_range());
    }
    return Value::dynamic_unknown();
}

Value Evaluator::traverse(Value v, std::span<const TraversalStep> steps, Diagnostics& diags) {
    for (const TraversalStep& step : steps) {
        AccessResult r;
        if (step.kind == StepKind::attr) {
            r = get_attribute(v, step.name);
        } else {
            Diagnostics key_diags;
            const LiteralExpr* literal_key = step.key();
            const Value key = literal_key ? literal(*literal_key, key_diags) : Value::dynamic_null();
            diags.insert(diags.end(), key_diags.begin(), key_diags.end());
            r = index_value(v, key);
        }
        if (r.error) {
            error(diags, code::invalid_index, r.error->summary, r.error->detail, step.range);
            return Value::dynamic_unknown();
        }
        v = std::move(r.value);
    }
    return v;
}

Value Evaluator::function_call(const FunctionCallExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    const Function* fn = nullptr;
    bool any_table = false;
    for (const EvalContext* c = ctx; c != nullptr && fn == nullptr; c = c->parent) {
        if (!c->functions) continue;
        any_table = true;
        const auto it = c->functions->find(e.name);
        if (it != c->functions->end()) fn = &it->second;
    }
    if (fn == nullptr) {
        if (!any_table)
            error(diags, code::function_calls_not_allowed, "Function calls not allowed",
                  "Functions may not be called here.", e.range);
        else
            error(diags, code::call_to_unknown_function, "Call to unknown function",
                  "There is no function named \"" + std::string(e.name) + "\".", e.name_range(), e.range);
        return Value::dynamic_unknown();
    }
    const std::size_t mark = diags.size();
    std::vector<Value> args;
    for (const Expr* a : e.args) args.push_back(eval(*a, ctx, diags));
    if (e.expand_final && !args.empty()) {
        const Value last = args.back();
        args.pop_back();
        const Type& t = last.type();
        if (last.is_null()) {
            error(diags, code::invalid_expanding_argument_value, "Invalid expanding argument value",
                  "The expanding argument (indicated by ...) must not be null.", e.args.back()->range, e.range);
            return Value::dynamic_unknown();
        }
        if (!(t.is_tuple() || t.is_list() || t.is_set())) {
            if (!t.is_dynamic()) {
                error(diags, code::invalid_expanding_argument_value, "Invalid expanding argument value",
                      "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                      e.args.back()->range, e.range);
            }
            return Value::dynamic_unknown();
        }
        if (!last.is_known()) return Value::dynamic_unknown();
        for (const Value& v : last.elements()) args.push_back(v);
    }
    if (has_errors_since(diags, mark)) return Value::dynamic_unknown();
    Function::Result r = fn->call(args);
    if (!r.error.empty()) {
        error(diags, code::error_in_function_call, "Error in function call",
              "Call to function \"" + std::string(e.name) + "\" failed: " + r.error + ".", e.name_range(), e.range);
        return Value::dynamic_unknown();
    }
    return std::move(r.value);
}

Value Evaluator::conditional(const ConditionalExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    Diagnostics true_diags;
    Diagnostics false_diags;
    const Value true_result = eval(*e.true_result, ctx, true_diags);
    const Value false_result = eval(*e.false_result, ctx, false_diags);

    Type result_type = Type::dynamic();
    // How each branch reaches the result type; nullopt means unchanged.
    std::optional<cty::Unification> true_conv;
    std::optional<cty::Unification> false_conv;
    const Value dynamic_null = Value::dynamic_null();
    if (true_result.raw_equals(dynamic_null)) {
        result_type = false_result.type();
        true_conv = cty::Unification{result_type};
    } else if (false_result.raw_equals(dynamic_null)) {
        result_type = true_result.type();
        false_conv = cty::Unification{result_type};
    } else if (true_result.type().is_dynamic() || false_result.type().is_dynamic()) {
        // Either side is not yet typed: no unification possible or needed.
    } else {
        const Type both[] = {true_result.type(), false_result.type()};
        const auto u = cty::unify(both, cty::Safety::unsafe);
        if (!u) {
            error(diags, code::inconsistent_conditional_result_types, "Inconsistent conditional result types",
                  "The true and false result expressions must have consistent types.",
                  Range{e.true_result->range.start, e.false_result->range.end}, e.range);
            return Value::dynamic_unknown();
        }
        result_type = u->type;
        if (!(true_result.type() == u->type) || u->to_unknown) true_conv = *u;
        if (!(false_result.type() == u->type) || u->to_unknown) false_conv = *u;
    }

    Value cond = eval(*e.condition, ctx, diags);
    if (cond.is_null()) {
        error(diags, code::null_condition, "Null condition",
              "The condition value is null. Conditions must either be true or false.", e.condition->range, e.range);
        return Value::unknown(result_type);
    }
    if (!cond.is_known()) return Value::unknown(result_type);
    const cty::Converted b = cty::convert(cond, Type::boolean());
    if (!b.ok()) {
        error(diags, code::incorrect_condition_type, "Incorrect condition type",
              "The condition expression must be of type bool.", e.condition->range, e.range);
        return Value::unknown(result_type);
    }
    if (!b.value.is_known()) return Value::unknown(result_type);
    const bool chosen_true = b.value.as_bool();
    const Value& chosen = chosen_true ? true_result : false_result;
    const Diagnostics& chosen_diags = chosen_true ? true_diags : false_diags;
    const auto& conv = chosen_true ? true_conv : false_conv;
    diags.insert(diags.end(), chosen_diags.begin(), chosen_diags.end());
    if (!conv) return chosen;
    cty::Converted c = conv->apply(chosen, cty::Safety::unsafe);
    if (!c.ok()) {
        error(diags, code::inconsistent_conditional_result_types, "Inconsistent conditional result types",
              std::string("The ") + (chosen_true ? "true" : "false") + " result value has the wrong type: " + c.error +
                  ".",
              (chosen_true ? e.true_result : e.false_result)->range, e.range);
        return Value::unknown(result_type);
    }
    return std::move(c.value);
}

Value Evaluator::binary(const BinaryOpExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    const std::size_t mark = diags.size();
    const Value lhs_given = eval(*e.lhs, ctx, diags);
    const Value rhs_given = eval(*e.rhs, ctx, diags);
    const Type want = operand_type(e.op);
    const cty::Converted lhs = cty::convert(lhs_given, want);
    if (!lhs.ok())
        error(diags, code::invalid_operand, "Invalid operand", "Unsuitable value for left operand: " + lhs.error + ".",
              e.lhs->range, e.range);
    const cty::Converted rhs = cty::convert(rhs_given, want);
    if (!rhs.ok())
        error(diags, code::invalid_operand, "Invalid operand", "Unsuitable value for right operand: " + rhs.error + ".",
              e.rhs->range, e.range);
    if (has_errors_since(diags, mark)) return Value::unknown(result_type(e.op));
    OperationResult r = apply_operation(e.op, lhs.value, rhs.value);
    if (!r.error.empty()) {
        error(diags, code::operation_failed, "Operation failed", "Error during operation: " + r.error + ".", e.range);
        return Value::unknown(result_type(e.op));
    }
    return std::move(r.value);
}

Value Evaluator::unary(const UnaryOpExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    const std::size_t mark = diags.size();
    const Value given = eval(*e.operand, ctx, diags);
    const cty::Converted v = cty::convert(given, operand_type(e.op));
    if (!v.ok())
        error(diags, code::invalid_operand, "Invalid operand", "Unsuitable value for unary operand: " + v.error + ".",
              e.operand->range, e.range);
    if (has_errors_since(diags, mark)) return Value::unknown(result_type(e.op));
    OperationResult r = apply_operation(e.op, v.value);
    if (!r.error.empty()) {
        error(diags, code::operation_failed, "Operation failed", "Error during operation: " + r.error + ".", e.range);
        return Value::unknown(result_type(e.op));
    }
    return std::move(r.value);
}

Value Evaluator::object(const ObjectExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    Value::Attributes attrs;
    bool known = true;
    for (const ObjectItem& item : e.items) {
        // Most keys are bare names (`name = ...`): the name is the key, as
        // object_key's string would be once converted, with no value made
        // for it.
        if (item.key->kind == ExprKind::object_key) {
            const auto& k = as<ObjectKeyExpr>(*item.key);
            if (!k.force_non_literal && k.wrapped->kind == ExprKind::scope_traversal &&
                as<ScopeTraversalExpr>(*k.wrapped).steps.empty()) {
                Value value = eval(*item.value, ctx, diags);
                attrs.insert_or_assign(cty::normalize_nfc(as<ScopeTraversalExpr>(*k.wrapped).root), std::move(value));
                continue;
            }
        }
        const std::size_t key_mark = diags.size();
        const Value key = eval(*item.key, ctx, diags);
        const bool key_failed = has_errors_since(diags, key_mark);
        Value value = eval(*item.value, ctx, diags);
        if (key_failed) {
            known = false;
            continue;
        }
        if (key.is_null()) {
            error(diags, code::null_value_as_key, "Null value as key", "Can't use a null value as a key.",
                  item.value->range);
            known = false;
            continue;
        }
        const cty::Converted k = cty::convert(key, Type::string());
        if (!k.ok()) {
            error(diags, code::incorrect_key_type, "Incorrect key type",
                  "Can't use this value as a key: " + k.error + ".", item.key->range);
            known = false;
            continue;
        }
        if (!k.value.is_known()) {
            known = false;
            continue;
        }
        // A repeated key replaces the earlier value, as upstream's map does.
        attrs.insert_or_assign(k.value.as_string(), std::move(value));
    }
    if (!known) return Value::dynamic_unknown();
    return Value::object(std::move(attrs));
}

Value Evaluator::object_key(const ObjectKeyExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    if (!e.force_non_literal && e.wrapped->kind == ExprKind::scope_traversal) {
        const auto& t = as<ScopeTraversalExpr>(*e.wrapped);
        if (!t.steps.empty()) {
            error(diags, code::ambiguous_attribute_key, "Ambiguous attribute key",
                  "If this expression is intended to be a reference, wrap it in parentheses. If it's instead "
                  "intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                  e.range);
            return Value::dynamic_unknown();
        }
        return Value::string(t.root);
    }
    return eval(*e.wrapped, ctx, diags);
}

Value Evaluator::for_expr(const ForExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    const Value coll = eval(*e.collection, ctx, diags);
    if (coll.is_null()) {
        error(diags, code::iteration_over_null_value, "Iteration over null value",
              "A null value cannot be used as the collection in a 'for' expression.", e.collection->range, e.range);
        return Value::dynamic_unknown();
    }
    if (coll.type().is_dynamic()) return Value::dynamic_unknown();
    if (!can_iterate(coll.type())) {
        error(diags, code::iteration_over_non_iterable_value, "Iteration over non-iterable value",
              "A value of type " + coll.type().friendly_name() +
                  " cannot be used as the collection in a 'for' expression.",
              e.collection->range, e.range);
        return Value::dynamic_unknown();
    }
    if (!coll.is_known()) return Value::dynamic_unknown();

    if (e.condition != nullptr) {
        // Upstream type-checks the condition once with unknown iterators
        // before iterating, so a condition that can never be a bool fails
        // even for an empty collection.
        const EvalContext probe = iterator_scope(ctx, e, Value::dynamic_unknown(), Value::dynamic_unknown());
        const std::size_t mark = diags.size();
        const Value result = eval(*e.condition, &probe, diags);
        if (result.is_null()) {
            error(diags, code::condition_is_null, "Condition is null", "The value of the 'if' clause must not be null.",
                  e.condition->range, e.range);
            return Value::dynamic_unknown();
        }
        const cty::Converted b = cty::convert(result, Type::boolean());
        if (!b.ok()) {
            error(diags, code::invalid_for_condition, "Invalid 'for' condition",
                  "The 'if' clause value is invalid: " + b.error + ".", e.condition->range, e.range);
            return Value::dynamic_unknown();
        }
        if (has_errors_since(diags, mark)) return Value::dynamic_unknown();
    }

    bool known = true;
    // Evaluates the condition for one element: true to include it.
    auto include = [&](const EvalContext& scope) {
        if (e.condition == nullptr) return true;
        const Value raw = eval(*e.condition, &scope, diags);
        if (raw.is_null()) {
            if (known)
                error(diags, code::invalid_for_condition, "Invalid 'for' condition",
                      "The value of the 'if' clause must not be null.", e.condition->range, e.range);
            known = false;
            return false;
        }
        if (!raw.is_known() && e.key_expr == nullptr) {
            known = false;
            return false;
        }
        const cty::Converted b = cty::convert(raw, Type::boolean());
        if (!b.ok()) {
            if (known)
                error(diags, code::invalid_for_condition, "Invalid 'for' condition",
                      "The 'if' clause value is invalid: " + b.error + ".", e.condition->range, e.range);
            known = false;
            return false;
        }
        if (!b.value.is_known()) {
            known = false;
            return false;
        }
        return b.value.as_bool();
    };

    if (e.key_expr != nullptr) {
        Value::Attributes vals;
        std::map<std::string, Value::Elements, std::less<>> groups;
        for (const auto& [k, v] : iteration_pairs(coll)) {
            const EvalContext scope = iterator_scope(ctx, e, k, v);
            if (!include(scope)) continue;
            const Value key_raw = eval(*e.key_expr, &scope, diags);
            if (key_raw.is_null()) {
                if (known)
                    error(diags, code::invalid_object_key, "Invalid object key",
                          "Key expression in 'for' expression must not produce a null value.", e.key_expr->range,
                          e.range);
                known = false;
                continue;
            }
            if (!key_raw.is_known()) {
                known = false;
                continue;
            }
            const cty::Converted key = cty::convert(key_raw, Type::string());
            if (!key.ok()) {
                if (known)
                    error(diags, code::invalid_object_key, "Invalid object key",
                          "The key expression produced an invalid result: " + key.error + ".", e.key_expr->range,
                          e.range);
                known = false;
                continue;
            }
            Value val = eval(*e.value_expr, &scope, diags);
            const std::string& name = key.value.as_string();
            if (e.group) {
                groups[name].push_back(std::move(val));
            } else if (vals.contains(name)) {
                error(diags, code::duplicate_object_key, "Duplicate object key",
                      "Two different items produced the key \"" + name +
                          "\" in this 'for' expression. If duplicates are "
                          "expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                      e.key_expr->range, e.range);
            } else {
                vals.emplace(name, std::move(val));
            }
        }
        if (!known) return Value::dynamic_unknown();
        if (e.group) {
            for (auto& [k, items] : groups) vals.emplace(k, Value::tuple(std::move(items)));
        }
        return Value::object(std::move(vals));
    }

    Value::Elements vals;
    for (const auto& [k, v] : iteration_pairs(coll)) {
        const EvalContext scope = iterator_scope(ctx, e, k, v);
        if (!include(scope)) continue;
        vals.push_back(eval(*e.value_expr, &scope, diags));
    }
    if (!known) return Value::dynamic_unknown();
    return Value::tuple(std::move(vals));
}

Value Evaluator::splat(const SplatExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    const std::size_t mark = diags.size();
    Value source = eval(*e.source, ctx, diags);
    if (has_errors_since(diags, mark)) return Value::dynamic_unknown();
    Type source_type = source.type();
    const bool auto_upgrade = !(source_type.is_tuple() || source_type.is_list() || source_type.is_set());
    if (source.is_null()) {
        if (auto_upgrade) return Value::tuple({});
        error(diags, code::splat_of_null_value, "Splat of null value",
              "Splat expressions (with the * symbol) cannot be applied to null sequences.", e.source->range,
              Range{e.source->range.start, e.marker_range.end});
        return Value::dynamic_unknown();
    }
    if (source_type.is_dynamic()) return Value::dynamic_unknown();
    bool upgraded_unknown = false;
    if (auto_upgrade) {
        // A single value is treated as a one-element tuple (legacy `.*`).
        upgraded_unknown = !source.is_known();
        source = Value::tuple({source});
        source_type = source.type();
    }

    // The type `each` gives for an item of type t (for empty or unknown sources).
    auto each_type = [&](const Type& t) {
        Diagnostics ignored;
        splat_items_.emplace_back(e.item, Value::unknown(t));
        const Value v = eval(*e.each, ctx, ignored);
        splat_items_.pop_back();
        return std::make_pair(v.type(), ignored);
    };
    auto result_type = [&]() {
        if (source_type.is_list() || source_type.is_set()) return Type::list(each_type(source_type.element()).first);
        std::vector<Type> types;
        for (const Type& t : source_type.tuple_elements()) types.push_back(each_type(t).first);
        return Type::tuple(std::move(types));
    };

    if (!source.is_known()) return Value::unknown(result_type());

    Value::Elements vals;
    bool known = true;
    for (const Value& item : source.elements()) {
        splat_items_.emplace_back(e.item, item);
        const std::size_t item_mark = diags.size();
        vals.push_back(eval(*e.each, ctx, diags));
        splat_items_.pop_back();
        if (has_errors_since(diags, item_mark)) known = false;
    }
    if (upgraded_unknown) return Value::dynamic_unknown();
    if (!known) return Value::unknown(result_type());
    if (source_type.is_list() || source_type.is_set()) {
        if (vals.empty()) return Value::list(result_type().element(), {});
        const Type t = vals.front().type();
        for (const Value& v : vals) {
            if (!(v.type() == t)) return Value::tuple(std::move(vals));  // cannot happen for uniform sources
        }
        return Value::list(t, std::move(vals));
    }
    return Value::tuple(std::move(vals));
}

Value Evaluator::template_expr(const TemplateExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    std::string out;
    bool known = true;
    for (const Expr* part : e.parts) {
        Value v = eval(*part, ctx, diags);
        // Most templates are one quoted literal. A known string is already
        // NFC, so it is the result as it stands: no conversion, no copies.
        if (e.parts.size() == 1 && v.is_known() && !v.is_null() && v.type().kind() == cty::TypeKind::string) return v;
        if (v.is_null()) {
            error(diags, code::invalid_template_interpolation_value, "Invalid template interpolation value",
                  "The expression result is null. Cannot include a null value in a string template.", part->range,
                  e.range);
            continue;
        }
        if (!v.is_known()) {
            known = false;
            continue;
        }
        const cty::Converted s = cty::convert(v, Type::string());
        if (!s.ok()) {
            error(diags, code::invalid_template_interpolation_value, "Invalid template interpolation value",
                  "Cannot include the given value in a string template: " + s.error + ".", part->range, e.range);
            continue;
        }
        out += s.value.as_string();
    }
    if (!known) return Value::unknown(Type::string());
    return Value::string(out);
}

Value Evaluator::template_join(const TemplateJoinExpr& e, const EvalContext* ctx, Diagnostics& diags) {
    const Value tuple = eval(*e.tuple, ctx, diags);
    if (tuple.type().is_dynamic() || !tuple.is_known()) return Value::unknown(Type::string());
    if (tuple.is_null() || !tuple.type().is_tuple()) {
        // Upstream panics here; the parser never builds such a tree.
        error(diags, code::invalid_template_directive, "Invalid template directive",
              "A template 'for' directive did not produce a sequence.", e.range);
        return Value::unknown(Type::string());
    }
    std::string out;
    for (const Value& v : tuple.elements()) {
        if (v.is_null()) {
            error(diags, code::invalid_template_interpolation_value, "Invalid template interpolation value",
                  "An iteration result is null. Cannot include a null value in a string template.", e.range);
            continue;
        }
        if (v.type().is_dynamic()) return Value::unknown(Type::string());
        const cty::Converted s = cty::convert(v, Type::string());
        if (!s.ok()) {
            error(diags, code::invalid_template_interpolation_value, "Invalid template interpolation value",
                  "Cannot include one of the interpolation results into the string template: " + s.error + ".",
                  e.range);
            continue;
        }
        if (!v.is_known()) return Value::unknown(Type::string());
        out += s.value.as_string();
    }
    return Value::string(out);
}

EvalResult evaluate(const Expr& expr, const EvalContext* ctx) {
    Evaluator evaluator(ctx ? ctx->filename : std::string());
    EvalResult result;
    result.value = evaluator.eval(expr, ctx, result.diagnostics);
    return result;
}

}  // namespace tfsift::hcl
