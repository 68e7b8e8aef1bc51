// unused-ignore: a `# tfsift-ignore` comment that suppresses nothing. The
// engine reports it (src/lint/linter.cpp) once every other rule has run,
// because only then is it known which comments were used.
#include "support/factories.hpp"

namespace tfsift::lint::rules {

Rule unused_ignore() {
    Rule r;
    r.id = std::string(unused_ignore_rule_id);
    r.default_severity = Severity::notice;
    r.category = RuleCategory::style;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = true;
    r.doc.summary = "An inline ignore comment suppresses no finding.";
    r.doc.what =
        "Each rule id of a `# tfsift-ignore: ID` comment (which covers its own line and the next) and of a "
        "`# tfsift-ignore-file: ID` comment (which covers the file) must suppress at least one finding of an "
        "enabled rule. An id that names no rule is reported too. Ids of rules that are switched off are not "
        "reported, since their findings cannot occur.";
    r.doc.why =
        "An ignore comment that outlived the problem it silenced hides the next, real finding of that rule on "
        "the same line, and misleads readers about the code. Removing it keeps the ignores honest.";
    r.doc.failing_example = R"hcl(# tfsift-ignore: provider-version-missing -- pinned by the platform team
variable "region" {
  type = string
}
)hcl";
    r.doc.passing_example = R"hcl(variable "region" {
  type = string
}
)hcl";
    r.doc.fix_safety =
        "Fixable (safe) when every id of the comment is unused: `--fix` deletes the comment (and its line when "
        "the comment stands alone). A comment with some ids still in use must be edited by hand.";
    // No check: the engine produces these findings itself.
    return r;
}

}  // namespace tfsift::lint::rules
