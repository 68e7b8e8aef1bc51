#include "decoder.hpp"

#include <algorithm>
#include <span>

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

// gohcl.DecodeExpression into a Go string / bool.
std::optional<cty::Value> Decoder::decode_typed(const Expression& e, const cty::Type& want) {
    const std::size_t before = ctx_.diags->size();
    cty::Value v = detail::static_value(ctx_, e);
    for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
        if ((*ctx_.diags)[i].severity == Severity::error) return std::nullopt;
    }
    Range start{e.range.start, e.range.start};
    auto conv = cty::convert(v, want);
    if (!conv.ok()) {
        ctx_.error(code::unsuitable_value_type, "Unsuitable value type", "Unsuitable value: " + conv.error, start);
        return std::nullopt;
    }
    if (conv.value.is_null()) {
        ctx_.error(code::unsuitable_value_type, "Unsuitable value type", "Unsuitable value: value must not be null",
                   start);
        return std::nullopt;
    }
    if (!conv.value.is_known()) {
        ctx_.error(code::unsuitable_value_type, "Unsuitable value type", "Unsuitable value: value must be known",
                   start);
        return std::nullopt;
    }
    return conv.value;
}

std::vector<ContentAttr> Decoder::just_attributes(const ContentBlock& b) {
    std::vector<ContentAttr> attrs;
    if (b.body.native) {
        for (const auto& a : b.body.native->attributes) {
            attrs.push_back(ContentAttr{a.name, a.name_range(), Expression{ctx_.file, a.expr->range, a.expr, nullptr}});
        }
        for (const auto& nb : b.body.native->blocks) {
            ctx_.error(code::unexpected_block, fmt::format("Unexpected \"{}\" block", nb.type),
                       "Blocks are not allowed here.", nb.type_range());
        }
    } else if (b.body.json) {
        for (const auto& m : b.body.json->members) {
            if (m.name == "//") continue;
            attrs.push_back(ContentAttr{m.name, m.name_range, Expression{ctx_.file, m.value.range, nullptr, &m.value}});
        }
    }
    return attrs;
}

std::optional<std::vector<detail::MapPair>> Decoder::expr_map_quietly(const Expression& e, bool* had_errors) {
    Diagnostics scratch;
    Diagnostics* saved = ctx_.diags;
    ctx_.diags = &scratch;
    auto kvs = detail::expr_map(ctx_, e);
    ctx_.diags = saved;
    if (had_errors != nullptr) *had_errors = has_errors(scratch);
    return kvs;
}

std::optional<DecodedValue> Decoder::decode_string(const ContentAttr& a) {
    // A literal string cannot fail to decode: its value is its text (in
    // NFC, as cty keeps strings), with no evaluation and no conversion.
    if (a.expr.native) {
        if (auto text = detail::literal_template_text(*a.expr.native)) {
            return DecodedValue{cty::normalize_nfc(*text), a.expr.origin()};
        }
    }
    auto v = decode_typed(a.expr, cty::Type::string());
    if (!v) return std::nullopt;
    return DecodedValue{v->as_string(), a.expr.origin()};
}

std::optional<DecodedValue> Decoder::decode_bool(const ContentAttr& a) {
    auto v = decode_typed(a.expr, cty::Type::boolean());
    if (!v) return std::nullopt;
    return DecodedValue{v->as_bool(), a.expr.origin()};
}

// decodeVersionConstraint: a string (or null) in go-version's syntax.
std::optional<std::vector<std::string>> Decoder::decode_version_constraint(const ContentAttr& a) {
    const std::size_t before = ctx_.diags->size();
    cty::Value v = detail::static_value(ctx_, a.expr);
    for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
        if ((*ctx_.diags)[i].severity == Severity::error) return std::nullopt;
    }
    auto conv = cty::convert(v, cty::Type::string());
    if (!conv.ok()) {
        ctx_.error(code::invalid_version_constraint, "Invalid version constraint",
                   fmt::format("A string value is required for {}.", a.name), a.expr.range);
        return std::nullopt;
    }
    if (conv.value.is_null()) return std::vector<std::string>{};
    if (!conv.value.is_known()) {
        ctx_.error(code::invalid_version_constraint, "Invalid version constraint", "Version constraints must be known.",
                   a.expr.range);
        return std::nullopt;
    }
    const std::string& text = conv.value.as_string();
    if (!valid_constraint_syntax(text)) {
        ctx_.error(code::invalid_version_constraint, "Invalid version constraint",
                   "This string does not use correct version constraint syntax.", a.expr.range);
        return std::nullopt;
    }
    return split_version_constraints(text);
}

// hashicorp/go-version's constraint grammar: comma-separated
// `[op] [v]N[.N]*[-pre][+meta]`.
bool Decoder::valid_constraint_syntax(std::string_view s) {
    auto parts = split_version_constraints(s);
    if (parts.empty()) return false;
    for (const auto& p : parts) {
        std::string_view v = p;
        for (std::string_view op : {"~>", ">=", "<=", "=>", "=<", "!=", ">", "<", "="}) {
            if (v.starts_with(op)) {
                v.remove_prefix(op.size());
                break;
            }
        }
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        if (!v.empty() && v.front() == 'v') v.remove_prefix(1);
        std::size_t i = 0;
        bool digits = false;
        bool need_digit = true;
        while (i < v.size() && (std::isdigit(static_cast<unsigned char>(v[i])) || v[i] == '.')) {
            if (v[i] == '.') {
                if (need_digit) return false;
                need_digit = true;
            } else {
                digits = true;
                need_digit = false;
            }
            ++i;
        }
        if (!digits || need_digit) return false;
        for (; i < v.size(); ++i) {
            char c = v[i];
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '+' || c == '~'))
                return false;
        }
    }
    return true;
}

void Decoder::check_provider_name_normalized(std::string_view name, Range where) {
    std::string norm;
    std::string err;
    if (!parse_provider_part(name, norm, err)) {
        ctx_.error(code::invalid_provider_local_name, "Invalid provider local name",
                   fmt::format("{} is an invalid provider local name: {}", name, err), where);
        return;
    }
    if (norm != name) {
        ctx_.error(
            code::invalid_provider_local_name, "Invalid provider local name",
            fmt::format("Provider names must be normalized. Replace \"{}\" with \"{}\" to fix this error.", name, norm),
            where);
    }
}

std::vector<Traversal> Decoder::decode_depends_on(const ContentAttr& a) {
    std::vector<Traversal> out;
    auto items = detail::expr_list(ctx_, a.expr);
    if (!items) return out;
    for (const auto& e : *items) {
        const auto* t = detail::traversal_for_expr(ctx_, e, false, true, false);
        if (t == nullptr) continue;
        // Terraform (since v1.14, with its action blocks) refuses an action
        // in these lists when it reads them, and leaves the item out.
        if (engine_ == Engine::terraform && t->root == "action") {
            ctx_.error(code::invalid_depends_on_action_reference, "Invalid depends_on Action Reference",
                       fmt::format("{} cannot name an action; name a resource or a data source instead.", a.name),
                       e.range);
            continue;
        }
        out.push_back(detail::make_traversal(ctx_, *t, e));
    }
    return out;
}

// decodeProviderConfigRef: "aws" or "aws.alias".
std::optional<std::string> Decoder::decode_provider_ref(const Expression& e, std::string_view arg_name,
                                                        Range* name_range) {
    const std::size_t before = ctx_.diags->size();
    const hcl::ScopeTraversalExpr* t = detail::traversal_for_expr(ctx_, e, false, true, false);
    if (!t || t->steps.size() > 1) {
        // Only our own errors, not the generic traversal ones.
        ctx_.diags->resize(before);
        if (detail::is_native_quoted_string(e) && !t) {
            ctx_.error(code::invalid_provider_configuration_reference, "Invalid provider configuration reference",
                       "A provider configuration reference must not be given in quotes.", e.range);
        } else {
            ctx_.error(
                code::invalid_provider_configuration_reference, "Invalid provider configuration reference",
                fmt::format(
                    "The {} argument requires a provider type name, optionally followed by a period and then a configuration alias.",
                    arg_name),
                e.range);
        }
        return std::nullopt;
    }
    const std::size_t mid = ctx_.diags->size();
    check_provider_name_normalized(t->root, t->root_range());
    for (std::size_t i = mid; i < ctx_.diags->size(); ++i) {
        if ((*ctx_.diags)[i].severity == Severity::error) return std::nullopt;
    }
    if (name_range) *name_range = t->root_range();
    std::string out(t->root);
    if (!t->steps.empty()) {
        const auto& step = t->steps[0];
        if (step.kind != hcl::StepKind::attr) {
            ctx_.error(
                code::invalid_provider_configuration_reference, "Invalid provider configuration reference",
                "Provider name must either stand alone or be followed by a period and then a configuration alias.",
                step.range);
            return std::nullopt;
        }
        out += ".";
        out += step.name;
    }
    return out;
}

Check Decoder::decode_check_rule(const ContentBlock& b) {
    Check c;
    c.origin = origin(b.origin);
    Content content = detail::body_content(ctx_, b.body, schema::validation, nullptr);
    if (const auto* a = content.attribute("condition")) {
        c.condition = a->expr;
        if (b.type != "validation" && detail::expression_variables(ctx_, a->expr).empty()) {
            ctx_.error(b.type == "precondition"    ? code::invalid_precondition_expression
                       : b.type == "postcondition" ? code::invalid_postcondition_expression
                                                   : code::invalid_assert_expression,
                       fmt::format("Invalid {} expression", b.type),
                       "The condition expression must refer to at least one object from elsewhere in the "
                       "configuration, or else its result would not be checking anything.",
                       a->expr.range);
        }
    }
    if (const auto* a = content.attribute("error_message")) c.error_message = a->expr;
    if (ctx_.is_override && b.type != "validation") {
        ctx_.error(b.type == "precondition" ? code::cant_override_precondition_blocks
                                            : code::cant_override_postcondition_blocks,
                   fmt::format("Can't override {} blocks", b.type),
                   fmt::format("Override files cannot override \"{}\" blocks.", b.type), b.def_range);
    }
    return c;
}

void Decoder::duplicate_escape(const ContentBlock& b, std::string_view what) {
    ctx_.error(code::duplicate_escaping_block, "Duplicate escaping block",
               fmt::format("The special block type \"_\" can be used to force particular arguments to be "
                           "interpreted as {}-type-specific rather than as meta-arguments, but each {} block can have "
                           "only one such block.",
                           what, what),
               b.def_range);
}

// What hcl says of an argument its schema does not name, for the
// arguments only one of the two engines knows.
void Decoder::unsupported_argument(const ContentAttr& a, std::string_view code) {
    ctx_.error(code, "Unsupported argument", fmt::format("An argument named \"{}\" is not expected here.", a.name),
               a.name_range);
}

// A reference's resource address ("aws_instance.web", "data.x.y"), or "".
std::string Decoder::referenced_resource(const hcl::ScopeTraversalExpr& t) {
    static constexpr std::string_view not_resources[] = {"var",  "local", "module",   "path",     "terraform", "count",
                                                         "each", "self",  "resource", "template", "iterator"};
    for (auto n : not_resources) {
        if (t.root == n) return {};
    }
    if (t.root == "data") {
        if (t.steps.size() < 2 || t.steps[0].kind != hcl::StepKind::attr || t.steps[1].kind != hcl::StepKind::attr)
            return {};
        return fmt::format("data.{}.{}", t.steps[0].name, t.steps[1].name);
    }
    if (t.steps.empty() || t.steps[0].kind != hcl::StepKind::attr) return {};
    return fmt::format("{}.{}", t.root, t.steps[0].name);
}

void Decoder::validate_self_references(const Check& c, std::string_view check_type, const std::string& addr) {
    for (const auto* e : {&c.condition, &c.error_message}) {
        if (!*e) continue;
        for (const auto* t : detail::expression_variables(ctx_, **e)) {
            if (referenced_resource(*t) == addr) {
                ctx_.error(code::invalid_self_reference, fmt::format("Invalid reference in {}", check_type),
                           fmt::format("Configuration for {} may not refer to itself.", addr), (*e)->range);
                break;
            }
        }
    }
}

// Destroy-time provisioners may only refer to self, count.index, each.key.
void Decoder::only_self_refs(const Body& body) {
    for (const auto& a : body.arguments) {
        for (const auto* t : detail::expression_variables(ctx_, a.expr)) {
            bool valid = t->root == "self" || t->root == "path" || t->root == "terraform";
            if (t->steps.size() == 1 && t->steps[0].kind == hcl::StepKind::attr) {
                if (t->root == "count" && t->steps[0].name == "index") valid = true;
                if (t->root == "each" && t->steps[0].name == "key") valid = true;
            }
            if (!valid) {
                ctx_.error(code::invalid_reference_from_destroy_provisioner,
                           "Invalid reference from destroy provisioner",
                           "Destroy-time provisioners and their connection configurations may only reference "
                           "attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n"
                           "References to other resources during the destroy phase can cause dependency cycles and "
                           "interact poorly with create_before_destroy.",
                           a.expr.range);
            }
        }
    }
}

// A JSON body's undecided properties read as plain arguments (provisioner
// and connection bodies have no nested blocks).
Body Decoder::settled(Body body) {
    if (!body.undecided.empty()) resolve_json_body(body, {});
    return body;
}

}  // namespace tfsift::config
