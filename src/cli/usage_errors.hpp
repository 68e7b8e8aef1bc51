// How tfsift answers a command line it cannot run: every message starts
// with "tfsift: error:", a mistyped subcommand or option gets "did you
// mean", and a command that needs a subcommand and got none (a bare
// `tfsift`) prints its help. All of these exit 2 (exit_status.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace tfsift::cli {

// Before parsing: the message for a word that stands where a subcommand
// must ("tfsift lnit", "tfsift debug prase") but names none; nullopt when
// there is no such word. `args` are the command line's words after the
// program name.
std::optional<std::string> unknown_subcommand_message(const CLI::App& app, const std::vector<std::string>& args);

// After the parser rejected the command line (or was asked for help or the
// version): prints what it has to say, on standard output for --help and
// --version, else on standard error, and returns the exit status (0 for
// help and version, 2 otherwise).
int report_parse_error(const CLI::App& app, const CLI::ParseError& error);

}  // namespace tfsift::cli
