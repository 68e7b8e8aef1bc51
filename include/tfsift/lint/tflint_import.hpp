// Moving from TFLint: which tfsift rules stand for a TFLint rule (for
// `# tflint-ignore:` comments, which tfsift honours for mapped rules), and
// turning a `.tflint.hcl` into `.tfsift.toml` settings (`tfsift init
// --from-tflint`). The same table is docs/migrating-from-tflint.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tfsift/lint/rule.hpp"

namespace tfsift::lint {

struct TflintRuleMapping {
    std::string_view tflint_rule;                // e.g. terraform_module_version
    std::vector<std::string_view> tfsift_rules;  // empty: no tfsift rule checks this yet
};

// Every TFLint rule of the terraform ruleset, with its tfsift rules.
const std::vector<TflintRuleMapping>& tflint_rule_mappings();

// The tfsift rules that stand for `tflint_rule` (empty when none does).
std::vector<std::string_view> tfsift_rules_for_tflint(std::string_view tflint_rule);

// What `tfsift rule NAME` shows: the rule whose id is NAME, or when NAME is
// a TFLint rule's name, the tfsift rules that check what it checks (none
// when tfsift has no equivalent).
struct RuleLookup {
    std::vector<const Rule*> rules;        // into the `rules` looked in
    std::string tflint_rule;               // NAME, when it is a TFLint rule's name and no tfsift id
    std::vector<std::string> known_names;  // when nothing matched: every id and TFLint name, for "did you mean"
};
RuleLookup look_up_rule(std::string_view name, const std::vector<Rule>& rules);

struct TflintImport {
    std::string toml;                // the settings, ready to write as .tfsift.toml
    std::vector<std::string> notes;  // what could not be carried over, one sentence each
    std::string error;               // "LINE:COLUMN: ..." when the file is not HCL
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Reads a `.tflint.hcl` (its text; `path` names it): `rule "NAME" { enabled =
// BOOL }` blocks become `[rules]` entries for the mapped tfsift rules, the
// terraform plugin's `preset = "all"` becomes `preset = "strict"`; everything
// else (other plugins, `config`, rule options) is named in `notes`.
TflintImport import_tflint_config(const std::string& path, std::string_view text);

}  // namespace tfsift::lint
