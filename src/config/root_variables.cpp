#include "tfsift/config/root_variables.hpp"

#include <fmt/format.h>

#include "tfsift/arena.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/cty/number.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::config {

namespace {

// A JSON variable file's value: JSON's own types, strings taken as they are
// (unlike a configuration file's JSON, where a string is a template).
cty::Value json_constant(const json::Value& v) {
    switch (v.kind) {
        case json::Kind::null: return cty::Value::dynamic_null();
        case json::Kind::boolean: return cty::Value::boolean(v.boolean);
        case json::Kind::number: {
            auto n = cty::Number::parse(v.text);
            return n ? cty::Value::number(*n) : cty::Value::unknown(cty::Type::number());
        }
        case json::Kind::string: return cty::Value::string(v.text);
        case json::Kind::array: {
            cty::Value::Elements items;
            for (const auto& i : v.items) items.push_back(json_constant(i));
            return cty::Value::tuple(std::move(items));
        }
        case json::Kind::object: {
            cty::Value::Attributes attrs;
            for (const auto& m : v.members) attrs.insert_or_assign(m.name, json_constant(m.value));
            return cty::Value::object(std::move(attrs));
        }
    }
    return cty::Value::dynamic_unknown();
}

StaticResult constant_or_why(hcl::EvalResult r, const std::string& shown) {
    StaticResult out;
    if (!tfsift::has_errors(r.diagnostics) && r.value.is_wholly_known()) {
        out.value = std::move(r.value);
    } else {
        out.unknown_because = fmt::format("{} does not give it as a constant", shown);
    }
    return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> variable_environment(const char* const* environment) {
    std::vector<std::pair<std::string, std::string>> out;
    if (environment == nullptr) return out;
    constexpr std::string_view prefix = "TF_VAR_";
    for (const char* const* e = environment; *e != nullptr; ++e) {
        const std::string_view entry(*e);
        if (!entry.starts_with(prefix)) continue;
        const std::size_t eq = entry.find('=');
        if (eq == std::string_view::npos || eq == prefix.size()) continue;
        out.emplace_back(std::string(entry.substr(prefix.size(), eq - prefix.size())),
                         std::string(entry.substr(eq + 1)));
    }
    return out;
}

bool is_automatic_variable_file(std::string_view name, bool& json) {
    if (name == "terraform.tfvars" || name.ends_with(".auto.tfvars")) {
        json = false;
        return name != ".auto.tfvars";
    }
    if (name == "terraform.tfvars.json" || name.ends_with(".auto.tfvars.json")) {
        json = true;
        return name != ".auto.tfvars.json";
    }
    return false;
}

void read_variable_file(const std::shared_ptr<const SourceFile>& source, bool json, const std::string& shown,
                        StaticInputs& out) {
    if (json) {
        const json::Document doc = json::parse(source);
        if (!doc.root.is_object()) return;  // `init` refuses such a file; nothing is known from it
        for (const auto& m : doc.root.members) {
            StaticResult value;
            value.value = json_constant(m.value);
            out.insert_or_assign(m.name, std::move(value));
        }
        return;
    }
    auto parsed = parse_config_file(source, FileSyntax::native);
    if (!parsed->native) return;
    for (const auto& a : parsed->native->body->attributes) {
        out.insert_or_assign(std::string(a.name), constant_or_why(hcl::evaluate(*a.expr, nullptr), shown));
    }
}

StaticResult variable_value_from_text(std::string_view text, const Variable& declared, const std::string& shown) {
    // Without a type, or with a primitive one, the text is the value as it
    // is; any other type reads it as an expression (`["a", "b"]`).
    if (!declared.type_expr || declared.constraint_type.is_primitive()) {
        StaticResult out;
        out.value = cty::Value::string(std::string(text));
        return out;
    }
    const auto source = std::make_shared<const SourceFile>(shown, text);
    Arena arena;
    Diagnostics diags;
    const hcl::Expr* expr = hcl::parse_expression(*source, source->text(), Pos{0}, arena, diags);
    if (expr == nullptr || tfsift::has_errors(diags)) {
        StaticResult out;
        out.unknown_because = fmt::format("{} is not a valid expression", shown);
        return out;
    }
    return constant_or_why(hcl::evaluate(*expr, nullptr), shown);
}

}  // namespace tfsift::config
