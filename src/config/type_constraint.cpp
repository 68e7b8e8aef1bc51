#include "tfsift/config/type_constraint.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>

#include <fmt/core.h>

#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/eval.hpp"

namespace tfsift::config {

namespace {

constexpr const char* invalid_type = "Invalid type specification";

struct Parser {
    const std::string& filename;
    Diagnostics& diags;
    bool failed = false;

    void error(std::string_view code, std::string summary, std::string detail, Range subject) {
        Diagnostic d;
        d.code = code;
        d.summary = std::move(summary);
        d.detail = std::move(detail);
        d.filename = filename;
        d.subject = subject;
        diags.push_back(std::move(d));
        failed = true;
    }

    static const hcl::Expr* unwrap(const hcl::Expr* e) {
        while (e && (e->kind == hcl::ExprKind::object_key || e->kind == hcl::ExprKind::parentheses)) {
            if (e->kind == hcl::ExprKind::object_key) {
                const auto& k = hcl::as<hcl::ObjectKeyExpr>(*e);
                if (k.force_non_literal) return e;
                e = k.wrapped;
            } else {
                // hcl.ExprAsKeyword does not see through parentheses.
                return e;
            }
        }
        return e;
    }

    static std::string_view keyword(const hcl::Expr& expr) {
        const hcl::Expr* e = unwrap(&expr);
        if (e->kind != hcl::ExprKind::scope_traversal) return {};
        const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
        return t.steps.empty() ? t.root.view() : std::string_view{};
    }

    static std::shared_ptr<const TypeDefaults> collection_defaults(const cty::Type& ty,
                                                                   std::shared_ptr<const TypeDefaults> elem) {
        if (!elem) return nullptr;
        auto d = std::make_shared<TypeDefaults>();
        d->type = ty;
        d->children.emplace("", std::move(elem));
        return d;
    }

    cty::Type get(const hcl::Expr& expr, std::shared_ptr<const TypeDefaults>& defaults) {
        defaults.reset();
        std::string_view kw = keyword(expr);
        if (kw == "bool") return cty::Type::boolean();
        if (kw == "string") return cty::Type::string();
        if (kw == "number") return cty::Type::number();
        if (kw == "any") return cty::Type::dynamic();
        if (kw == "list" || kw == "map" || kw == "set") {
            error(code::invalid_type_specification, invalid_type,
                  fmt::format("The {} type constructor requires one argument specifying the element type.", kw),
                  expr.range);
            return cty::Type::dynamic();
        }
        if (kw == "object") {
            error(code::invalid_type_specification, invalid_type,
                  "The object type constructor requires one argument specifying the attribute types as a map.",
                  expr.range);
            return cty::Type::dynamic();
        }
        if (kw == "tuple") {
            error(code::invalid_type_specification, invalid_type,
                  "The tuple type constructor requires one argument specifying the element types as a list.",
                  expr.range);
            return cty::Type::dynamic();
        }
        if (!kw.empty()) {
            error(code::invalid_type_specification, invalid_type,
                  fmt::format("The keyword \"{}\" is not a valid type specification.", kw), expr.range);
            return cty::Type::dynamic();
        }
        const hcl::Expr* e = unwrap(&expr);
        if (e->kind != hcl::ExprKind::function_call) {
            error(code::invalid_type_specification, invalid_type,
                  "A type specification is either a primitive type keyword (bool, number, string) or a complex type "
                  "constructor call, like list(string).",
                  expr.range);
            return cty::Type::dynamic();
        }
        const auto& call = hcl::as<hcl::FunctionCallExpr>(*e);
        const Range args_range{call.open_paren_start, call.close_paren.end};
        if (call.name == "bool" || call.name == "string" || call.name == "number") {
            error(code::invalid_type_specification, invalid_type,
                  fmt::format("Primitive type keyword \"{}\" does not expect arguments.", call.name), args_range);
            return cty::Type::dynamic();
        }
        if (call.name == "any") {
            error(code::invalid_type_specification, invalid_type,
                  "Type constraint keyword \"any\" does not expect arguments.", args_range);
            return cty::Type::dynamic();
        }
        const bool constructor = call.name == "list" || call.name == "set" || call.name == "map" ||
                                 call.name == "object" || call.name == "tuple";
        if (constructor && call.args.size() != 1) {
            Range subject = args_range;
            if (call.args.size() > 1) subject = Range{call.args[1]->range.start, call.args.back()->range.end};
            if (call.name == "object") {
                error(code::invalid_type_specification, invalid_type,
                      "The object type constructor requires one argument specifying the attribute types as a map.",
                      subject);
            } else if (call.name == "tuple") {
                error(code::invalid_type_specification, invalid_type,
                      "The tuple type constructor requires one argument specifying the element types as a list.",
                      subject);
            } else {
                error(code::invalid_type_specification, invalid_type,
                      fmt::format("The {} type constructor requires one argument specifying the element type.",
                                  call.name),
                      subject);
            }
            return cty::Type::dynamic();
        }
        if (call.name == "list" || call.name == "set" || call.name == "map") {
            std::shared_ptr<const TypeDefaults> elem;
            cty::Type et = get(*call.args[0], elem);
            cty::Type ty = call.name == "list"  ? cty::Type::list(et)
                           : call.name == "set" ? cty::Type::set(et)
                                                : cty::Type::map(et);
            defaults = collection_defaults(ty, std::move(elem));
            return ty;
        }
        if (call.name == "object") {
            const hcl::Expr* arg = unwrap(call.args[0]);
            if (arg->kind != hcl::ExprKind::object) {
                error(code::invalid_type_specification, invalid_type,
                      "Object type constructor requires a map whose keys are attribute names and whose values are the "
                      "corresponding attribute types.",
                      call.args[0]->range);
                return cty::Type::dynamic();
            }
            cty::Type::AttributeTypes attrs;
            std::set<std::string, std::less<>> optional;
            std::map<std::string, cty::Value, std::less<>> values;
            std::map<std::string, std::shared_ptr<const TypeDefaults>, std::less<>> children;
            for (const auto& item : hcl::as<hcl::ObjectExpr>(*arg).items) {
                std::string name(keyword(*item.key));
                if (name.empty()) {
                    error(code::invalid_type_specification, invalid_type,
                          "Object constructor map keys must be attribute names.", item.key->range);
                    continue;
                }
                const hcl::Expr* aty_expr = item.value;
                const hcl::Expr* default_expr = nullptr;
                const hcl::Expr* v = unwrap(item.value);
                if (v->kind == hcl::ExprKind::function_call && hcl::as<hcl::FunctionCallExpr>(*v).name == "optional") {
                    const auto& opt = hcl::as<hcl::FunctionCallExpr>(*v);
                    if (opt.args.empty()) {
                        error(code::invalid_type_specification, invalid_type,
                              "Optional attribute modifier requires the attribute type as its argument.",
                              item.value->range);
                        continue;
                    }
                    if (opt.args.size() == 2) {
                        default_expr = opt.args[1];
                        auto r = hcl::evaluate(*default_expr, nullptr);
                        if (has_errors(r.diagnostics)) {
                            for (auto& d : r.diagnostics) diags.push_back(std::move(d));
                            failed = true;
                        } else {
                            optional.insert(name);
                            values.insert_or_assign(name, r.value);
                        }
                    } else if (opt.args.size() == 1) {
                        optional.insert(name);
                    } else {
                        error(
                            code::invalid_type_specification, invalid_type,
                            "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
                            item.value->range);
                    }
                    aty_expr = opt.args[0];
                }
                std::shared_ptr<const TypeDefaults> child;
                cty::Type aty = get(*aty_expr, child);
                if (auto it = values.find(name); it != values.end()) {
                    // The default is kept converted to the attribute's type.
                    auto conv = cty::convert(it->second, aty);
                    if (conv.ok()) {
                        it->second = conv.value;
                    } else {
                        error(code::invalid_default_value_for_optional_attribute,
                              "Invalid default value for optional attribute",
                              fmt::format(
                                  "This default value is not compatible with the attribute's type constraint: {}.",
                                  conv.error),
                              default_expr->range);
                        values.erase(it);
                    }
                }
                attrs.insert_or_assign(name, aty);
                if (child) children.insert_or_assign(name, std::move(child));
            }
            cty::Type ty = cty::Type::object(std::move(attrs), std::move(optional));
            if (!values.empty() || !children.empty()) {
                auto d = std::make_shared<TypeDefaults>();
                d->type = ty;
                d->values = std::move(values);
                d->children = std::move(children);
                defaults = std::move(d);
            }
            return ty;
        }
        if (call.name == "tuple") {
            const hcl::Expr* arg = unwrap(call.args[0]);
            if (arg->kind != hcl::ExprKind::tuple) {
                error(code::invalid_type_specification, invalid_type,
                      "Tuple type constructor requires a list of element types.", call.args[0]->range);
                return cty::Type::dynamic();
            }
            std::vector<cty::Type> elems;
            std::map<std::string, std::shared_ptr<const TypeDefaults>, std::less<>> children;
            const auto& items = hcl::as<hcl::TupleExpr>(*arg).items;
            for (std::size_t i = 0; i < items.size(); ++i) {
                std::shared_ptr<const TypeDefaults> child;
                elems.push_back(get(*items[i], child));
                if (child) children.emplace(std::to_string(i), std::move(child));
            }
            cty::Type ty = cty::Type::tuple(std::move(elems));
            if (!children.empty()) {
                auto d = std::make_shared<TypeDefaults>();
                d->type = ty;
                d->children = std::move(children);
                defaults = std::move(d);
            }
            return ty;
        }
        if (call.name == "optional") {
            error(code::invalid_type_specification, invalid_type,
                  "Keyword \"optional\" is valid only as a modifier for object type attributes.", call.name_range());
            return cty::Type::dynamic();
        }
        error(code::invalid_type_specification, invalid_type,
              fmt::format("Keyword \"{}\" is not a valid type constructor.", call.name), call.name_range());
        return cty::Type::dynamic();
    }
};

void defaults_paths(const TypeDefaults& d, const std::string& prefix, nlohmann::json& out) {
    auto attr_path = [&](const std::string& name) { return prefix.empty() ? name : prefix + "." + name; };
    for (const auto& [name, v] : d.values) {
        auto j = cty::to_json(v);
        out[attr_path(name)] = j ? *j : nlohmann::json(nullptr);
    }
    for (const auto& [key, child] : d.children) {
        std::string p;
        if (d.type.is_object()) {
            p = attr_path(key);
        } else if (d.type.is_tuple()) {
            p = fmt::format("{}[{}]", prefix, key);
        } else {
            p = prefix + "[*]";
        }
        defaults_paths(*child, p, out);
    }
}

}  // namespace

std::optional<TypeConstraint> parse_type_constraint(const hcl::Expr& expr, const std::string& filename,
                                                    Diagnostics& diags) {
    Parser p{filename, diags};
    TypeConstraint out;
    out.type = p.get(expr, out.defaults);
    if (p.failed) return std::nullopt;
    return out;
}

std::optional<TypeConstraint> parse_type_constraint(const hcl::Expr& expr, std::string_view text,
                                                    const std::string& filename, Diagnostics& diags) {
    // Bounded, so that a long run over many configurations does not grow
    // without end: the memo starts over when full, by count or by the bytes
    // of its texts (a long object type's parse is as large as its text is
    // long: 4,096 of them held megabytes).
    constexpr std::size_t memo_limit = 4096;
    constexpr std::size_t memo_text_bytes = std::size_t{256} << 10;
    // Looked up by the text as it is, without a copy.
    struct TextHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    thread_local std::unordered_map<std::string, TypeConstraint, TextHash, std::equal_to<>> memo;
    thread_local std::size_t memo_bytes = 0;
    if (auto it = memo.find(text); it != memo.end()) return it->second;
    auto tc = parse_type_constraint(expr, filename, diags);
    if (tc) {
        if (memo.size() >= memo_limit || memo_bytes + text.size() > memo_text_bytes) {
            memo.clear();
            memo_bytes = 0;
        }
        memo.emplace(text, *tc);
        memo_bytes += text.size();
    }
    return tc;
}

std::string type_constraint_text(const cty::Type& t) {
    switch (t.kind()) {
        case cty::TypeKind::dynamic: return "any";
        case cty::TypeKind::string: return "string";
        case cty::TypeKind::number: return "number";
        case cty::TypeKind::boolean: return "bool";
        case cty::TypeKind::list: return "list(" + type_constraint_text(t.element()) + ")";
        case cty::TypeKind::set: return "set(" + type_constraint_text(t.element()) + ")";
        case cty::TypeKind::map: return "map(" + type_constraint_text(t.element()) + ")";
        case cty::TypeKind::tuple: {
            std::string out = "tuple([";
            bool first = true;
            for (const auto& e : t.tuple_elements()) {
                if (!first) out += ",";
                first = false;
                out += type_constraint_text(e);
            }
            return out + "])";
        }
        case cty::TypeKind::object: {
            std::string out = "object({";
            bool first = true;
            for (const auto& [name, at] : t.attributes()) {
                if (!first) out += ",";
                first = false;
                out += name;
                out += "=";
                if (t.optional_attributes().count(name) != 0) {
                    out += "optional(" + type_constraint_text(at) + ")";
                } else {
                    out += type_constraint_text(at);
                }
            }
            return out + "})";
        }
    }
    return "any";
}

nlohmann::json optional_defaults_json(const TypeDefaults& defaults) {
    nlohmann::json out = nlohmann::json::object();
    defaults_paths(defaults, "", out);
    return out;
}

cty::Value apply_type_defaults(const TypeDefaults& d, const cty::Value& v) {
    if (!v.is_known() || v.is_null()) return v;
    if (d.values.empty() && d.children.empty()) return v;
    auto child_for = [&](const std::string& key, std::size_t index) -> const TypeDefaults* {
        std::string k;
        if (d.type.is_collection()) {
            k = "";
        } else if (d.type.is_tuple()) {
            k = std::to_string(index);
        } else if (d.type.is_object()) {
            k = key;
        } else {
            return nullptr;
        }
        auto it = d.children.find(k);
        return it == d.children.end() ? nullptr : it->second.get();
    };
    const cty::Type& vt = v.type();
    if (vt.is_tuple()) {
        cty::Value::Elements out;
        std::size_t i = 0;
        for (const auto& e : v.elements()) {
            const TypeDefaults* c = child_for("", i++);
            out.push_back(c ? apply_type_defaults(*c, e) : e);
        }
        return cty::Value::tuple(std::move(out));
    }
    if (vt.is_object()) {
        cty::Value::Attributes out;
        for (const auto& [k, e] : v.attributes()) {
            const TypeDefaults* c = child_for(k, 0);
            out.emplace(k, c ? apply_type_defaults(*c, e) : e);
        }
        for (const auto& [k, dv] : d.values) {
            auto it = out.find(k);
            if (it == out.end() || it->second.is_null()) {
                auto c = d.children.find(k);
                cty::Value filled = c != d.children.end() ? apply_type_defaults(*c->second, dv) : dv;
                out.insert_or_assign(k, filled);
            }
        }
        return cty::Value::object(std::move(out));
    }
    // Lists, sets and maps only arise from function results, which a static
    // default cannot contain.
    return v;
}

nlohmann::json document_json(const cty::Value& v) {
    if (!v.is_wholly_known()) return nullptr;
    if (v.is_null()) return nullptr;
    const cty::Type& t = v.type();
    if (t.is_list() || t.is_tuple() || t.is_set()) {
        std::vector<cty::Value> elems = v.elements();
        if (t.is_set() && t.element().is_primitive()) {
            std::stable_sort(elems.begin(), elems.end(), [](const cty::Value& a, const cty::Value& b) {
                if (a.is_null() || b.is_null()) return !a.is_null() && b.is_null();
                switch (a.type().kind()) {
                    case cty::TypeKind::string: return a.as_string() < b.as_string();
                    case cty::TypeKind::number: return a.as_number().compare(b.as_number()) < 0;
                    case cty::TypeKind::boolean: return !a.as_bool() && b.as_bool();
                    default: return false;
                }
            });
        }
        nlohmann::json out = nlohmann::json::array();
        for (const auto& e : elems) out.push_back(document_json(e));
        return out;
    }
    if (t.is_map() || t.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [k, e] : v.attributes()) out[k] = document_json(e);
        return out;
    }
    auto j = cty::to_json(v);
    return j ? *j : nlohmann::json(nullptr);
}

}  // namespace tfsift::config
