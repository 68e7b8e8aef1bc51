#include "tfsift/hcl/constant.hpp"

#include "tfsift/cty/json.hpp"
#include "tfsift/hcl/eval.hpp"

namespace tfsift::hcl {

namespace {
// The value when evaluation without a context is clean and wholly known.
std::optional<cty::Value> constant_value(const Expr& expr) {
    EvalResult r = evaluate(expr, nullptr);
    if (!r.diagnostics.empty() || !r.value.is_wholly_known()) return std::nullopt;
    return std::move(r.value);
}
}  // namespace

std::optional<nlohmann::json> constant_value_json(const Expr& expr) {
    const auto v = constant_value(expr);
    if (!v) return std::nullopt;
    return cty::to_json(*v);
}

std::optional<std::string> constant_value_json_text(const Expr& expr) {
    const auto v = constant_value(expr);
    if (!v) return std::nullopt;
    return cty::to_json_text(*v);
}

}  // namespace tfsift::hcl
