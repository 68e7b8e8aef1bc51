// Writes tfsift(1) (man_page.hpp). Commands and options come from the
// command table; the exit statuses from exit_status.hpp; the rest is the
// short prose a manual page needs around them.
#include "cli/man_page.hpp"

#include <fmt/core.h>

#include "cli/exit_status.hpp"

namespace tfsift::cli {

namespace {

// Text safe in roff: backslashes written as \e, and a line that would start
// with a control character ('.' or ') protected by \&.
std::string roff_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool line_start = true;
    for (char c : text) {
        if (line_start && (c == '.' || c == '\'')) out += "\\&";
        if (c == '\\') {
            out += "\\e";
        } else {
            out += c;
        }
        line_start = c == '\n';
    }
    return out;
}

// An option name with its hyphens as \- (so that they stay ASCII minus signs
// a user can copy).
std::string roff_option(std::string_view name) {
    std::string out;
    for (char c : name) {
        if (c == '-') out += '\\';
        out += c;
    }
    return out;
}

std::string value_placeholder(const OptionEntry& option) {
    if (!option.choices.empty()) {
        std::string out;
        for (const auto& choice : option.choices) {
            if (!out.empty()) out += '|';
            out += choice;
        }
        return out;
    }
    return option.value_type.empty() ? std::string("VALUE") : option.value_type;
}

std::string option_item(const OptionEntry& option) {
    std::string names;
    auto add = [&names](const std::string& name) {
        if (!names.empty()) names += ", ";
        names += "\\fB" + roff_option(name) + "\\fR";
    };
    for (const auto& name : option.long_names) add(name);
    for (const auto& name : option.short_names) add(name);
    if (option.takes_value) names += " \\fI" + roff_text(value_placeholder(option)) + "\\fR";
    std::string description = roff_text(option.description);
    if (option.repeatable && description.find("repeatable") == std::string::npos) description += " (repeatable)";
    return fmt::format(".TP\n{}\n{}\n", names, description);
}

std::string synopsis(const CommandEntry& command) {
    std::string out = fmt::format(".B {}\n", command_path(command));
    if (!command.options.empty()) out += ".RI [ options ]\n";
    if (!command.subcommands.empty()) out += command.requires_subcommand ? ".I command\n" : ".RI [ command ]\n";
    for (const auto& positional : command.positionals) {
        const std::string dots = positional.repeatable ? "..." : "";
        if (positional.required) {
            out += fmt::format(".I {}{}\n", roff_text(positional.name), dots);
        } else {
            out += fmt::format(".RI [ {} ]{}\n", roff_text(positional.name), dots);
        }
    }
    return out;
}

void describe_command(const CommandEntry& command, std::string& out) {
    out += fmt::format(".SS \"{}\"\n", command_path(command));
    out += ".PP\n" + synopsis(command);
    out += ".PP\n" + roff_text(command.description) + ".\n";
    for (const auto& positional : command.positionals) {
        out += fmt::format(".TP\n\\fI{}\\fR\n{}\n", roff_text(positional.name), roff_text(positional.description));
    }
    for (const auto& option : command.options) out += option_item(option);
    for (const auto& sub : command.subcommands) describe_command(sub, out);
}

}  // namespace

std::string man_page(const CommandEntry& root, std::string_view version) {
    std::string out = ".\\\" tfsift(1), generated from tfsift's command table by `tfsift man`; do not edit.\n";
    out += fmt::format(".TH TFSIFT 1 \"\" \"tfsift {}\" \"User Commands\"\n", version);
    // The application's description reads "tfsift: what it is".
    std::string_view summary = root.description;
    if (const auto colon = summary.find(": "); colon != std::string_view::npos) summary.remove_prefix(colon + 2);
    out += ".SH NAME\n";
    out += fmt::format("tfsift \\- {}\n", roff_text(summary));
    out += ".SH SYNOPSIS\n" + synopsis(root);
    out += ".SH DESCRIPTION\n";
    out +=
        "tfsift parses Terraform and OpenTofu configurations (\\fI.tf\\fR, \\fI.tf.json\\fR, \\fI.tofu\\fR, "
        "\\fI.tofu.json\\fR), loads module trees with their override files and lock files, and checks them "
        "against its rules. Settings are read from the nearest \\fI.tfsift.toml\\fR.\n";
    out += ".SH OPTIONS\n";
    for (const auto& option : root.options) out += option_item(option);
    out += ".SH COMMANDS\n";
    for (const auto& sub : root.subcommands) describe_command(sub, out);
    out += ".SH EXIT STATUS\n";
    out += fmt::format(
        ".TP\n{}\nNothing at or above the failure severity (\\fBlint\\fR); the command did what was asked.\n",
        exit_clean);
    out += fmt::format(
        ".TP\n{}\nFindings at or above the failure severity (\\fBlint\\fR); errors in the input a command "
        "reports.\n",
        exit_findings);
    out += fmt::format(
        ".TP\n{}\nUsage and settings errors, internal errors, out of memory, and every I/O failure, "
        "each with a message on standard error.\n",
        exit_failure);
    out += ".SH ENVIRONMENT\n";
    const std::pair<std::string_view, std::string_view> environment[] = {
        {"NO_COLOR", "When set and not empty, the text report is not coloured with \\fB\\-\\-color auto\\fR."},
        {"TFSIFT_OFFLINE", "Any value but empty or 0: open no network connection (as \\fB\\-\\-offline\\fR)."},
        {"TFSIFT_CACHE_DIR", "The provider download cache (default: \\fI$XDG_CACHE_HOME/tfsift/providers\\fR)."},
        {"TF_CLI_CONFIG_FILE", "The Terraform CLI configuration read for credentials and provider installation."},
        {"TF_PLUGIN_CACHE_DIR", "The plugin cache \\fBlock \\-\\-enable\\-plugin\\-cache\\fR unpacks into."},
        {"HTTPS_PROXY, NO_PROXY", "Proxies for registry and mirror requests."},
        {"SSL_CERT_FILE, SSL_CERT_DIR", "Certificate authorities trusted for HTTPS."},
    };
    for (const auto& [name, text] : environment) out += fmt::format(".TP\n\\fB{}\\fR\n{}\n", roff_option(name), text);
    out += ".SH FILES\n";
    out +=
        ".TP\n\\fI.tfsift.toml\\fR\nSettings, rule selection and policies: the nearest one is read, unless "
        "\\fB\\-\\-config\\fR names another.\n";
    out +=
        ".TP\n\\fI.terraform.lock.hcl\\fR\nA root module's dependency lock file: checked by the lock rules, "
        "written by \\fBlock\\fR and repaired by \\fBlint \\-\\-fix\\fR.\n";
    out += ".SH SEE ALSO\n";
    out +=
        "\\fBterraform\\fR(1), \\fBtofu\\fR(1). The documentation in the \\fIdocs/\\fR folder of tfsift's source: "
        "rules, settings, reports, network access.\n";
    return out;
}

}  // namespace tfsift::cli
