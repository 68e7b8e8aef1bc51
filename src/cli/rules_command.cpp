// `tfsift rules` (the catalogue) and `tfsift rule` (one rule's documentation).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <filesystem>
#include <fstream>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {

void add_rule_options(CLI::App& cmd, RuleDocOptions& o) {
    cmd.add_option("id", o.id, "The rule id");
    cmd.add_option("--all-markdown", o.all_markdown_dir, "Write every rule's documentation to DIR/<id>.md");
}

int run_rules() {
    std::size_t width = 2;
    for (const auto& r : lint::builtin_rules()) width = std::max(width, r.id.size());
    fmt::print("{:<{}}  {:<8}  {:<7}  {:<7}  {}\n", "id", width, "severity", "default", "fixable", "summary");
    for (const auto& r : lint::builtin_rules()) {
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
    const lint::Rule* r = lint::find_builtin_rule(o.id);
    if (r == nullptr) {
        fmt::print(stderr, "tfsift: unknown rule {} (see `tfsift rules`)\n", o.id);
        return exit_failure;
    }
    fmt::print("{}", lint::rule_markdown(*r));
    return 0;
}

}  // namespace tfsift::cli
