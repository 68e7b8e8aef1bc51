// `tfsift rules` (the catalogue) and `tfsift rule` (one rule's documentation).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/rule_suggestion.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/lint/tflint_import.hpp"
#include "tfsift/report/report.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {

void add_rules_options(CLI::App& cmd, RulesOptions& o) {
    cmd.add_option("--format,-f", o.format, "text (a table) or json")->check(CLI::IsMember({"text", "json"}));
}

void add_rule_options(CLI::App& cmd, RuleDocOptions& o) {
    cmd.add_option("id", o.id, "The rule id, or a TFLint rule's name (terraform_unused_declarations)")
        ->type_name("RULE");
    cmd.add_option("--all-markdown", o.all_markdown_dir, "Write every rule's documentation to DIR/<id>.md");
}

namespace {

// The built-in rules and the [[policy]] rules of the settings that apply to
// the working directory; false after printing the settings' errors.
bool catalogue(std::vector<lint::Rule>& out) {
    const std::string file = lint::find_settings_file(".");
    if (file.empty()) {
        out = lint::rules_for(lint::Settings{}, lint::builtin_rules());
        return true;
    }
    const lint::SettingsResult loaded = lint::load_settings(file, false, lint::builtin_rules());
    for (const auto& e : loaded.warnings) {
        fmt::print(stderr, "{}\n", report::escape_control_characters(e.to_string()));
    }
    for (const auto& e : loaded.errors) {
        fmt::print(stderr, "{}\n", report::escape_control_characters(e.to_string()));
    }
    if (!loaded.ok()) return false;
    out = lint::rules_for(loaded.settings, lint::builtin_rules());
    return true;
}

}  // namespace

int run_rules(const RulesOptions& options) {
    std::vector<lint::Rule> rules;
    if (!catalogue(rules)) return exit_failure;
    if (options.format == "json") {
        std::ostringstream out;
        report::write_rules_json(rules, out);
        fmt::print("{}", out.str());
        return exit_clean;
    }
    std::size_t width = 2;
    for (const auto& r : rules) width = std::max(width, r.id.size());
    fmt::print("{:<{}}  {:<8}  {:<7}  {:<7}  {}\n", "id", width, "severity", "default", "fixable", "summary");
    for (const auto& r : rules) {
        fmt::print("{:<{}}  {:<8}  {:<7}  {:<7}  {}\n", r.id, width, to_string(r.default_severity),
                   r.enabled_by_default ? "on" : "off", r.fixable ? "yes" : "no", r.doc.summary);
    }
    return 0;
}

int run_rule(const RuleDocOptions& o) {
    if (!o.all_markdown_dir.empty()) {
        std::error_code ec;
        fs::create_directories(o.all_markdown_dir, ec);
        for (const auto& r : lint::builtin_rules()) {
            fs::path path = fs::path(o.all_markdown_dir) / (r.id + ".md");
            std::ofstream out(path, std::ios::binary);
            out << lint::rule_markdown(r);
            if (!out) {
                fmt::print(stderr, "tfsift: cannot write {}\n", path.string());
                return exit_failure;
            }
        }
        return 0;
    }
    if (o.id.empty()) {
        fmt::print(stderr, "tfsift: rule: give a rule id (see `tfsift rules`) or --all-markdown DIR\n");
        return exit_failure;
    }
    std::vector<lint::Rule> rules;
    if (!catalogue(rules)) return exit_failure;
    const lint::RuleLookup found = lint::look_up_rule(o.id, rules);
    const std::string shown = report::escape_control_characters(o.id);
    if (found.tflint_rule.empty() && found.rules.empty()) {
        fmt::print(stderr, "tfsift: error: unknown rule {}{} (see `tfsift rules`)\n", shown,
                   lint::did_you_mean(o.id, found.known_names));
        return exit_failure;
    }
    if (!found.tflint_rule.empty()) {
        if (found.rules.empty()) {
            fmt::print(stderr,
                       "tfsift: TFLint's {} has no equivalent in tfsift (docs/migrating-from-tflint.md maps every "
                       "TFLint rule)\n",
                       shown);
            return exit_findings;
        }
        std::string ids;
        for (const lint::Rule* r : found.rules) ids += (ids.empty() ? "`" : ", `") + r->id + "`";
        fmt::print("> TFLint's `{}` is checked by tfsift's {}.\n\n", shown, ids);
    }
    for (std::size_t i = 0; i < found.rules.size(); ++i) {
        fmt::print("{}{}", i > 0 ? "\n" : "", lint::rule_markdown(*found.rules[i]));
    }
    return exit_clean;
}

}  // namespace tfsift::cli
