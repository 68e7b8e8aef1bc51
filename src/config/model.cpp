#include "tfsift/config/model.hpp"

#include "tfsift/config/type_constraint.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::config {

std::string_view Expression::source_text() const {
    if (!file) return {};
    std::string_view all = file->text();
    if (range.start.byte > all.size() || range.end.byte < range.start.byte) return {};
    return all.substr(range.start.byte, range.end.byte - range.start.byte);
}

std::string Expression::text() const {
    // Every run of space, tab, LF and CR becomes one space; no leading or
    // trailing space (the spec's "Expression text").
    std::string out;
    std::string_view raw = source_text();
    out.reserve(raw.size());
    bool pending_space = false;
    for (char c : raw) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) out.push_back(' ');
        pending_space = false;
        out.push_back(c);
    }
    return out;
}

bool Expression::is_null_literal() const {
    if (native) {
        return native->kind == hcl::ExprKind::literal &&
               hcl::as<hcl::LiteralExpr>(*native).literal == hcl::LiteralKind::null;
    }
    if (json) return json->kind == json::Kind::null;
    return false;
}

const Argument* Body::find_argument(std::string_view name) const {
    for (const auto& a : arguments) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

bool Provider::configures() const {
    return !config.arguments.empty() || !config.blocks.empty() || !config.undecided.empty() ||
           version_constraints.has_value();
}

std::optional<DecodedValue> Variable::type() const {
    if (!has_type) return std::nullopt;
    std::optional<Origin> where;
    if (type_expr) where = type_expr->origin();
    return DecodedValue{type_constraint_text(constraint_type), where};
}

std::optional<nlohmann::json> Variable::optional_defaults() const {
    if (!type_defaults) return std::nullopt;
    return optional_defaults_json(*type_defaults);
}

std::optional<DecodedValue> Variable::default_value() const {
    if (!default_cty) return std::nullopt;
    std::optional<Origin> where;
    if (default_expr) where = default_expr->origin();
    return DecodedValue{document_json(*default_cty), where};
}

}  // namespace tfsift::config
