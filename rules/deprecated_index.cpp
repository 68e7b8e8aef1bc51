// deprecated-index: the legacy index forms `list.0` and `list.*.attr`.
#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

std::string_view text_of(const SourceFile& file, Range r) {
    return file.text().substr(r.start.byte, r.end.byte - r.start.byte);
}

void legacy_steps(std::span<const hcl::TraversalStep> steps, const std::shared_ptr<const SourceFile>& source,
                  FindingSink& sink) {
    for (const auto& step : steps) {
        if (!step.legacy_index) continue;
        const std::string_view written = text_of(*source, step.range);
        Finding f;
        f.rule_id = "deprecated-index";
        f.severity = Severity::warning;
        f.file = source;
        f.range = step.range;
        f.message = "the legacy index form \"" + std::string(written) + "\" is deprecated: write an index in brackets";
        if (written.size() > 1 && written.front() == '.') {
            Fix fix;
            fix.description = "Write the index in brackets";
            fix.edits.push_back({source, step.range, "[" + std::string(written.substr(1)) + "]"});
            f.fix = std::move(fix);
        }
        sink.report(std::move(f));
    }
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    // Native-syntax files only: a JSON string's ranges are not the file's.
    auto source_of = [&index](const written::WrittenNode& node) -> const std::shared_ptr<const SourceFile>* {
        const written::WrittenExpression& root = index->root_of(node);
        return root.site.from_json ? nullptr : &root.file->parsed->source;
    };
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::scope_traversal)) {
        if (const auto* source = source_of(node)) {
            legacy_steps(hcl::as<hcl::ScopeTraversalExpr>(*node.expr).steps, *source, sink);
        }
    }
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::relative_traversal)) {
        if (const auto* source = source_of(node)) {
            legacy_steps(hcl::as<hcl::RelativeTraversalExpr>(*node.expr).steps, *source, sink);
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
        "the same, read the same as other languages, and the `.*` splat differs from `[*]` in a surprising way: "
        "it stops at the first index after it, so `x.*.a[0]` takes the first `a` of each element's list, not "
        "the first element.";
    r.doc.failing_example = R"hcl(output "first_id" {
  value = aws_instance.web.0.id
}
)hcl";
    r.doc.passing_example = R"hcl(output "first_id" {
  value = aws_instance.web[0].id
}
)hcl";
    r.doc.fix_safety =
        "Safe for `.0`: `--fix` writes `[0]`, which means the same. Not fixable for `.*`, whose meaning differs "
        "from `[*]` when an index follows it.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
