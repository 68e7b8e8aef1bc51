// `tfsift completion bash|zsh|fish` and `tfsift man`: the shell completions
// and the manual page, written from the command table of the application
// that parsed the command line (command_table.hpp).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace tfsift::cli {

struct DocumentationCommands {
    CLI::App* completion = nullptr;
    CLI::App* man = nullptr;
    std::string shell;
};

// Adds both subcommands to `app`; call it after every other subcommand, so
// that the generated files list them all.
void add_documentation_commands(CLI::App& app, DocumentationCommands& commands);

// When one of the two subcommands was given, runs it and returns its exit
// status; otherwise -1.
int run_documentation_command(const CLI::App& app, const DocumentationCommands& commands);

}  // namespace tfsift::cli
