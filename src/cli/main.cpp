// tfsift: a static-analysis and policy linter for Terraform and OpenTofu.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <exception>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{"tfsift: fast static analysis for Terraform and OpenTofu configurations", "tfsift"};
    app.set_version_flag("--version", std::string("tfsift ") + TFSIFT_VERSION);
    app.require_subcommand(1);

    tfsift::cli::LintOptions lint;
    auto* lint_cmd = app.add_subcommand("lint", "Check the modules in the given directories (default: .)");
    lint_cmd->add_option("paths", lint.paths, "Directories or files to lint");

    auto* debug_cmd = app.add_subcommand("debug", "Inspect tfsift's internal models");
    debug_cmd->require_subcommand(1);
    std::vector<std::string> parse_files;
    auto* parse_cmd = debug_cmd->add_subcommand("parse", "Print the parse dump of HCL files (see docs/parse-dump.md)");
    parse_cmd->add_option("files", parse_files, "HCL native-syntax files")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }

    try {
        if (*lint_cmd) return tfsift::cli::run_lint(lint);
        if (*parse_cmd) return tfsift::cli::run_debug_parse(parse_files);
    } catch (const std::exception& e) {
        fmt::print(stderr, "tfsift: internal error: {}\n", e.what());
        return 2;
    }
    return 2;
}
