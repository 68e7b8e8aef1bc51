// deprecated-interpolation: a string that holds nothing but one
// interpolation, "${var.name}", the form Terraform 0.11 needed.
#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

std::string_view text_of(const SourceFile& file, Range r) {
    return file.text().substr(r.start.byte, r.end.byte - r.start.byte);
}

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::template_wrap)) {
        const written::WrittenExpression& root = index->root_of(node);
        if (root.site.from_json) continue;
        const auto& source = root.file->parsed->source;
        const hcl::Expr& e = *node.expr;
        // Only a quoted string: a heredoc holding one interpolation is a
        // deliberate multi-line layout.
        if (text_of(*source, e.range).substr(0, 1) != "\"") continue;
        const hcl::Expr& inner = *hcl::as<hcl::TemplateWrapExpr>(e).wrapped;
        Finding f;
        f.rule_id = "deprecated-interpolation";
        f.severity = Severity::warning;
        f.file = source;
        f.range = e.range;
        f.message = "interpolation-only expressions are deprecated: write the expression without \"${ }\"";
        Fix fix;
        fix.description = "Remove the quotes and the interpolation markers";
        fix.edits.push_back({source, e.range, std::string(text_of(*source, inner.range))});
        f.fix = std::move(fix);
        sink.report(std::move(f));
    }
}

}  // namespace

Rule deprecated_interpolation() {
    Rule r;
    r.id = "deprecated-interpolation";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = true;
    r.doc.summary = "A quoted string holds nothing but one interpolation: `\"${var.name}\"`.";
    r.doc.what =
        "Reports each quoted string in a native-syntax file whose whole content is one `${ ... }` "
        "interpolation, anywhere in an expression. Strings with other text around the interpolation, heredocs "
        "and `.tf.json` files (where every expression is written as a string) are not reported. TFLint calls "
        "this `terraform_deprecated_interpolation`.";
    r.doc.why =
        "Terraform 0.11 and earlier needed the quotes; since 0.12 an expression is written as it is. The quoted "
        "form is noise, and it converts the value to a string where it can (a number or a bool becomes a "
        "string; a list or map stays what it is), which hides the value's real type from readers.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "web" {
  ami = "${var.ami}"
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "web" {
  ami = var.ami
}
)hcl";
    r.doc.fix_safety =
        "Safe: `--fix` replaces the string with the expression inside it. The value is the same, except where "
        "the string converted a number or a bool to a string and the receiving argument then converts it back, "
        "which Terraform does on its own.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
