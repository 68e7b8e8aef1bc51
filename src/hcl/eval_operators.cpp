#include "eval_operators.hpp"

namespace tfsift::hcl {

using cty::Number;
using cty::Type;
using cty::Value;

Type operand_type(BinaryOp op) {
    switch (op) {
        case BinaryOp::logical_or:
        case BinaryOp::logical_and: return Type::boolean();
        case BinaryOp::equal:
        case BinaryOp::not_equal: return Type::dynamic();
        default: return Type::number();
    }
}

Type result_type(BinaryOp op) {
    switch (op) {
        case BinaryOp::add:
        case BinaryOp::subtract:
        case BinaryOp::multiply:
        case BinaryOp::divide:
        case BinaryOp::modulo: return Type::number();
        default: return Type::boolean();
    }
}

Type operand_type(UnaryOp op) { return op == UnaryOp::negate ? Type::number() : Type::boolean(); }
Type result_type(UnaryOp op) { return operand_type(op); }

namespace {

bool allows_null_and_unknown(BinaryOp op) { return op == BinaryOp::equal || op == BinaryOp::not_equal; }

Value negated(const Value& b) { return b.is_known() ? Value::boolean(!b.as_bool()) : b; }

// cty's Or on possibly unknown bools.
Value bool_or(const Value& a, const Value& b) {
    if (!a.is_known() || !b.is_known()) return Value::unknown(Type::boolean());
    return Value::boolean(a.as_bool() || b.as_bool());
}

OperationResult arithmetic(BinaryOp op, const Number& a, const Number& b) {
    std::optional<Number> r;
    const char* nan_error = "";
    switch (op) {
        case BinaryOp::add:
            r = a.add(b);
            nan_error = "can't compute sum of opposing infinities";
            break;
        case BinaryOp::subtract:
            r = a.subtract(b);
            nan_error = "can't subtract infinity from itself";
            break;
        case BinaryOp::multiply:
            r = a.multiply(b);
            nan_error = "can't multiply zero by infinity";
            break;
        case BinaryOp::divide:
            r = a.divide(b);
            nan_error = "can't divide zero by zero or infinity by infinity";
            break;
        case BinaryOp::modulo:
            r = a.modulo(b);
            nan_error = "can't use modulo with zero and infinity";
            break;
        default: break;
    }
    if (!r) return {Value::unknown(Type::number()), nan_error};
    return {Value::number(std::move(*r)), {}};
}

}  // namespace

OperationResult apply_operation(BinaryOp op, const Value& lhs, const Value& rhs) {
    const Type result = result_type(op);
    if (!allows_null_and_unknown(op)) {
        if (lhs.is_null() || rhs.is_null()) return {Value::unknown(result), "argument must not be null"};
        if (!lhs.is_known() || !rhs.is_known()) return {Value::unknown(result), {}};
    }
    switch (op) {
        case BinaryOp::logical_or: return {Value::boolean(lhs.as_bool() || rhs.as_bool()), {}};
        case BinaryOp::logical_and: return {Value::boolean(lhs.as_bool() && rhs.as_bool()), {}};
        case BinaryOp::equal: return {lhs.equals(rhs), {}};
        case BinaryOp::not_equal: return {negated(lhs.equals(rhs)), {}};
        case BinaryOp::greater: return {Value::boolean(lhs.as_number().compare(rhs.as_number()) > 0), {}};
        case BinaryOp::less: return {Value::boolean(lhs.as_number().compare(rhs.as_number()) < 0), {}};
        case BinaryOp::greater_or_equal:
            return {bool_or(Value::boolean(lhs.as_number().compare(rhs.as_number()) > 0), lhs.equals(rhs)), {}};
        case BinaryOp::less_or_equal:
            return {bool_or(Value::boolean(lhs.as_number().compare(rhs.as_number()) < 0), lhs.equals(rhs)), {}};
        default: return arithmetic(op, lhs.as_number(), rhs.as_number());
    }
}

OperationResult apply_operation(UnaryOp op, const Value& operand) {
    const Type result = result_type(op);
    if (operand.is_null()) return {Value::unknown(result), "argument must not be null"};
    if (!operand.is_known()) return {Value::unknown(result), {}};
    if (op == UnaryOp::negate) return {Value::number(operand.as_number().negate()), {}};
    return {Value::boolean(!operand.as_bool()), {}};
}

}  // namespace tfsift::hcl
