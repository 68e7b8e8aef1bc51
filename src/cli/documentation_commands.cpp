// `tfsift completion` and `tfsift man` (documentation_commands.hpp).
#include "cli/documentation_commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/command_table.hpp"
#include "cli/exit_status.hpp"
#include "cli/man_page.hpp"
#include "cli/shell_completion.hpp"

namespace tfsift::cli {

void add_documentation_commands(CLI::App& app, DocumentationCommands& commands) {
    commands.completion = app.add_subcommand(
        "completion",
        "Print the shell completion script for bash, zsh or fish (e.g. source <(tfsift completion bash))");
    std::vector<std::string> shells(std::begin(completion_shells), std::end(completion_shells));
    commands.completion->add_option("shell", commands.shell, "bash, zsh or fish")
        ->required()
        ->check(CLI::IsMember(shells));
    commands.man = app.add_subcommand("man", "Print the tfsift(1) manual page (roff; view it with man -l -)");
}

int run_documentation_command(const CLI::App& app, const DocumentationCommands& commands) {
    if (commands.completion != nullptr && *commands.completion) {
        const auto script = completion_script(describe_command_line(app), commands.shell);
        if (!script) {
            fmt::print(stderr, "tfsift: no completion script for shell '{}' (bash, zsh, fish)\n", commands.shell);
            return exit_failure;
        }
        fmt::print("{}", *script);
        return exit_clean;
    }
    if (commands.man != nullptr && *commands.man) {
        fmt::print("{}", man_page(describe_command_line(app), TFSIFT_VERSION));
        return exit_clean;
    }
    return -1;
}

}  // namespace tfsift::cli
