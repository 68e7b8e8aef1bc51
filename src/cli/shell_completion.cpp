// Writes the completion scripts of shell_completion.hpp. Each script holds
// the table as data (case patterns keyed by the command path and the word
// before the cursor) and one small function that finds the command path of
// the words typed so far, skipping the values of options that take one.
#include "cli/shell_completion.hpp"

#include <fmt/core.h>

#include <vector>

namespace tfsift::cli {

namespace {

std::string joined(const std::vector<std::string>& words, std::string_view separator) {
    std::string out;
    for (const auto& word : words) {
        if (!out.empty()) out += separator;
        out += word;
    }
    return out;
}

std::vector<std::string> names_of(const OptionEntry& option) {
    std::vector<std::string> names = option.long_names;
    names.insert(names.end(), option.short_names.begin(), option.short_names.end());
    return names;
}

// A word quoted for bash and zsh: single quotes, each ' written as '\''.
std::string single_quoted(std::string_view text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c;
        }
    }
    out += '\'';
    return out;
}

// "a"|"b" case patterns for the given command path and words.
std::string case_patterns(const std::string& path, const std::vector<std::string>& words) {
    std::vector<std::string> patterns;
    patterns.reserve(words.size());
    for (const auto& word : words) patterns.push_back(fmt::format("\"{} {}\"", path, word));
    return joined(patterns, "|");
}

// Every (command path, option) pair that takes a value, as case patterns.
std::vector<std::string> valued_option_patterns(const CommandEntry& root) {
    std::vector<std::string> patterns;
    for (const CommandEntry* command : all_commands(root)) {
        for (const auto& option : command->options) {
            if (option.takes_value) patterns.push_back(case_patterns(command_path(*command), names_of(option)));
        }
    }
    return patterns;
}

std::vector<std::string> subcommand_patterns(const CommandEntry& root) {
    std::vector<std::string> patterns;
    for (const CommandEntry* command : all_commands(root)) {
        std::vector<std::string> names;
        for (const auto& sub : command->subcommands) names.push_back(sub.name);
        if (!names.empty()) patterns.push_back(case_patterns(command_path(*command), names));
    }
    return patterns;
}

// A value with no fixed choices is completed as a file name, unless it is a
// number.
bool completes_files(const OptionEntry& option) {
    const std::string& type = option.value_type;
    return type != "INT" && type != "UINT" && type != "FLOAT" && type != "NUMBER";
}

// The values completion offers for a command's positional arguments (`tfsift
// completion SHELL`, `tfsift rule ID`); empty for any value.
std::vector<std::string> positional_choices(const CommandEntry& command) {
    std::vector<std::string> choices;
    for (const auto& positional : command.positionals) {
        choices.insert(choices.end(), positional.completions.begin(), positional.completions.end());
    }
    return choices;
}

constexpr std::string_view generated_note =
    "generated from tfsift's command table by `tfsift completion {}`; do not edit";

// ---- bash -------------------------------------------------------------------

std::string bash_script(const CommandEntry& root) {
    std::string out =
        fmt::format("# bash completion for tfsift, {}\n", fmt::format(fmt::runtime(generated_note), "bash"));
    out += "\n# Succeeds when option $2 of command path $1 takes a value.\n";
    out += "_tfsift_takes_value() {\n    case \"$1 $2\" in\n";
    for (const auto& pattern : valued_option_patterns(root)) out += fmt::format("        {}) return 0 ;;\n", pattern);
    out += "    esac\n    return 1\n}\n\n";
    out += "_tfsift() {\n";
    out += "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" path=\"tfsift\" word i skip=0\n";
    out += "    (( COMP_CWORD > 0 )) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n";
    out += "    for (( i = 1; i < COMP_CWORD; i++ )); do\n";
    out += "        word=\"${COMP_WORDS[i]}\"\n";
    out += "        if (( skip )); then skip=0; continue; fi\n";
    out += "        if _tfsift_takes_value \"$path\" \"$word\"; then skip=1; continue; fi\n";
    out += "        case \"$path $word\" in\n";
    for (const auto& pattern : subcommand_patterns(root))
        out += fmt::format("            {}) path=\"$path $word\" ;;\n", pattern);
    out += "        esac\n    done\n";
    out += "    COMPREPLY=()\n";
    out += "    if (( skip )); then\n        case \"$path $prev\" in\n";
    for (const CommandEntry* command : all_commands(root)) {
        for (const auto& option : command->options) {
            if (!option.takes_value) continue;
            const std::string pattern = case_patterns(command_path(*command), names_of(option));
            if (option.completions.empty()) {
                if (completes_files(option)) {
                    out +=
                        fmt::format("            {}) mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n", pattern);
                }
            } else {
                out += fmt::format("            {}) mapfile -t COMPREPLY < <(compgen -W {} -- \"$cur\") ;;\n", pattern,
                                   single_quoted(joined(option.completions, " ")));
            }
        }
    }
    out += "        esac\n        return 0\n    fi\n";
    out += "    local options=\"\" subcommands=\"\" values=\"\"\n    case \"$path\" in\n";
    for (const CommandEntry* command : all_commands(root)) {
        std::vector<std::string> options;
        for (const auto& option : command->options) {
            for (const auto& name : names_of(option)) options.push_back(name);
        }
        std::vector<std::string> subs;
        for (const auto& sub : command->subcommands) subs.push_back(sub.name);
        out += fmt::format("        \"{}\") options={}; subcommands={}; values={} ;;\n", command_path(*command),
                           single_quoted(joined(options, " ")), single_quoted(joined(subs, " ")),
                           single_quoted(joined(positional_choices(*command), " ")));
    }
    out += "    esac\n";
    out += "    if [[ $cur == -* ]]; then\n";
    out += "        mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\")\n";
    out += "    elif [[ -n $subcommands ]]; then\n";
    out += "        mapfile -t COMPREPLY < <(compgen -W \"$subcommands\" -- \"$cur\")\n";
    out += "    elif [[ -n $values ]]; then\n";
    out += "        mapfile -t COMPREPLY < <(compgen -W \"$values\" -- \"$cur\")\n";
    out += "    else\n";
    out += "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n";
    out += "    fi\n    return 0\n}\n\n";
    out += "complete -o filenames -F _tfsift tfsift\n";
    return out;
}

// ---- zsh --------------------------------------------------------------------

// A "name:description" entry for _describe (colons in the name escaped).
std::string zsh_described(std::string_view name, std::string_view description) {
    std::string entry;
    for (char c : name) {
        if (c == ':') entry += '\\';
        entry += c;
    }
    entry += ':';
    entry += description;
    return single_quoted(entry);
}

std::string zsh_script(const CommandEntry& root) {
    std::string out = "#compdef tfsift\n";
    out += fmt::format("# zsh completion for tfsift, {}\n\n", fmt::format(fmt::runtime(generated_note), "zsh"));
    out += "_tfsift() {\n";
    out += "    local path_=tfsift word i skip=0\n";
    out += "    for (( i = 2; i < CURRENT; i++ )); do\n";
    out += "        word=${words[i]}\n";
    out += "        if (( skip )); then skip=0; continue; fi\n";
    out += "        case \"$path_ $word\" in\n";
    for (const auto& pattern : valued_option_patterns(root))
        out += fmt::format("            ({}) skip=1 ;;\n", pattern);
    for (const auto& pattern : subcommand_patterns(root))
        out += fmt::format("            ({}) path_=\"$path_ $word\" ;;\n", pattern);
    out += "        esac\n    done\n";
    out += "    local cur=${words[CURRENT]} prev=${words[CURRENT-1]}\n";
    out += "    if (( skip )); then\n        case \"$path_ $prev\" in\n";
    for (const CommandEntry* command : all_commands(root)) {
        for (const auto& option : command->options) {
            if (!option.takes_value) continue;
            const std::string pattern = case_patterns(command_path(*command), names_of(option));
            if (option.completions.empty()) {
                if (completes_files(option)) out += fmt::format("            ({}) _files ;;\n", pattern);
            } else {
                std::vector<std::string> quoted;
                for (const auto& choice : option.completions) quoted.push_back(single_quoted(choice));
                out += fmt::format("            ({}) compadd -- {} ;;\n", pattern, joined(quoted, " "));
            }
        }
    }
    out += "        esac\n        return\n    fi\n";
    out += "    local -a options subcommands values\n    case $path_ in\n";
    for (const CommandEntry* command : all_commands(root)) {
        std::vector<std::string> options;
        for (const auto& option : command->options) {
            for (const auto& name : names_of(option)) options.push_back(zsh_described(name, option.description));
        }
        std::vector<std::string> subs;
        for (const auto& sub : command->subcommands) subs.push_back(zsh_described(sub.name, sub.description));
        std::vector<std::string> values;
        for (const auto& value : positional_choices(*command)) values.push_back(single_quoted(value));
        out += fmt::format(
            "        (\"{}\")\n            options=({})\n            subcommands=({})\n            values=({}) ;;\n",
            command_path(*command), joined(options, " "), joined(subs, " "), joined(values, " "));
    }
    out += "    esac\n";
    out += "    if [[ $cur == -* ]]; then\n";
    out += "        _describe -t options option options\n";
    out += "    elif (( ${#subcommands} )); then\n";
    out += "        _describe -t commands command subcommands\n";
    out += "    elif (( ${#values} )); then\n";
    out += "        compadd -- \"${values[@]}\"\n";
    out += "    else\n";
    out += "        _files\n";
    out += "    fi\n}\n\n";
    // Loaded from $fpath by compinit the file's body is the completion
    // function; sourced by hand it registers the function instead.
    out += "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n";
    out += "    _tfsift \"$@\"\nelse\n    compdef _tfsift tfsift\nfi\n";
    return out;
}

// ---- fish -------------------------------------------------------------------

// A word quoted for fish: single quotes, with \ and ' escaped.
std::string fish_quoted(std::string_view text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    out += '\'';
    return out;
}

std::string fish_script(const CommandEntry& root) {
    std::string out =
        fmt::format("# fish completion for tfsift, {}\n\n", fmt::format(fmt::runtime(generated_note), "fish"));
    out += "# The command path (\"tfsift debug parse\") of the words before the cursor.\n";
    out += "function __tfsift_path\n";
    out += "    set -l words (commandline -opc)\n";
    out += "    set -e words[1]\n";
    out += "    set -l path tfsift\n";
    out += "    set -l skip 0\n";
    out += "    for word in $words\n";
    out += "        if test $skip = 1\n            set skip 0\n            continue\n        end\n";
    out += "        switch \"$path $word\"\n";
    auto fish_patterns = [](const std::string& bash_patterns) {
        // "a"|"b" -> 'a' 'b'
        std::string patterns;
        for (char c : bash_patterns) {
            if (c == '"') {
                patterns += '\'';
            } else if (c == '|') {
                patterns += ' ';
            } else {
                patterns += c;
            }
        }
        return patterns;
    };
    const auto valued = valued_option_patterns(root);
    if (!valued.empty()) {
        std::vector<std::string> all;
        all.reserve(valued.size());
        for (const auto& p : valued) all.push_back(fish_patterns(p));
        out += fmt::format("            case {}\n                set skip 1\n", joined(all, " "));
    }
    const auto subs = subcommand_patterns(root);
    if (!subs.empty()) {
        std::vector<std::string> all;
        all.reserve(subs.size());
        for (const auto& p : subs) all.push_back(fish_patterns(p));
        out += fmt::format("            case {}\n                set path \"$path $word\"\n", joined(all, " "));
    }
    out += "        end\n    end\n    echo $path\nend\n\n";
    out += "complete -c tfsift -f\n";
    for (const CommandEntry* command : all_commands(root)) {
        const std::string condition = fish_quoted(fmt::format("test (__tfsift_path) = \"{}\"", command_path(*command)));
        for (const auto& sub : command->subcommands) {
            out += fmt::format("complete -c tfsift -n {} -a {} -d {}\n", condition, fish_quoted(sub.name),
                               fish_quoted(sub.description));
        }
        for (const auto& option : command->options) {
            std::string line = fmt::format("complete -c tfsift -n {}", condition);
            for (const auto& name : option.long_names) line += fmt::format(" -l {}", name.substr(2));
            for (const auto& name : option.short_names) line += fmt::format(" -s {}", name.substr(1));
            if (option.takes_value) {
                // -r: takes a value; -F: a file name; -x: a value that is no file name.
                if (!option.completions.empty()) {
                    line += fmt::format(" -x -a {}", fish_quoted(joined(option.completions, " ")));
                } else {
                    line += completes_files(option) ? " -r -F" : " -x";
                }
            }
            line += fmt::format(" -d {}\n", fish_quoted(option.description));
            out += line;
        }
        if (command->subcommands.empty() && !command->positionals.empty()) {
            const auto values = positional_choices(*command);
            if (values.empty()) {
                out += fmt::format("complete -c tfsift -n {} -F\n", condition);
            } else {
                out += fmt::format("complete -c tfsift -n {} -a {}\n", condition, fish_quoted(joined(values, " ")));
            }
        }
    }
    return out;
}

}  // namespace

std::optional<std::string> completion_script(const CommandEntry& root, std::string_view shell) {
    if (shell == "bash") return bash_script(root);
    if (shell == "zsh") return zsh_script(root);
    if (shell == "fish") return fish_script(root);
    return std::nullopt;
}

}  // namespace tfsift::cli
