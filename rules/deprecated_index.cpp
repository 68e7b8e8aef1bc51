// deprecated-index: the legacy index forms `list.0` and `list.*.attr`.
#include <unordered_set>

#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

std::string_view text_of(const SourceFile& file, Range r) {
    return file.text().substr(r.start.byte, r.end.byte - r.start.byte);
}

// `captured`: the steps follow an attribute-only splat (`x.*.a.0`), which
// applies a legacy `.0` to each element; `[0]` there would apply to the
// splat's result instead (`[for o in x : o.a][0]`), so no fix is offered.
void legacy_steps(std::span<const hcl::TraversalStep> steps, const std::shared_ptr<const SourceFile>& source,
                  FindingSink& sink, bool captured = false) {
    for (const auto& step : steps) {
        if (!step.legacy_index) continue;
        const std::string_view written = text_of(*source, step.range);
        Finding f;
        f.rule_id = "deprecated-index";
        f.severity = Severity::warning;
        f.file = source;
        f.range = step.range;
        f.message = "the legacy index form \"" + std::string(written) + "\" is deprecated: write an index in brackets";
        if (written.size() > 1 && written.front() == '.' && !captured) {
            Fix fix;
            fix.description = "Write the index in brackets";
            fix.edits.push_back({source, step.range, "[" + std::string(written.substr(1)) + "]"});
            f.fix = std::move(fix);
        }
        sink.report(std::move(f));
    }
}

// Whether any step is a legacy index: nearly none is, and this is asked of
// every traversal, inline, before anything else is looked at.
bool any_legacy(std::span<const hcl::TraversalStep> steps) {
    for (const auto& step : steps) {
        if (step.legacy_index) return true;
    }
    return false;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    // Native-syntax files only: a JSON string's ranges are not the file's.
    auto source_of = [&index](const written::WrittenNode& node) -> const std::shared_ptr<const SourceFile>* {
        const written::WrittenExpression& root = index->root_of(node);
        return root.site.from_json ? nullptr : &root.file->parsed->source;
    };
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::scope_traversal)) {
        const auto& steps = hcl::as<hcl::ScopeTraversalExpr>(*node.expr).steps;
        if (!any_legacy(steps)) continue;
        if (const auto* source = source_of(node)) legacy_steps(steps, *source, sink);
    }
    // The traversals an attribute-only splat applies to each element.
    std::unordered_set<const hcl::Expr*> attribute_only;
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::splat)) {
        const auto* source = source_of(node);
        const auto& splat = hcl::as<hcl::SplatExpr>(*node.expr);
        if (source != nullptr && text_of(**source, splat.marker_range) == ".*") attribute_only.insert(&*splat.each);
    }
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::relative_traversal)) {
        const auto& steps = hcl::as<hcl::RelativeTraversalExpr>(*node.expr).steps;
        if (!any_legacy(steps)) continue;
        if (const auto* source = source_of(node)) {
            legacy_steps(steps, *source, sink, attribute_only.count(node.expr) != 0);
        }
    }
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::splat)) {
        const auto* source = source_of(node);
        if (source == nullptr) continue;
        const auto& splat = hcl::as<hcl::SplatExpr>(*node.expr);
        if (text_of(**source, splat.marker_range) != ".*") continue;
        Finding f;
        f.rule_id = "deprecated-index";
        f.severity = Severity::warning;
        f.file = *source;
        f.range = splat.marker_range;
        f.message = "the legacy splat form \".*\" is deprecated: write \"[*]\"";
        sink.report(std::move(f));
    }
}

}  // namespace

Rule deprecated_index() {
    Rule r;
    r.id = "deprecated-index";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = true;
    r.doc.summary = "An index is written in the legacy dot form (`list.0`) or a splat as `.*`.";
    r.doc.what =
        "Reports each index written after a dot (`aws_instance.web.0.id`) and each attribute-only splat written "
        "`.*` (`aws_instance.web.*.id`) in native-syntax files. TFLint calls this "
        "`terraform_deprecated_index`.";
    r.doc.why =
        "Both forms are kept only for compatibility with Terraform 0.11. The bracket forms (`[0]`, `[*]`) say "
        "the same and read the same as other languages. The `.*` splat also differs from `[*]` in a surprising "
        "way: it stops at the first bracketed index after it, which then applies to the splat's result, so "
        "`x.*.a[0]` is the first element's `a` (`[for o in x : o.a][0]`), where `x[*].a[0]` takes the first "
        "item of every element's `a`.";
    r.doc.failing_example = R"hcl(output "first_id" {
  value = aws_instance.web.0.id
}
)hcl";
    r.doc.passing_example = R"hcl(output "first_id" {
  value = aws_instance.web[0].id
}
)hcl";
    r.doc.fix_safety =
        "Safe for `.0`: `--fix` writes `[0]`, which means the same, except after an attribute-only splat "
        "(`x.*.a.0`), where the splat applies `.0` to each element and `[0]` would index its result: no fix there. "
        "Not fixable for `.*`, whose meaning differs from `[*]` when an index follows it.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
