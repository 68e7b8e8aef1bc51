// syntax-error: a configuration file that cannot be parsed.
#include "support/factories.hpp"

namespace tfsift::lint::rules {

Rule syntax_error() {
    Rule r;
    r.id = std::string(syntax_error_rule_id);
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A configuration file is not valid HCL native syntax or JSON.";
    r.doc.what =
        "Every diagnostic of the HCL parser, and of the JSON parser for `.tf.json` files: unbalanced braces, a "
        "missing newline after an argument, an invalid expression, an unterminated string or heredoc, invalid "
        "UTF-8, a file that cannot be read. The finding points at the token where parsing failed.";
    r.doc.why =
        "Terraform and OpenTofu refuse to load a module with a file they cannot parse, so `init`, `validate` and "
        "`plan` all fail. Every other rule only sees what the parser could recover.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "web" {
  ami = "ami-123" instance_type = "t3.micro"
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = "t3.micro"
}
)hcl";
    r.doc.fix_safety = "Not fixable: only the author knows what the text was meant to say.";
    // The engine reports it from the loader's parse diagnostics.
    return r;
}

}  // namespace tfsift::lint::rules
