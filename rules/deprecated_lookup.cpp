// deprecated-lookup: `lookup(map, key)` with no default, which is `map[key]`.
#include <optional>
#include <unordered_set>

#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

std::string_view text_of(const SourceFile& file, Range r) {
    return file.text().substr(r.start.byte, r.end.byte - r.start.byte);
}

// Whether `e` can take an index as it is written, without parentheses.
bool indexable_as_written(const hcl::Expr& e) {
    switch (e.kind) {
        case hcl::ExprKind::scope_traversal:
        case hcl::ExprKind::relative_traversal:
        case hcl::ExprKind::function_call:
        case hcl::ExprKind::index:
        case hcl::ExprKind::parentheses:
        case hcl::ExprKind::object:
        case hcl::ExprKind::tuple: return true;
        default: return false;
    }
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    // The calls written as object keys: there `map[key]` is a traversal of
    // more than one step, which Terraform rejects as an "Ambiguous attribute
    // key", so the index is written in parentheses. Modules have many keys
    // and few such calls: the set is made at the first call reported.
    std::optional<std::unordered_set<const hcl::Expr*>> keys;
    auto is_key = [&](const hcl::Expr& e) {
        if (!keys) {
            keys.emplace();
            for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::object_key)) {
                keys->insert(&*hcl::as<hcl::ObjectKeyExpr>(*node.expr).wrapped);
            }
        }
        return keys->count(&e) != 0;
    };
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::function_call)) {
        const written::WrittenExpression& root = index->root_of(node);
        if (root.site.from_json) continue;
        const auto& source = root.file->parsed->source;
        const hcl::Expr& e = *node.expr;
        const auto& call = hcl::as<hcl::FunctionCallExpr>(e);
        const std::string_view name = call.name;
        if ((name != "lookup" && name != "core::lookup") || call.args.size() != 2 || call.expand_final) continue;
        Finding f;
        f.rule_id = "deprecated-lookup";
        f.severity = Severity::warning;
        f.file = source;
        f.range = call.name_range();
        f.message = "lookup() with no default is deprecated: write the index, map[key]";
        const hcl::Expr& map = *call.args[0];
        const hcl::Expr& key = *call.args[1];
        const bool parenthesise = !indexable_as_written(map);
        std::string index_text = parenthesise ? "(" : "";
        index_text += text_of(*source, map.range);
        index_text += parenthesise ? ")[" : "[";
        index_text += text_of(*source, key.range);
        index_text += ']';
        if (is_key(e)) index_text = "(" + index_text + ")";
        Fix fix;
        fix.description = "Write the index instead of calling lookup";
        fix.edits.push_back({source, e.range, std::move(index_text)});
        f.fix = std::move(fix);
        sink.report(std::move(f));
    }
}

}  // namespace

Rule deprecated_lookup() {
    Rule r;
    r.id = "deprecated-lookup";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = true;
    r.doc.summary = "`lookup(map, key)` is called without a default value.";
    r.doc.what =
        "Reports each call of `lookup` with two arguments in native-syntax files. With a third argument (the "
        "default) `lookup` does something an index cannot, and is not reported. TFLint calls this "
        "`terraform_deprecated_lookup`.";
    r.doc.why =
        "The two-argument form is deprecated in Terraform's documentation: it fails on a missing key exactly as "
        "`map[key]` does, so the index says the same more plainly.";
    r.doc.failing_example = R"hcl(locals {
  ami = lookup(var.amis, var.region)
}
)hcl";
    r.doc.passing_example = R"hcl(locals {
  ami      = var.amis[var.region]
  fallback = lookup(var.amis, var.region, "ami-0000")
}
)hcl";
    r.doc.fix_safety =
        "Safe: `--fix` writes `map[key]` (with parentheses around the map when it is an operation), which gives "
        "the same value and the same error for a missing key. As an object key the index is parenthesised, "
        "`{ (var.m[\"k\"]) = 1 }`: a bare `var.m[\"k\"]` key is an error in Terraform (\"Ambiguous attribute "
        "key\").";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
