// PLACEHOLDER until the evaluator lands: reports every expression as non-constant.
#include "tfsift/hcl/constant.hpp"

namespace tfsift::hcl {
std::optional<nlohmann::json> constant_value_json(const Expr&) { return std::nullopt; }
}  // namespace tfsift::hcl
