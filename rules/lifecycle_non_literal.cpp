// lifecycle-non-literal: the arguments of a `lifecycle` block are read
// before anything can be evaluated, so they must be written as literals.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/loader_reports.hpp"
#include "support/written_resources.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/json/value.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "lifecycle-non-literal";

bool is_bool_argument(std::string_view name) { return name == "create_before_destroy" || name == "prevent_destroy"; }

const hcl::Expr* unwrap_parentheses(const hcl::Expr* e) {
    while (e && e->kind == hcl::ExprKind::parentheses) e = hcl::as<hcl::ParenthesesExpr>(*e).inner;
    return e;
}

bool is_literal_bool(const config::Expression& e) {
    if (e.json) return e.json->kind == json::Kind::boolean;
    if (!e.native || e.native->kind != hcl::ExprKind::literal) return false;
    return hcl::as<hcl::LiteralExpr>(*e.native).literal == hcl::LiteralKind::boolean;
}

// An item of ignore_changes that reads like a reference to a variable or a
// local value rather than the name of one of the resource's attributes (in
// JSON syntax, a string holding one).
std::optional<std::string_view> reference_root(const config::Expression& item) {
    if (item.json) {
        if (!item.json->is_string()) return std::nullopt;
        const std::string& text = item.json->text;
        if (text.starts_with("var.")) return "var";
        if (text.starts_with("local.")) return "local";
        return std::nullopt;
    }
    const hcl::Expr* e = unwrap_parentheses(item.native);
    if (!e || e->kind != hcl::ExprKind::scope_traversal) return std::nullopt;
    const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
    if (t.root == "var" && !t.steps.empty()) return "var";
    if (t.root == "local" && !t.steps.empty()) return "local";
    return std::nullopt;
}

// The items of a list written as a tuple or a JSON array.
std::vector<config::Expression> list_items(const config::Expression& list) {
    std::vector<config::Expression> out;
    if (list.native && list.native->kind == hcl::ExprKind::tuple) {
        for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(*list.native).items) {
            out.push_back(config::Expression{list.file, item->range, item, nullptr});
        }
    } else if (list.json && list.json->is_array()) {
        for (const auto& item : list.json->items)
            out.push_back(config::Expression{list.file, item.range, nullptr, &item});
    }
    return out;
}

void check(const LintContext& ctx, FindingSink& sink) {
    for (const config::ModuleFile& mf : ctx.files()) {
        const SourceFile* file = mf.parsed->source.get();
        const auto blocks = written::resource_blocks(*mf.parsed);
        for (const auto& r : *blocks) {
            if (r.mode != config::ResourceMode::managed) continue;  // data sources may not set these at all
            if (r.lifecycles.empty()) continue;
            const std::string label = written::block_label(r.mode, r.type, r.name);
            for (const auto& lc : r.lifecycles) {
                for (const auto& m : lc.members) {
                    if (m.is_block || !m.expr || loader_reported_within(ctx, file, m.expr->range)) continue;
                    if (is_bool_argument(m.name) && !is_literal_bool(*m.expr)) {
                        sink.report(Finding{std::string(rule_id),
                                            Severity::error,
                                            fmt::format("{}: `{}` must be the literal true or false, not `{}`", label,
                                                        m.name, m.expr->source_text()),
                                            ctx.shared_source(file),
                                            m.expr->range,
                                            {},
                                            std::nullopt});
                    } else if (m.name == "ignore_changes") {
                        for (const config::Expression& item : list_items(*m.expr)) {
                            auto root = reference_root(item);
                            if (!root) continue;
                            sink.report(Finding{
                                std::string(rule_id),
                                Severity::error,
                                fmt::format("{}: ignore_changes lists attribute names of the resource; `{}` is not "
                                            "evaluated as a {} reference",
                                            label, item.source_text(), *root == "var" ? "variable" : "local value"),
                                ctx.shared_source(file),
                                item.range,
                                {},
                                std::nullopt});
                        }
                    }
                }
            }
        }
    }
}

}  // namespace

Rule lifecycle_non_literal() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "An argument of a `lifecycle` block is not written as a literal value.";
    r.doc.what =
        "Checks the arguments of every resource's `lifecycle` block: `create_before_destroy` and `prevent_destroy` "
        "must be the literal `true` or `false`; `ignore_changes` must be a list of the resource's attribute names "
        "(or the keyword `all`); `replace_triggered_by` must be a list of references. Variables, local values, "
        "function calls and other expressions are rejected, including constant ones such as `!false` or the "
        "string `\"true\"`. An `ignore_changes` item such as `var.tags` or `local.ignored` is reported too: it is "
        "read as an attribute path named `var`, never as the variable's value.";
    r.doc.why =
        "Terraform decodes `create_before_destroy` and `prevent_destroy` while it loads the module, with no "
        "variables or functions available, so `init`, `validate` and `plan` stop on a reference or a function "
        "call there; `ignore_changes` and `replace_triggered_by` are taken as references and never evaluated. A "
        "constant expression such as `!false` or `\"true\"` does load (it converts to a bool); it is reported "
        "because the literal keeps the setting obvious to a reader and to every tool. OpenTofu v1.12 evaluates "
        "`prevent_destroy` at plan time and accepts references to the module's values there; this rule still "
        "asks for a literal.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "web" {
  lifecycle {
    create_before_destroy = var.rolling_update
    ignore_changes        = local.ignored_attributes
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "web" {
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags, user_data]
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: the literal to write depends on what the expression meant.";
    r.check = check;
    r.claimed_codes = {code::lifecycle_value_not_literal};
    return r;
}

}  // namespace tfsift::lint::rules
