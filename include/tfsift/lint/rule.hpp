// A rule: its identity, its documentation and its check.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/lint/finding.hpp"

namespace tfsift::lint {

struct LintContext;

// A diagnostic of Terraform's own loader as a rule's claim sees it: its code
// (diagnostic_codes.hpp) and where it points. Its wording is left out on
// purpose: it follows Terraform and may change, so claims never depend on it.
struct ClaimedDiagnostic {
    std::string_view code;
    Severity severity = Severity::error;
    bool tree_phase = false;                   // made while following module calls
    std::shared_ptr<const SourceFile> source;  // null when it points into no file
    std::string_view filename;                 // as the loader named it
    std::optional<Range> subject;
};

// The documentation every rule carries, in a fixed form. The same text is
// printed by `tfsift rule ID`, written to docs/rules/ID.md and embedded in
// SARIF reports as the rule's help.
struct RuleDoc {
    std::string summary;          // one sentence: what the rule checks (SARIF shortDescription)
    std::string what;             // what it checks, in full
    std::string why;              // why it matters
    std::string failing_example;  // HCL that the rule reports
    std::string passing_example;  // HCL that it accepts
    std::string fix_safety;       // whether and how `--fix` repairs it
};

// Receives the findings of one check.
class FindingSink {
public:
    explicit FindingSink(Findings& out) : out_(&out) {}
    void report(Finding finding) { out_->push_back(std::move(finding)); }

private:
    Findings* out_;
};

using RuleCheck = std::function<void(const LintContext&, FindingSink&)>;

// What kind of problem a rule finds. Reports group and filter by it (SARIF
// tags, Code Climate categories).
enum class RuleCategory : std::uint8_t {
    correctness,      // Terraform/OpenTofu rejects the configuration or does what the author did not mean
    supply_chain,     // which provider or module code runs: versions, sources, the lock file's hashes
    maintainability,  // works today, breaks on a likely change (an upgrade, a new caller)
    style,            // conventions only
    policy,           // a project's own [[policy]] table
};

// How often a rule's findings are true problems (SARIF precision, which code
// scanning sorts by): very_high for the rules that restate a check Terraform
// itself makes, lower where a rule guesses at intent.
enum class RulePrecision : std::uint8_t { very_high, high, medium, low };

std::string_view to_string(RuleCategory c);
std::string_view to_string(RulePrecision p);

struct Rule {
    std::string id;  // stable kebab-case id
    Severity default_severity = Severity::warning;
    bool enabled_by_default = true;
    bool fixable = false;  // some of its findings carry a Fix
    RuleDoc doc;
    RuleCategory category = RuleCategory::correctness;
    RulePrecision precision = RulePrecision::high;
    // For supply-chain rules, how much a finding weakens the guarantee that
    // the code Terraform runs is the code the author chose, on the 0.1-10.0
    // scale of SARIF's security-severity (over 9.0 critical, 7.0 high, 4.0
    // medium, below low); 0 for every other rule.
    double security_severity = 0;
    // Null for the rules whose findings the engine itself produces
    // (`unused-ignore` needs every other rule's findings first).
    RuleCheck check;
    bool is_policy = false;  // defined by a [[policy]] table of .tfsift.toml
    // The codes of Terraform's own loader diagnostics (see
    // config::load_module_tree) that this rule reports, rather than
    // `invalid-configuration`: when the loader already rejects what the rule
    // is about, the rule reports the loader's diagnostic under its own id. A
    // code has at most one claiming rule.
    std::vector<std::string_view> claimed_codes;
    // Narrows the claim when set: a diagnostic with a claimed code for which
    // it returns false stays `invalid-configuration`.
    std::function<bool(const ClaimedDiagnostic&)> claim_only_if;
};

// Ids of the rules the engine itself reports.
inline constexpr std::string_view syntax_error_rule_id = "syntax-error";
inline constexpr std::string_view unused_ignore_rule_id = "unused-ignore";
inline constexpr std::string_view invalid_configuration_rule_id = "invalid-configuration";

// The Markdown documentation of a rule (what `tfsift rule ID` prints).
std::string rule_markdown(const Rule& rule);

// The plain-text form of the same documentation (SARIF help.text).
std::string rule_plain_text(const Rule& rule);

// Where tfsift's own documentation is published, for the links reports
// carry. Nothing is assumed: the home page is set when tfsift is built
// (CMake -DTFSIFT_HOMEPAGE=URL, the web address of a repository that holds
// this tree), and without one no report links anywhere.
struct ProjectLinks {
    std::string homepage;  // "https://example.org/tfsift", no final '/'; empty: no links
    std::string version;   // the release whose pages links name, as the tag v<version>
};

// `path` (relative to the repository root) at the release tag:
// "HOMEPAGE/blob/vVERSION/PATH"; empty without a home page.
std::string documentation_uri(const ProjectLinks& links, std::string_view path);

// Where a rule's documentation is published (docs/rules/ID.md, or for a
// [[policy]] rule docs/policies.md); empty without a home page.
std::string rule_help_uri(const Rule& rule, const ProjectLinks& links);

}  // namespace tfsift::lint
