// duplicate-map-key: one key written twice in an object constructor.
#include <map>
#include <optional>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

// The key an object item names, when it is written as a constant: a bare
// name, a quoted string without interpolation, or a number or bool literal
// (keys are strings, so `1` and "1" are the same key).
std::optional<std::string> constant_key(const hcl::Expr& key_expr) {
    const auto& key = hcl::as<hcl::ObjectKeyExpr>(key_expr);
    const hcl::Expr* e = key.wrapped;
    if (e == nullptr) return std::nullopt;
    if (e->kind == hcl::ExprKind::scope_traversal) {
        const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
        if (key.force_non_literal || !t.steps.empty()) return std::nullopt;
        return std::string(t.root);
    }
    if (e->kind == hcl::ExprKind::template_) {
        const auto& tmpl = hcl::as<hcl::TemplateExpr>(*e);
        if (tmpl.parts.empty()) return std::string();
        if (tmpl.parts.size() != 1 || tmpl.parts[0]->kind != hcl::ExprKind::literal) return std::nullopt;
        return std::string(hcl::as<hcl::LiteralExpr>(*tmpl.parts[0]).text);
    }
    if (e->kind == hcl::ExprKind::literal) {
        const auto& lit = hcl::as<hcl::LiteralExpr>(*e);
        if (lit.literal == hcl::LiteralKind::number) return hcl::render_number(lit.text);
        if (lit.literal == hcl::LiteralKind::boolean || lit.literal == hcl::LiteralKind::string)
            return std::string(lit.text);
    }
    return std::nullopt;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::object)) {
        const written::WrittenExpression& root = index->root_of(node);
        if (root.site.from_json) continue;
        const auto& source = root.file->parsed->source;
        std::map<std::string, Range> seen;
        for (const auto& item : hcl::as<hcl::ObjectExpr>(*node.expr).items) {
            auto key = constant_key(*item.key);
            if (!key) continue;
            auto [it, inserted] = seen.emplace(*key, item.key->range);
            if (inserted) continue;
            Finding f;
            f.rule_id = "duplicate-map-key";
            f.severity = Severity::warning;
            f.file = source;
            f.range = item.key->range;
            f.message = fmt::format("the key \"{}\" is set twice in this object: only the last value is kept", *key);
            f.related.push_back({source, it->second, "first set here"});
            it->second = item.key->range;
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule duplicate_map_key() {
    Rule r;
    r.id = "duplicate-map-key";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "An object constructor (`{ ... }`) sets the same key twice.";
    r.doc.what =
        "Reports each item of an object or map constructor in a native-syntax file whose key is a constant "
        "(a bare name, a quoted string without interpolation, a number or a bool) already set by an earlier "
        "item of the same constructor, with the earlier one as a related location. Keys computed by "
        "expressions are not compared. TFLint calls this `terraform_map_duplicate_keys`.";
    r.doc.why =
        "Terraform keeps the last value without a word, so the first one is dead text that readers will trust: "
        "usually a copy-and-paste slip where a different key was meant.";
    r.doc.failing_example = R"hcl(locals {
  tags = {
    Name = "web"
    Name = "api"
  }
}
)hcl";
    r.doc.passing_example = R"hcl(locals {
  tags = {
    Name    = "web"
    Service = "api"
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: decide which value, and which key, was meant.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
