// HCL's operators as the cty stdlib functions hclsyntax calls for them:
// operand types, null and unknown handling, and the operations themselves.
#pragma once

#include <string>

#include "tfsift/cty/value.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::hcl {

// The type each operand is converted to before the operation (dynamic for
// == and != which compare without conversion), and the result type.
cty::Type operand_type(BinaryOp op);
cty::Type result_type(BinaryOp op);
cty::Type operand_type(UnaryOp op);
cty::Type result_type(UnaryOp op);

struct OperationResult {
    cty::Value value;
    std::string error;  // "Error during operation" detail when non-empty
};

// Applies an operator to operands already converted to operand_type(op).
OperationResult apply_operation(BinaryOp op, const cty::Value& lhs, const cty::Value& rhs);
OperationResult apply_operation(UnaryOp op, const cty::Value& operand);

}  // namespace tfsift::hcl
