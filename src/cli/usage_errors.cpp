// Usage errors in tfsift's own words (usage_errors.hpp).
#include "cli/usage_errors.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <iostream>
#include <string_view>

#include "cli/exit_status.hpp"
#include "tfsift/lint/rule_suggestion.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::cli {

namespace {

// "tfsift lint" for the lint subcommand.
std::string command_path(const CLI::App& command) {
    std::string path = command.get_name();
    for (const CLI::App* up = command.get_parent(); up != nullptr; up = up->get_parent()) {
        path = up->get_name() + " " + path;
    }
    return path;
}

// The subcommand the parser had reached: the last one selected at each level.
const CLI::App& deepest_command(const CLI::App& app) {
    const CLI::App* command = &app;
    for (;;) {
        const auto selected = command->get_subcommands();
        if (selected.empty()) return *command;
        command = selected.back();
    }
}

// The subcommands a user may type (hidden ones have no group).
std::vector<std::string> visible_subcommands(const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::App* sub : command.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); })) {
        names.push_back(sub->get_name());
    }
    return names;
}

// Every option name `command` accepts, its parents' included ("--help").
std::vector<std::string> option_names(const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::App* c = &command; c != nullptr; c = c->get_parent()) {
        for (const CLI::Option* option : c->get_options()) {
            for (const auto& name : option->get_lnames()) names.push_back("--" + name);
            for (const auto& name : option->get_snames()) names.push_back("-" + name);
        }
    }
    return names;
}

std::string suggestion(std::string_view unknown, const std::vector<std::string>& known) {
    const std::string nearest = lint::nearest_name(unknown, known);
    return nearest.empty() ? std::string() : fmt::format(" (did you mean `{}`?)", nearest);
}

// The words CLI11 names in "The following argument(s) was/were not
// expected: a b".
std::vector<std::string> unexpected_words(std::string_view message) {
    std::vector<std::string> words;
    const auto colon = message.find(": ");
    if (colon == std::string_view::npos) return words;
    message.remove_prefix(colon + 2);
    while (!message.empty()) {
        const auto space = message.find(' ');
        if (space != 0) words.emplace_back(message.substr(0, space));
        if (space == std::string_view::npos) break;
        message.remove_prefix(space + 1);
    }
    return words;
}

void print_error(std::string_view text, const CLI::App& command) {
    fmt::print(stderr, "tfsift: error: {}\nRun `{} --help` for usage.\n", report::escape_control_characters(text),
               command_path(command));
}

}  // namespace

std::optional<std::string> unknown_subcommand_message(const CLI::App& app, const std::vector<std::string>& args) {
    const CLI::App* command = &app;
    for (const std::string& word : args) {
        if (word == "--") return std::nullopt;
        // The commands that need a subcommand take no option with a value.
        if (word.starts_with("-")) continue;
        const CLI::App* sub = nullptr;
        for (const CLI::App* candidate : command->get_subcommands([](const CLI::App*) { return true; })) {
            if (candidate->check_name(word)) sub = candidate;
        }
        if (sub != nullptr) {
            command = sub;
            continue;
        }
        if (command->get_require_subcommand_min() == 0) return std::nullopt;  // a positional argument
        const std::string under = command == &app ? std::string() : " for `" + command_path(*command) + "`";
        return fmt::format("unknown command `{}`{}{}", word, under, suggestion(word, visible_subcommands(*command)));
    }
    return std::nullopt;
}

int report_parse_error(const CLI::App& app, const CLI::ParseError& error) {
    // By type: CLI11 gives some errors the name of the subcommand instead.
    if (dynamic_cast<const CLI::CallForHelp*>(&error) != nullptr ||
        dynamic_cast<const CLI::CallForAllHelp*>(&error) != nullptr ||
        dynamic_cast<const CLI::CallForVersion*>(&error) != nullptr) {
        app.exit(error, std::cout, std::cerr);
        return exit_clean;
    }
    const CLI::App& command = deepest_command(app);
    // A command that does nothing by itself (a bare `tfsift`, `tfsift
    // debug`): its help, as Ruff and Cargo print it, and a usage status.
    if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr && command.get_require_subcommand_min() > 0 &&
        command.get_subcommands().empty()) {
        std::cerr << command.help();
        return exit_failure;
    }
    if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
        const std::vector<std::string> known = option_names(command);
        for (const std::string& word : unexpected_words(error.what())) {
            if (word.starts_with("-") && word.size() > 1) {
                const std::string option = word.substr(0, word.find('='));
                fmt::print(stderr, "tfsift: error: unknown option `{}` for `{}`{}\n",
                           report::escape_control_characters(option), command_path(command), suggestion(option, known));
            } else {
                fmt::print(stderr, "tfsift: error: unexpected argument `{}` for `{}`\n",
                           report::escape_control_characters(word), command_path(command));
            }
        }
        fmt::print(stderr, "Run `{} --help` for usage.\n", command_path(command));
        return exit_failure;
    }
    print_error(error.what(), command);
    return exit_failure;
}

}  // namespace tfsift::cli
