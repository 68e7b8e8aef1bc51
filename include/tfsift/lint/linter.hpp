// The rule engine: runs the active rules over one module and filters their
// findings through the settings and the inline ignore comments.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfsift/config/root_variables.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/rule.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

// Rule choices of the command line, applied after the settings file.
struct RuleSelection {
    std::vector<std::string> enable;
    std::vector<std::string> disable;
    std::vector<std::string> only;  // when non-empty, exactly these rules run
    std::optional<Preset> preset;   // --preset: beats the settings' `preset`
};

// A rule as it will run: enabled or not, with its effective severity.
struct ActiveRule {
    const Rule* rule = nullptr;
    bool enabled = false;
    std::optional<Severity> severity_override;  // from the settings
};

// Every rule that can run under `settings`: the catalogue's (the built-in
// rules), then one rule per [[policy]].
std::vector<Rule> rules_for(const Settings& settings, std::span<const Rule> catalogue);

// Decides which rules run: the preset (the selection's, else the settings',
// else recommended: each rule's enabled_by_default; strict: every rule), then
// the settings' [rules], then --only, --enable, --disable. Unknown ids in `selection` are returned in
// `unknown` (a usage error for the caller).
std::vector<ActiveRule> activate_rules(const std::vector<Rule>& rules, const Settings& settings,
                                       const RuleSelection& selection, std::vector<std::string>& unknown);

// The active rules of one settings object, with the two lookups
// lint_module makes in them (a rule by id; the rule that claims a loader
// diagnostic's code), built once and shared by every module linted under
// those settings. Not copied or moved: the lookups point into the list.
class RuleSet {
public:
    explicit RuleSet(std::vector<ActiveRule> rules);
    RuleSet(const RuleSet&) = delete;
    RuleSet& operator=(const RuleSet&) = delete;

    [[nodiscard]] const std::vector<ActiveRule>& rules() const { return rules_; }
    // The rule with id `id` (of a repeated id, the last), or null.
    [[nodiscard]] const ActiveRule* find(std::string_view id) const;
    // The rule that claims the loader's diagnostic code `code` (of several,
    // the first), or null.
    [[nodiscard]] const Rule* claimant(std::string_view code) const;

private:
    std::vector<ActiveRule> rules_;
    std::vector<std::pair<std::string_view, const ActiveRule*>> by_id_;  // sorted by id
    std::vector<std::pair<std::string_view, const Rule*>> claimed_by_;   // sorted by code
};

// Loads `module_dir` as the root of its module tree the way `tfsift lint`
// does: files excluded by the settings are left out, files are named
// `module_dir/NAME` (just NAME when module_dir is "."), and files, module
// directories, the lock and the state file must resolve inside
// `trusted_root` (default: the repository root of `module_dir`, else
// `module_dir` itself) unless the settings allow otherwise. `overlays`
// stand in for files on disk (ReadPolicy::overlays). `cache` keeps parses
// between loads (TreeOptions::cache); `scan_id` names the scan the load is
// part of (TreeOptions::scan_id), and `listings` what it listed
// (TreeOptions::listings). `resolver` gives the directories of remote
// module calls (lint/module_resolution.hpp); null: they are not followed.
// `root_variables` are what the user gives the root module's variables
// (TreeOptions::root_variables).
// `budget` (may be null) is the run's budget the configuration files are
// charged to (ReadPolicy::budget).
config::LoadedTree load_for_lint(const std::string& module_dir, Engine engine, const Settings& settings,
                                 const std::string& trusted_root = {},
                                 std::shared_ptr<const FileOverlays> overlays = nullptr,
                                 std::shared_ptr<config::LoadCache> cache = nullptr, std::uint64_t scan_id = 0,
                                 const ScanListings* listings = nullptr,
                                 std::shared_ptr<config::ModuleSourceResolver> resolver = nullptr,
                                 config::RootVariableInputs root_variables = {},
                                 std::shared_ptr<ReadBudget> budget = nullptr);

// Lints one module: reports the loader's diagnostics (each under the rule
// that claims it, `syntax-error` for parse errors, `invalid-configuration`
// for the rest), runs every enabled rule with a check, applies severity
// overrides, per-path ignores and inline ignores, then adds `unused-ignore`
// notices. The result is sorted, without duplicates.
Findings lint_module(const LintContext& context, const RuleSet& rules, const Settings& settings);
// The same with a RuleSet made for this one module.
Findings lint_module(const LintContext& context, const std::vector<ActiveRule>& rules, const Settings& settings);

}  // namespace tfsift::lint
