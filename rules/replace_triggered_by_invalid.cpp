// replace-triggered-by-invalid: every item of replace_triggered_by is a
// reference to a managed resource of the module, an instance of one, or an
// attribute of an instance.
#include <set>

#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/loader_reports.hpp"
#include "support/reference_names.hpp"
#include "support/written_resources.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "replace-triggered-by-invalid";

// An index key Terraform can resolve when it plans: a literal, count.index
// or each.key.
bool valid_key(const hcl::Expr* e) {
    if (e->kind == hcl::ExprKind::literal) return true;
    if (e->kind == hcl::ExprKind::template_) {
        const auto& t = hcl::as<hcl::TemplateExpr>(*e);
        return t.parts.size() == 1 && t.parts[0]->kind == hcl::ExprKind::literal;
    }
    if (e->kind != hcl::ExprKind::scope_traversal) return false;
    const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
    if (t.steps.size() != 1 || t.steps[0].kind != hcl::StepKind::attr) return false;
    return (t.root == "count" && t.steps[0].name == "index") || (t.root == "each" && t.steps[0].name == "key");
}

// Terraform turns each item into a reference when it plans, accepting only
// a traversal, indexed (`[count.index]`, `[each.key]`, a literal) and
// followed by attribute or index steps. Function calls, splats,
// conditionals and templates are rejected then.
bool reference_shaped(const hcl::Expr* e) {
    switch (e->kind) {
        case hcl::ExprKind::scope_traversal: return true;
        case hcl::ExprKind::relative_traversal: return reference_shaped(hcl::as<hcl::RelativeTraversalExpr>(*e).source);
        case hcl::ExprKind::index: {
            const auto& i = hcl::as<hcl::IndexExpr>(*e);
            return reference_shaped(i.collection) && valid_key(i.key);
        }
        default: return false;
    }
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto& resources = ctx.module().module->resources;
    for (const config::ModuleFile& mf : ctx.files()) {
        const SourceFile* file = mf.parsed->source.get();
        const auto blocks = written::resource_blocks(*mf.parsed);
        for (const auto& r : *blocks) {
            if (r.mode != config::ResourceMode::managed || r.lifecycles.empty()) continue;
            const std::string label = written::block_label(r.mode, r.type, r.name);
            for (const auto& lc : r.lifecycles) {
                const auto* m = lc.argument("replace_triggered_by");
                if (!m || !m->expr) continue;
                std::vector<config::Expression> items;
                if (m->expr->native && m->expr->native->kind == hcl::ExprKind::tuple) {
                    for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(*m->expr->native).items) {
                        items.push_back(config::Expression{file, item->range, item, nullptr});
                    }
                } else if (m->expr->json && m->expr->json->is_array()) {
                    for (const auto& item : m->expr->json->items)
                        items.push_back(config::Expression{file, item.range, nullptr, &item});
                }
                for (const auto& item : items) {
                    if (loader_reported_within(ctx, file, item.range)) continue;
                    JsonStringExpression parsed;
                    const hcl::Expr* e = item.native;
                    if (item.json) {
                        if (!item.json->is_string()) continue;  // the loader reports it
                        parsed = parse_json_string(*item.json, false);
                        e = parsed.expr;
                        if (!e) continue;
                    }
                    auto report = [&](std::string message) {
                        sink.report(Finding{std::string(rule_id),
                                            Severity::error,
                                            fmt::format("{}: {}", label, message),
                                            ctx.shared_source(file),
                                            item.range,
                                            {},
                                            std::nullopt});
                    };
                    if (!reference_shaped(e)) {
                        report(
                            "a replace_triggered_by item must be a plain reference to a resource, an instance or "
                            "an attribute (no function calls, splats or other expressions)");
                        continue;
                    }
                    for (const ReferenceName& ref : [&] {
                             config::Expression native{file, e->range, e, nullptr};
                             return expression_references(native);
                         }()) {
                        if (ref.front() == "count" || ref.front() == "each" || ref.size() < 2) continue;
                        std::string key = ref[0] + "." + ref[1];
                        if (resources.count(key) == 0) {
                            static const std::set<std::string> not_resources = {"data", "var",       "local", "module",
                                                                                "path", "terraform", "self"};
                            if (not_resources.count(ref[0]) == 0) {
                                // Terraform's own words for a resource it cannot find.
                                sink.report(Finding{
                                    std::string(rule_id),
                                    Severity::error,
                                    fmt::format("Undeclared resource in replace_triggered_by: Resource {}.{} refers "
                                                "to {} in replace_triggered_by, but it is not declared in this module.",
                                                r.type, r.name, key),
                                    ctx.shared_source(file),
                                    item.range,
                                    {},
                                    std::nullopt});
                                continue;
                            }
                            report(
                                fmt::format("replace_triggered_by refers to `{}`, which is not a managed resource "
                                            "of this module",
                                            key));
                        }
                    }
                }
            }
        }
    }
}

}  // namespace

Rule replace_triggered_by_invalid() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "An item of `replace_triggered_by` is not a reference to a managed resource.";
    r.doc.what =
        "Each item of `replace_triggered_by` must refer to exactly one managed resource of the module: the "
        "resource (`aws_ecs_service.svc`), one instance (`aws_ecs_service.svc[count.index]`, `...[each.key]`, "
        "`...[0]`) or an attribute of an instance (`aws_ecs_service.svc.id`). Reported: references to input "
        "variables, local values, data sources, module outputs, `self` or `path`; literals and items that refer "
        "to nothing; items with more than one resource; `count` and `each` attributes other than `count.index` "
        "and `each.key`; items that are not plain references (function calls, splats, conditionals); and "
        "resources the module does not declare.";
    r.doc.why =
        "Terraform decides on a replacement from the planned action of each referenced resource. Plain values "
        "have no planned action, so Terraform rejects them; route such a value through a `terraform_data` "
        "resource and reference that instead.";
    r.doc.failing_example = R"hcl(resource "aws_appautoscaling_target" "ecs" {
  lifecycle {
    replace_triggered_by = [var.service_revision]
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "terraform_data" "service_revision" {
  input = var.service_revision
}

resource "aws_appautoscaling_target" "ecs" {
  lifecycle {
    replace_triggered_by = [terraform_data.service_revision]
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    r.claimed_codes = {
        code::invalid_replace_triggered_by_expression,
        code::invalid_each_reference_in_replace_triggered_by_expression,
        code::invalid_count_reference_in_replace_triggered_by_expression,
        code::invalid_reference_in_replace_triggered_by_expression,
    };
    return r;
}

}  // namespace tfsift::lint::rules
