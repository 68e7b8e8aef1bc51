// tfsift: a static-analysis and policy linter for Terraform and OpenTofu.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "cli/build_info.hpp"
#include "cli/commands.hpp"
#include "cli/documentation_commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/out_of_memory.hpp"
#include "cli/usage_errors.hpp"
#include "tfsift/lazy_library.hpp"
#include "tfsift/net/engine_version.hpp"
#include "tfsift/online/openpgp_helper.hpp"
#include "tfsift/providers/hash.hpp"
#include "tfsift/report/report.hpp"
#include "tfsift/run_on_stack.hpp"

namespace {

int run_command_line(int argc, char** argv) {
    CLI::App app{"tfsift: fast static analysis for Terraform and OpenTofu configurations", "tfsift"};
    const auto commit = tfsift::cli::build_commit();
    app.set_version_flag(
        "--version",
        fmt::format("tfsift {} (commit {}; registry requests as Terraform {} / OpenTofu {})", TFSIFT_VERSION,
                    commit.empty() ? "unknown" : commit, tfsift::default_engine_version(tfsift::Engine::terraform),
                    tfsift::default_engine_version(tfsift::Engine::opentofu)));
    app.require_subcommand(1);

    tfsift::cli::LintOptions lint;
    auto* lint_cmd = app.add_subcommand("lint", "Check the modules in the given directories (default: .)");
    tfsift::cli::add_lint_options(*lint_cmd, lint);
    lint.command_line.assign(argv, argv + argc);

    tfsift::cli::RulesOptions rules;
    auto* rules_cmd = app.add_subcommand("rules", "List every rule: id, severity, on by default, fixable");
    tfsift::cli::add_rules_options(*rules_cmd, rules);
    tfsift::cli::RuleDocOptions rule_doc;
    auto* rule_cmd = app.add_subcommand("rule", "Print a rule's documentation as Markdown");
    tfsift::cli::add_rule_options(*rule_cmd, rule_doc);

    tfsift::cli::EffectiveOptions effective;
    auto* effective_cmd =
        app.add_subcommand("effective", "Print the effective configuration of a module tree, override files applied");
    tfsift::cli::add_effective_options(*effective_cmd, effective);

    tfsift::cli::LockOptions lock;
    auto* providers_lock_cmd = app.add_subcommand(
        "lock",
        "Record the required providers' versions and hashes in .terraform.lock.hcl (from the registries, or offline)");
    tfsift::cli::add_lock_options(*providers_lock_cmd, lock);
    tfsift::cli::LockDiffOptions lock_diff;
    auto* lock_diff_cmd = providers_lock_cmd->add_subcommand(
        "diff", "Review a lock-file change against a git revision: what changed, and whether every new hash is signed");
    tfsift::cli::add_lock_diff_options(*lock_diff_cmd, lock_diff);

    tfsift::cli::FetchOptions fetch;
    auto* fetch_cmd = app.add_subcommand(
        "fetch", "Fetch the remote modules (registry, git, archives) the roots call into tfsift's module cache");
    tfsift::cli::add_fetch_options(*fetch_cmd, fetch);

    tfsift::cli::InitOptions init;
    auto* init_cmd =
        app.add_subcommand("init", "Write a .tfsift.toml, from an existing .tflint.hcl with --from-tflint");
    tfsift::cli::add_init_options(*init_cmd, init);
    tfsift::cli::ServerOptions server;
    auto* server_cmd = app.add_subcommand(
        "server", "Run the language server on standard input and output (diagnostics, fixes and rule docs in editors)");
    tfsift::cli::add_server_options(*server_cmd, server);

    auto* debug_cmd = app.add_subcommand("debug", "Inspect tfsift's internal models");
    debug_cmd->require_subcommand(1);
    std::vector<std::string> parse_files;
    auto* parse_cmd = debug_cmd->add_subcommand(
        "parse", "Print the parse dump of HCL native-syntax files (format: docs/parse-dump.md)");
    parse_cmd->add_option("files", parse_files, "HCL native-syntax files")->required();
    std::vector<std::string> hash_paths;
    auto* hash_cmd =
        debug_cmd->add_subcommand("hash", "Print the h1: (and for a zip the zh:) hash of provider packages");
    hash_cmd->add_option("paths", hash_paths, "Provider package zips or unpacked directories")->required();
    std::string lock_file;
    std::string lock_engine;
    auto* lock_cmd =
        debug_cmd->add_subcommand("lock", "Check a .terraform.lock.hcl file and print it as tfsift would write it");
    lock_cmd->add_option("file", lock_file, "The lock file")->required();
    lock_cmd->add_option("--engine", lock_engine, "terraform or opentofu (default: from the file's header)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));

    // Added last, so that they come last in --help and in the manual page.
    tfsift::cli::DocumentationCommands documentation;
    tfsift::cli::add_documentation_commands(app, documentation);

    // "tfsift lnit": CLI11 would only say that a subcommand is required.
    if (auto unknown = tfsift::cli::unknown_subcommand_message(app, std::vector<std::string>(argv + 1, argv + argc))) {
        fmt::print(stderr, "tfsift: error: {}\nRun `tfsift --help` for usage.\n",
                   tfsift::report::escape_control_characters(*unknown));
        return tfsift::cli::exit_failure;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return tfsift::cli::report_parse_error(app, e);
    }

    // How much provider package hashing one run may do (zip bombs).
    std::string limits_error;
    tfsift::providers::set_hash_limits(tfsift::providers::hash_limits_from_environment(limits_error));
    if (!limits_error.empty()) fmt::print(stderr, "tfsift: {}\n", limits_error);

    try {
        if (*lint_cmd) return tfsift::cli::run_lint(lint);
        if (*rules_cmd) return tfsift::cli::run_rules(rules);
        if (*rule_cmd) return tfsift::cli::run_rule(rule_doc);
        if (*effective_cmd) return tfsift::cli::run_effective(effective);
        if (*lock_diff_cmd) return tfsift::cli::run_lock_diff(lock_diff);
        if (*providers_lock_cmd) return tfsift::cli::run_lock(lock);
        if (*fetch_cmd) return tfsift::cli::run_fetch(fetch);
        if (*init_cmd) return tfsift::cli::run_init(init);
        if (*server_cmd) return tfsift::cli::run_server(server);
        if (*parse_cmd) return tfsift::cli::run_debug_parse(parse_files);
        if (*hash_cmd) return tfsift::cli::run_debug_hash(hash_paths);
        if (*lock_cmd) return tfsift::cli::run_debug_lock(lock_file, lock_engine);
        if (int status = tfsift::cli::run_documentation_command(app, documentation); status >= 0) return status;
    } catch (const std::bad_alloc&) {
        std::fputs("tfsift: out of memory\n", stderr);
        return tfsift::cli::exit_failure;
    } catch (const std::system_error& e) {
        // fmt reports a failed write to standard output by throwing.
        if (std::ferror(stdout) != 0)
            return tfsift::cli::finish_standard_output(tfsift::cli::exit_failure, e.code().value());
        fmt::print(stderr, "tfsift: internal error: {}\n", e.what());
        return tfsift::cli::exit_failure;
    } catch (const tfsift::LibraryUnavailable& e) {
        // Not installed with tfsift (a library it opens when a command needs it).
        fmt::print(stderr, "{}\n", e.what());
        return tfsift::cli::exit_failure;
    } catch (const std::exception& e) {
        fmt::print(stderr, "tfsift: internal error: {}\n", e.what());
        return tfsift::cli::exit_failure;
    }
    return tfsift::cli::exit_failure;
}

}  // namespace

int main(int argc, char** argv) {
    // `tfsift debug openpgp-verify` is internal: tfsift starts itself this way
    // to check a provider signature in a separate process (stdin JSON ->
    // stdout JSON; see include/tfsift/online/openpgp_helper.hpp).
    if (tfsift::online::is_openpgp_helper_invocation(argc, argv)) {
        try {
            return tfsift::online::run_openpgp_helper(stdin, stdout);
        } catch (...) {
            return tfsift::cli::exit_failure;
        }
    }
    // The command runs on a thread with a stack of known size, whatever
    // `ulimit -s` gave the main thread (see run_on_stack.hpp).
    return tfsift::run_on_stack(tfsift::command_stack_bytes, [argc, argv]() -> int {
        // Building the command line itself may throw (allocation, CLI11's own
        // errors); nothing may escape, so the last resort is a plain message.
        try {
            tfsift::cli::install_out_of_memory_reserve();
            return tfsift::cli::finish_standard_output(run_command_line(argc, argv));
        } catch (const std::bad_alloc&) {
            std::fputs("tfsift: out of memory\n", stderr);
        } catch (const std::exception& e) {
            std::fputs("tfsift: internal error: ", stderr);
            std::fputs(e.what(), stderr);
            std::fputs("\n", stderr);
        } catch (...) {
            std::fputs("tfsift: internal error\n", stderr);
        }
        return tfsift::cli::exit_failure;
    });
}
