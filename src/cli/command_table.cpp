// Reads the CLI11 application into the command table (command_table.hpp).
#include "cli/command_table.hpp"

#include <CLI/CLI.hpp>

#include <string_view>

#include "tfsift/rules/catalogue.hpp"

namespace tfsift::cli {

namespace {

// CLI11 describes an IsMember check as "{a,b,c}" after the type name
// ("TEXT:{a,b,c}"); the choices are the words between the braces.
std::vector<std::string> choices_of(std::string_view type_name) {
    std::vector<std::string> choices;
    const auto open = type_name.find('{');
    const auto close = type_name.find('}', open == std::string_view::npos ? 0 : open);
    if (open == std::string_view::npos || close == std::string_view::npos) return choices;
    std::string_view list = type_name.substr(open + 1, close - open - 1);
    while (!list.empty()) {
        const auto comma = list.find(',');
        std::string_view word = list.substr(0, comma);
        while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
        if (!word.empty()) choices.emplace_back(word);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return choices;
}

OptionEntry describe_option(const CLI::Option& option) {
    OptionEntry entry;
    for (const auto& name : option.get_lnames()) entry.long_names.push_back("--" + name);
    for (const auto& name : option.get_snames()) entry.short_names.push_back("-" + name);
    if (option.get_positional()) entry.name = option.get_name(true, false);
    entry.description = option.get_description();
    entry.takes_value = option.get_expected_max() > 0;  // flags expect no value
    if (entry.takes_value) {
        const std::string type_name = option.get_type_name();
        entry.value_type = type_name.substr(0, type_name.find(':'));
        entry.choices = choices_of(type_name);
        entry.completions = entry.choices;
        if (entry.value_type == rule_value_type) {
            for (const auto& rule : lint::builtin_rules()) entry.completions.push_back(rule.id);
        }
    }
    entry.repeatable =
        option.get_expected_max() > 1 || option.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
    entry.required = option.get_required();
    return entry;
}

CommandEntry describe(const CLI::App& app, std::vector<std::string> path) {
    CommandEntry entry;
    entry.name = path.back();
    entry.path = std::move(path);
    entry.description = app.get_description();
    entry.requires_subcommand = app.get_require_subcommand_min() > 0;
    for (const CLI::Option* option : app.get_options()) {
        if (option->get_group().empty()) continue;  // hidden
        if (option->get_positional() && !option->nonpositional()) {
            entry.positionals.push_back(describe_option(*option));
        } else {
            entry.options.push_back(describe_option(*option));
        }
    }
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); })) {
        std::vector<std::string> sub_path = entry.path;
        sub_path.push_back(sub->get_name());
        entry.subcommands.push_back(describe(*sub, std::move(sub_path)));
    }
    return entry;
}

void collect(const CommandEntry& command, std::vector<const CommandEntry*>& out) {
    out.push_back(&command);
    for (const auto& sub : command.subcommands) collect(sub, out);
}

}  // namespace

CommandEntry describe_command_line(const CLI::App& app) { return describe(app, {app.get_name()}); }

std::string command_path(const CommandEntry& command) {
    std::string joined;
    for (const auto& word : command.path) {
        if (!joined.empty()) joined += ' ';
        joined += word;
    }
    return joined;
}

std::vector<const CommandEntry*> all_commands(const CommandEntry& root) {
    std::vector<const CommandEntry*> out;
    collect(root, out);
    return out;
}

}  // namespace tfsift::cli
