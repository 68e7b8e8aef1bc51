// syntax-error: a configuration file that HCL cannot parse.
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/registry.hpp"

namespace tfsift::lint::rules {
namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    for (const hcl::File& file : ctx.files) {
        for (const Diagnostic& d : file.diagnostics) {
            Finding f;
            f.rule_id = std::string(syntax_error_rule_id);
            f.severity = d.severity;
            f.message = d.detail.empty() ? d.summary : d.summary + ": " + d.detail;
            f.file = file.source;
            // A diagnostic without a subject concerns the whole file: point at its start.
            f.range = d.subject.value_or(Range{});
            if (d.context && d.subject && *d.context != *d.subject) {
                f.related.push_back({file.source, *d.context, "in this construct"});
            }
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule syntax_error() {
    Rule r;
    r.id = std::string(syntax_error_rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A configuration file is not valid HCL native syntax.";
    r.doc.what =
        "Every diagnostic of the HCL parser: unbalanced braces, a missing newline after an argument, an invalid "
        "expression, an unterminated string or heredoc, invalid UTF-8. The finding points at the token where "
        "parsing failed.";
    r.doc.why =
        "Terraform and OpenTofu refuse to load a module with a file they cannot parse, so `init`, `validate` and "
        "`plan` all fail. Every other rule only sees what the parser could recover.";
    r.doc.failing_example =
        "resource \"aws_instance\" \"web\" {\n"
        "  ami = \"ami-123\" instance_type = \"t3.micro\"\n"
        "}\n";
    r.doc.passing_example =
        "resource \"aws_instance\" \"web\" {\n"
        "  ami           = \"ami-123\"\n"
        "  instance_type = \"t3.micro\"\n"
        "}\n";
    r.doc.fix_safety = "Not fixable: only the author knows what the text was meant to say.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
