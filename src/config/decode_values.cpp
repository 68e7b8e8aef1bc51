#include "decoder.hpp"

#include <algorithm>
#include <span>
#include <tuple>
#include <utility>

#include <fmt/core.h>

#include "tfsift/config/override_merger.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/config/type_constraint.hpp"
#include "tfsift/config/version_constraints.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::config {

void Decoder::decode_variable(const ContentBlock& b) {
    // Built in its place in the file's list (reserved for the file's
    // variables beforehand), not moved there and destroyed when done.
    Variable& v = out_.variables
                      .emplace_back(std::piecewise_construct, std::forward_as_tuple(),
                                    std::forward_as_tuple(Declared{b.def_range}))
                      .first;
    v.name = b.labels[0];
    v.origin = origin(b.origin);
    if (!detail::valid_identifier(v.name)) {
        ctx_.error(code::invalid_variable_name, "Invalid variable name", bad_identifier_detail, b.label_ranges[0]);
    }
    if (contains({"source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals"},
                 v.name)) {
        ctx_.error(code::invalid_variable_name, "Invalid variable name",
                   fmt::format("The variable name \"{}\" is reserved due to its special meaning inside module blocks.",
                               v.name),
                   b.label_ranges[0]);
    }
    Content c = detail::body_content(ctx_, b.body, schema::variable, nullptr);
    if (const auto* a = c.attribute("description")) v.description = decode_string(*a);
    if (const auto* a = c.attribute("deprecated"); a && engine_ == Engine::opentofu) {
        check_variable_deprecation(*a, b.label_ranges[0]);
    }
    if (const auto* a = c.attribute("type")) {
        v.type_expr = a->expr;
        decode_variable_type(*a, v);
    }
    v.has_type = v.type_expr || !ctx_.is_override;
    if (const auto* a = c.attribute("sensitive")) {
        if (auto d = decode_bool(*a)) v.sensitive = *d;
    }
    if (const auto* a = c.attribute("nullable")) {
        if (auto d = decode_bool(*a)) v.nullable = *d;
    }
    if (const auto* a = c.attribute("ephemeral")) {
        if (auto d = decode_bool(*a)) v.ephemeral = d->value.get<bool>();
    }
    if (const auto* a = c.attribute("const")) {
        if (auto d = decode_bool(*a)) {
            v.is_const = d->value.get<bool>();
            v.const_written = true;
        }
    }
    if (v.is_const && engine_ == Engine::terraform) {
        // Terraform v1.15: a const variable is known while loading, so
        // its value may be neither hidden nor left out of the plan.
        if (v.sensitive.value.get<bool>()) {
            ctx_.error(code::const_variable_cannot_be_sensitive, "Const variable cannot be sensitive",
                       "A variable that is marked as \"const\" cannot also be marked as \"sensitive\".", b.def_range);
        }
        if (v.ephemeral) {
            ctx_.error(code::const_variable_cannot_be_ephemeral, "Const variable cannot be ephemeral",
                       "A variable that is marked as \"const\" cannot also be marked as \"ephemeral\".", b.def_range);
        }
    }
    if (const auto* a = c.attribute("default")) {
        v.default_expr = a->expr;
        // The value as written stays when it does not convert; the
        // values are moved along rather than copied.
        cty::Value val = detail::static_value(ctx_, a->expr);
        if (v.type_expr) {
            auto conv = v.type_defaults && !val.is_null()
                            ? cty::convert(apply_type_defaults(*v.type_defaults, val), v.constraint_type)
                            : cty::convert(val, v.constraint_type);
            if (!conv.ok()) {
                ctx_.error(code::variable_default_type_mismatch, "Invalid default value for variable",
                           fmt::format("This default value is not compatible with the variable's type constraint: {}.",
                                       conv.error),
                           a->expr.range);
            } else {
                val = std::move(conv.value);
                if (engine_ == Engine::opentofu) {
                    warn_ignored_object_attributes(a->expr.native, a->expr.json, v.constraint_type);
                }
            }
        }
        if (!v.nullable.value.get<bool>() && val.is_null()) {
            ctx_.error(code::variable_default_not_nullable, "Invalid default value for variable",
                       "A null default value is not valid when nullable=false.", a->expr.range);
        }
        v.default_cty = std::move(val);
    }
    for (const auto& inner : c.blocks) {
        if (inner.type != "validation") continue;
        Check check = decode_check_rule(inner);
        if (ctx_.is_override) {
            ctx_.error(code::cant_override_validations, "Can't override validations",
                       "Override files cannot override variable validations.", inner.def_range);
        }
        if (check.condition) {
            bool refers_to_self = false;
            for (const auto* t : detail::expression_variables(ctx_, *check.condition)) {
                if (t->root == "var" && !t->steps.empty() && t->steps[0].kind == hcl::StepKind::attr &&
                    t->steps[0].name == v.name) {
                    refers_to_self = true;
                }
            }
            if (!refers_to_self) {
                ctx_.error(
                    code::invalid_variable_validation_condition, "Invalid variable validation condition",
                    fmt::format(
                        "The condition for variable \"{}\" must refer to var.{} in order to test incoming values.",
                        v.name, v.name),
                    check.condition->range);
            }
        }
        v.validations.push_back(check);
    }
}

void Decoder::decode_variable_type(const ContentAttr& a, Variable& v) {
    const Expression& e = a.expr;
    // Terraform 0.11 wrote type constraints in quotes.
    if (detail::is_native_quoted_string(e)) {
        const auto& lit = hcl::as<hcl::LiteralExpr>(*hcl::as<hcl::TemplateExpr>(*e.native).parts[0]);
        std::string_view s = lit.text;
        if (s == "string" || s == "list" || s == "map") {
            std::string detail =
                "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now "
                "deprecated and will be removed in a future version of Terraform. ";
            if (s == "string") {
                detail += "Remove the quotes around \"string\".";
            } else {
                detail += fmt::format(
                    "Remove the quotes around \"{}\" and write {}(string) instead to explicitly "
                    "indicate that the {} elements are strings.",
                    s, s, s);
            }
            ctx_.error(code::invalid_quoted_type_constraints, "Invalid quoted type constraints", detail, e.range);
        } else {
            ctx_.error(
                code::invalid_legacy_variable_type_hint, "Invalid legacy variable type hint",
                "To provide a full type expression, remove the surrounding quotes and give the type expression directly.",
                e.range);
        }
        v.constraint_type = cty::Type::dynamic();
        return;
    }
    std::string kw = detail::expr_keyword(ctx_, e);
    if (kw == "list" || kw == "map") {
        v.constraint_type = kw == "list" ? cty::Type::list(cty::Type::dynamic()) : cty::Type::map(cty::Type::dynamic());
        return;
    }
    const hcl::Expr* native = e.native;
    if (e.json) {
        if (!e.json->is_string()) {
            ctx_.error(code::invalid_type_specification, "Invalid type specification",
                       "A type specification is either a primitive type keyword (bool, number, string) or a complex "
                       "type constructor call, like list(string).",
                       e.range);
            v.constraint_type = cty::Type::dynamic();
            return;
        }
        native = detail::json_string_expr(ctx_, *e.json, false, *ctx_.diags);
    }
    std::optional<TypeConstraint> tc;
    if (e.native) {
        // Native syntax is remembered by its text (a type read from a
        // JSON string is not: its text is not the file's).
        const Range r = e.native->range;
        const std::string_view text = ctx_.file->text().substr(r.start.byte, r.end.byte - r.start.byte);
        tc = parse_type_constraint(*e.native, text, ctx_.file->path(), *ctx_.diags);
    } else if (native) {
        tc = parse_type_constraint(*native, ctx_.file->path(), *ctx_.diags);
    }
    if (!tc) {
        v.constraint_type = cty::Type::dynamic();
        return;
    }
    v.constraint_type = std::move(tc->type);
    v.type_defaults = std::move(tc->defaults);
}

void Decoder::decode_locals(const ContentBlock& b) {
    std::vector<ContentAttr> attrs = just_attributes(b);
    for (auto& a : attrs) {
        if (!detail::valid_identifier(a.name)) {
            ctx_.error(code::invalid_local_value_name, "Invalid local value name", bad_identifier_detail, a.name_range);
        }
        out_.locals.emplace_back(Local{std::string(a.name), a.expr}, Declared{a.name_range});
    }
}

void Decoder::decode_output(const ContentBlock& b) {
    Output& o = out_.outputs
                    .emplace_back(std::piecewise_construct, std::forward_as_tuple(),
                                  std::forward_as_tuple(Declared{b.def_range}))
                    .first;
    o.name = b.labels[0];
    o.origin = origin(b.origin);
    if (!detail::valid_identifier(o.name))
        ctx_.error(code::invalid_output_name, "Invalid output name", bad_identifier_detail, b.label_ranges[0]);
    Content c = detail::body_content(ctx_, b.body, schema::output, nullptr);
    if (const auto* a = c.attribute("description")) o.description = decode_string(*a);
    if (const auto* a = c.attribute("value")) o.value = a->expr;
    if (const auto* a = c.attribute("type")) {
        if (engine_ == Engine::terraform) {
            // Terraform v1.15: a type constraint as a variable's.
            Variable scratch;
            decode_variable_type(*a, scratch);
            o.type_expr = a->expr;
        } else {
            unsupported_argument(*a);
        }
    }
    if (const auto* a = c.attribute("sensitive")) {
        if (auto d = decode_bool(*a)) o.sensitive = *d;
    }
    if (const auto* a = c.attribute("depends_on")) o.depends_on = decode_depends_on(*a);
    if (const auto* a = c.attribute("deprecated"); a && engine_ == Engine::opentofu) check_deprecation_message(*a);
    for (const auto& inner : c.blocks) {
        if (inner.type == "precondition") {
            o.preconditions.push_back(decode_check_rule(inner));
        } else if (inner.type == "postcondition") {
            ctx_.error(code::postconditions_are_not_allowed, "Postconditions are not allowed",
                       "Output values can only have preconditions, not postconditions.", inner.type_range);
        }
    }
}

// OpenTofu warns about attributes of a variable default that the type
// constraint's object types do not declare: conversion drops them, so
// they are probably a mistake. Walks the default as written, alongside
// the type (objects, and the elements of maps, lists and sets).
void Decoder::warn_ignored_object_attributes(const hcl::Expr* native, const json::Value* js, const cty::Type& type) {
    while (native && native->kind == hcl::ExprKind::parentheses) native = hcl::as<hcl::ParenthesesExpr>(*native).inner;
    auto visit = [&](const std::string& name, Range name_range, const hcl::Expr* vn, const json::Value* vj) {
        if (type.is_object()) {
            if (!type.has_attribute(name)) {
                ctx_.warning(code::object_attribute_is_ignored, "Object attribute is ignored",
                             fmt::format("The object type for this variable does not declare an attribute named "
                                         "\"{}\", so this value will be discarded when the default is converted.",
                                         name),
                             name_range);
            } else {
                warn_ignored_object_attributes(vn, vj, type.attributes().find(name)->second);
            }
        } else if (type.is_map()) {
            warn_ignored_object_attributes(vn, vj, type.element());
        }
    };
    if (type.is_list() || type.is_set()) {
        if (native && native->kind == hcl::ExprKind::tuple) {
            for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(*native).items) {
                warn_ignored_object_attributes(item, nullptr, type.element());
            }
        } else if (js && js->kind == json::Kind::array) {
            for (const auto& item : js->items) warn_ignored_object_attributes(nullptr, &item, type.element());
        }
        return;
    }
    if (!type.is_object() && !type.is_map()) return;
    if (native && native->kind == hcl::ExprKind::object) {
        for (const auto& item : hcl::as<hcl::ObjectExpr>(*native).items) {
            const hcl::Expr* key = item.key;
            if (key->kind == hcl::ExprKind::object_key) key = hcl::as<hcl::ObjectKeyExpr>(*key).wrapped;
            std::string name;
            if (key->kind == hcl::ExprKind::scope_traversal && hcl::as<hcl::ScopeTraversalExpr>(*key).steps.empty()) {
                name = std::string(hcl::as<hcl::ScopeTraversalExpr>(*key).root);
            } else {
                cty::Value kv = detail::static_value(ctx_, Expression{ctx_.file, key->range, key, nullptr}, false);
                if (kv.is_null() || !kv.is_known() || !(kv.type() == cty::Type::string())) continue;
                name = kv.as_string();
            }
            visit(name, item.key->range, item.value, nullptr);
        }
    } else if (js && js->is_object()) {
        for (const auto& m : js->members) visit(m.name, m.name_range, nullptr, &m.value);
    }
}

// OpenTofu's `deprecated` argument (outputs, variables): a message for
// the module's callers, so it must be a non-empty string.
void Decoder::check_deprecation_message(const ContentAttr& a) {
    auto v = decode_typed(a.expr, cty::Type::string());
    if (v && !v->is_null() && v->is_known() && v->as_string().empty()) {
        ctx_.error(code::invalid_deprecated_value, "Invalid deprecated value",
                   "The deprecated argument must be a non-empty message telling callers what to do instead.",
                   a.expr.range);
    }
}

// OpenTofu's `deprecated` on a variable: the message shown to callers
// that still set it. Blank text (only white space) is rejected like an
// empty string, at the variable's name.
void Decoder::check_variable_deprecation(const ContentAttr& a, Range name_range) {
    auto v = decode_typed(a.expr, cty::Type::string());
    if (!v) return;
    if (v->as_string().find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
        ctx_.error(code::invalid_deprecated_value, "Invalid `deprecated` value",
                   "The \"deprecated\" argument must not be blank: it should tell the module's callers how to stop "
                   "using this variable.",
                   name_range);
    }
}

}  // namespace tfsift::config
