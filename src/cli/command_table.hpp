// The command table: tfsift's subcommands, options and their descriptions as
// plain values, read from the CLI11 application that parses the command line.
// The shell completions and the manual page are written from this table, so
// they list exactly the options the parser accepts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace tfsift::cli {

// The type name (CLI::Option::type_name) of a value that is a rule id.
inline constexpr std::string_view rule_value_type = "RULE";

struct OptionEntry {
    std::vector<std::string> long_names;   // "--format"
    std::vector<std::string> short_names;  // "-f"
    std::string name;                      // a positional argument's name ("paths")
    std::string description;
    std::string value_type;            // CLI11's type name without validators: TEXT, UINT
    std::vector<std::string> choices;  // the values an IsMember check allows, in order
    // The values completion offers: the choices, or for a RULE value the
    // built-in rule ids (not the only values allowed: policies, TFLint names).
    std::vector<std::string> completions;
    bool takes_value = false;
    bool repeatable = false;  // may be given several times / takes several values
    bool required = false;
};

struct CommandEntry {
    std::string name;               // "parse"
    std::vector<std::string> path;  // {"tfsift", "debug", "parse"}
    std::string description;
    std::vector<OptionEntry> options;  // named options and flags, in declaration order
    std::vector<OptionEntry> positionals;
    std::vector<CommandEntry> subcommands;
    bool requires_subcommand = false;
};

// The table of `app` and its visible subcommands (hidden options and
// subcommands, those without a group, are left out).
CommandEntry describe_command_line(const CLI::App& app);

// "tfsift debug parse"
std::string command_path(const CommandEntry& command);

// Every command of the table, the root first, parents before children.
std::vector<const CommandEntry*> all_commands(const CommandEntry& root);

}  // namespace tfsift::cli
