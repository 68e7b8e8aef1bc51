// Evaluation of HCL native-syntax expressions, with the semantics of
// hclsyntax's Expression.Value(ctx): cty values, conversions and the same
// error cases. Evaluation never throws for bad input; problems come back as
// diagnostics, and the value is then usually unknown.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "tfsift/cty/value.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::hcl {

// A function callable from expressions. `call` receives the arguments (the
// final one already expanded when the call used `...`) and returns a value
// or an error message.
struct Function {
    struct Result {
        cty::Value value;
        std::string error;  // non-empty on failure
    };
    std::function<Result(std::span<const cty::Value> args)> call;
};

// What names mean while evaluating, as hcl.EvalContext: absent tables mean
// "not allowed here" (different from present but empty: "unknown name").
struct EvalContext {
    std::optional<std::map<std::string, cty::Value, std::less<>>> variables;
    std::optional<std::map<std::string, Function, std::less<>>> functions;
    const EvalContext* parent = nullptr;  // consulted for names not found here
    std::string filename;                 // for diagnostics
};

struct EvalResult {
    cty::Value value;
    Diagnostics diagnostics;
};

// Evaluates `expr`. A null `ctx` is hcl's Value(nil): no variables, no
// functions, and any reference or call is an error.
EvalResult evaluate(const Expr& expr, const EvalContext* ctx);

}  // namespace tfsift::hcl
