// `tfsift lint`: the command line's flags become a lint request
// (lint/session.hpp); the session's result becomes the reports and the exit
// status.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <optional>
#include <sstream>
#include <system_error>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/lint_timings.hpp"
#include "cli/project_links.hpp"
#include "tfsift/atomic_write.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/lint/fix_diff.hpp"
#include "tfsift/lint/lock_command.hpp"
#include "tfsift/lint/session.hpp"
#include "tfsift/parallel_for.hpp"
#include "tfsift/report/report.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {

void add_lint_options(CLI::App& cmd, LintOptions& o) {
    cmd.add_option("paths", o.paths, "Module directories, or files (lint their module, report only them)");
    cmd.add_flag("--recursive,-r", o.recursive, "Lint every module below the given directories");
    cmd.add_option("--format,-f", o.format,
                   "Report on stdout: text, json, sarif, checkstyle, junit, compact, github, gitlab, rdjson")
        ->check(
            CLI::IsMember({"text", "json", "sarif", "checkstyle", "junit", "compact", "github", "gitlab", "rdjson"}))
        ->each([&o](const std::string&) { o.format_given = true; });
    // Repeatable options take one value per occurrence, so that paths after them stay paths.
    cmd.add_option("--output,-o", o.outputs, "Also write a report to a file, as FORMAT:PATH (repeatable)")
        ->allow_extra_args(false);
    cmd.add_option("--sarif-category", o.sarif_category,
                   "The code scanning category of the SARIF report's run (default: none, the upload's own)")
        ->check(CLI::Validator(
            [](const std::string& name) {
                return name.empty() ? std::string("the category must not be empty") : std::string();
            },
            "NAME"));
    cmd.add_option("--minimum-failure-severity", o.minimum_failure_severity,
                   "Exit 1 when a finding is at least this severe (default: warning)")
        ->check(CLI::IsMember({"error", "warning", "notice"}));
    cmd.add_option("--enable", o.selection.enable, "Enable rules (repeatable, or a comma list)")
        ->type_name("RULE")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd.add_option("--disable", o.selection.disable, "Disable rules (repeatable, or a comma list)")
        ->type_name("RULE")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd.add_option("--only", o.selection.only, "Run only these rules (repeatable, or a comma list)")
        ->type_name("RULE")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd.add_option("--config", o.config, "Use this settings file instead of the nearest .tfsift.toml");
    cmd.add_option("--chdir", o.chdir, "Change to this directory first");
    cmd.add_option("--state", o.state,
                   "A local state file to compare the configuration with (default: terraform.tfstate in the "
                   "module directory, when present)");
    // Both in the order given, as Terraform applies -var and -var-file.
    cmd.add_option_function<std::string>(
           "--var-file",
           [&o](const std::string& file) {
               o.variables.push_back({config::RootVariableInput::Kind::file, file});
           },
           "A variable file for the root modules' variables, read after terraform.tfvars and *.auto.tfvars, "
           "where a module source or version uses them (repeatable)")
        ->type_name("FILE")
        ->allow_extra_args(false)
        ->trigger_on_parse();
    cmd.add_option_function<std::string>(
           "--var",
           [&o](const std::string& assignment) {
               o.variables.push_back({config::RootVariableInput::Kind::assignment, assignment});
           },
           "A value for a root module variable, where a module source or version uses it (repeatable)")
        ->type_name("NAME=VALUE")
        ->allow_extra_args(false)
        ->trigger_on_parse();
    cmd.add_option("--engine", o.engine, "terraform or opentofu (default: settings, else detected)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
    cmd.add_option("--color", o.color, "Colour the text report: auto, always, never (auto honours NO_COLOR)")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    cmd.add_flag("--quiet,-q", o.quiet, "No summary line");
    cmd.add_flag("--statistics", o.statistics, "Print the number of findings per rule");
    cmd.add_flag("--timings", o.timings,
                 "After the report, print where the time went (stages, files read, peak memory) to stderr");
    cmd.add_flag("--fix", o.fix, "Apply the safe fixes of the findings, then report what remains");
    auto* online = cmd.add_flag("--online", o.online,
                                "Check lock file hashes against what the registries signed (needs the network)");
    cmd.add_flag("--offline", o.offline, "Open no network connection, not even to repair the lock file with --fix")
        ->excludes(online);
    cmd.add_flag("--unsafe-fixes", o.unsafe_fixes, "Apply unsafe fixes too, which may change the plan (implies --fix)");
    cmd.add_option("--jobs,-j", o.jobs, "Lint this many modules at once (default: the number of processors)")
        ->check(CLI::Range(1U, 4096U));
    cmd.add_option("--max-total-size", o.max_total_size,
                   "Read at most this many bytes of configuration files in all (bytes, or with KiB/MiB/GiB; "
                   "default 256MiB)");
    cmd.add_option("--max-memory", o.max_memory,
                   "Read no further configuration file once the process's peak memory passes this (bytes, or "
                   "with KiB/MiB/GiB; default 1GiB; 0: no limit)");
    cmd.add_flag("--exit-zero", o.exit_zero, "Exit 0 even when there are findings (2 still means an error)");
    cmd.add_option("--write-baseline", o.write_baseline,
                   "Record the current findings in FILE (with --baseline later, only new findings are reported)");
    cmd.add_option("--baseline", o.baseline, "Report only findings that the baseline FILE does not record");
    cmd.add_flag("--add-ignore", o.add_ignore,
                 "Add `# tfsift-ignore: RULE -- REASON` above every current finding, then report what remains");
    cmd.add_option("--ignore-reason", o.ignore_reason, "The REASON --add-ignore writes")->capture_default_str();
    cmd.add_flag("--diff", o.diff, "Print the unified diff of what --fix would change, and change nothing");
    cmd.add_flag("--show-fixes", o.show_fixes, "With --fix, print the unified diff of what was changed");
    cmd.add_option("--preset", o.preset, "recommended (the default) or strict (also the opinionated rules)")
        ->check(CLI::IsMember({"recommended", "strict"}))
        ->each([&o](const std::string& name) { o.selection.preset = lint::parse_preset(name); });
    cmd.add_flag("--no-gitignore", o.no_gitignore, "With --recursive, also lint directories that .gitignore names");
    cmd.add_flag("--callers", o.callers,
                 "Also check the lock files of the root modules that call the linted modules (through any depth)");
}

namespace {

bool use_color(const std::string& mode) {
    if (mode == "always") return true;
    if (mode == "never") return false;
    const char* no_color = std::getenv("NO_COLOR");
    if (no_color != nullptr && *no_color != '\0') return false;
    return isatty(STDOUT_FILENO) != 0;
}

}  // namespace

namespace {

// The report as text; nullopt after saying why when it could not be made
// (out of memory for a huge report, say).
std::optional<std::string> rendered_report(report::Format format, const report::ReportInput& input) {
    try {
        std::string text = report::render_report(format, input);
        for (const auto& w : report::report_warnings(format, input, text)) {
            fmt::print(stderr, "tfsift: warning: {}\n", w);
        }
        return text;
    } catch (const std::bad_alloc&) {
        std::fputs("tfsift: out of memory while writing the report\n", stderr);
    } catch (const std::exception& e) {
        fmt::print(stderr, "tfsift: cannot write the {} report: {}\n", report::to_string(format), e.what());
    }
    return std::nullopt;
}

// --diff: the unified diff of what --fix would change; exit 1 when it would
// change something (as `diff` does), 0 when not.
int print_fix_diff(const lint::Findings& findings, const LintOptions& options) {
    auto mode = options.unsafe_fixes ? lint::FixMode::include_unsafe : lint::FixMode::safe_only;
    const lint::FixPlan plan = lint::plan_fixes(findings, mode);
    std::string out;
    for (const auto& [path, text] : plan.new_text) out += lint::unified_diff(path, plan.old_text.at(path), text);
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
        return finish_standard_output(exit_failure, errno);
    if (!options.quiet) {
        fmt::print(stderr, "Would fix {} finding{} in {} file{}\n", plan.findings_fixed,
                   plan.findings_fixed == 1 ? "" : "s", plan.new_text.size(), plan.new_text.size() == 1 ? "" : "s");
    }
    return finish_standard_output(plan.new_text.empty() ? exit_clean : exit_findings);
}

}  // namespace

int run_lint(const LintOptions& options) {
    LintTimings timings;
    timings.started = std::chrono::steady_clock::now();
    if (!options.chdir.empty()) {
        std::error_code ec;
        fs::current_path(options.chdir, ec);
        config::working_directory_changed();
        if (ec) {
            fmt::print(stderr, "tfsift: cannot change to {}: {}\n", options.chdir, ec.message());
            return exit_failure;
        }
    }
    // Named relative to the directory --chdir changes to, as Terraform's
    // -var-file is; read only when a module source needs them, so checked here.
    for (const auto& given : options.variables) {
        std::error_code ec;
        if (given.kind == config::RootVariableInput::Kind::file && !fs::is_regular_file(given.text, ec)) {
            fmt::print(stderr, "tfsift: --var-file {}: no such file\n", report::escape_control_characters(given.text));
            return exit_failure;
        }
        if (given.kind == config::RootVariableInput::Kind::assignment &&
            (given.text.find('=') == std::string::npos || given.text.front() == '=')) {
            fmt::print(stderr, "tfsift: --var \"{}\": expected NAME=VALUE\n",
                       report::escape_control_characters(given.text));
            return exit_failure;
        }
    }
    auto min_severity = parse_severity(options.minimum_failure_severity);
    if (!min_severity) {
        fmt::print(stderr, "tfsift: unknown severity {}\n", options.minimum_failure_severity);
        return exit_failure;
    }
    struct OutputRequest {
        report::Format format;
        std::string path;
    };
    std::vector<OutputRequest> outputs;
    for (const auto& o : options.outputs) {
        auto colon = o.find(':');
        auto format = colon == std::string::npos ? std::nullopt : report::parse_format(o.substr(0, colon));
        if (!format || colon + 1 >= o.size()) {
            fmt::print(stderr,
                       "tfsift: --output takes FORMAT:PATH with FORMAT one of text, json, sarif, checkstyle, "
                       "junit, compact, github, gitlab, rdjson (got \"{}\")\n",
                       o);
            return exit_failure;
        }
        outputs.push_back({*format, o.substr(colon + 1)});
    }

    lint::LintRequest request;
    if (!options.max_total_size.empty()) {
        auto bytes = lint::parse_byte_size(options.max_total_size);
        if (!bytes) {
            fmt::print(stderr, "tfsift: --max-total-size \"{}\" is not a size such as 512MiB or 2GiB\n",
                       report::escape_control_characters(options.max_total_size));
            return exit_failure;
        }
        request.max_total_size = *bytes;
    }
    if (!options.max_memory.empty()) {
        // "0" turns the budget of memory off.
        auto bytes =
            options.max_memory == "0" ? std::optional<std::uint64_t>(0) : lint::parse_byte_size(options.max_memory);
        if (!bytes) {
            fmt::print(stderr, "tfsift: --max-memory \"{}\" is not a size such as 512MiB or 2GiB\n",
                       report::escape_control_characters(options.max_memory));
            return exit_failure;
        }
        request.max_memory = *bytes;
    }
    request.catalogue = lint::builtin_rules();
    request.paths = options.paths;
    request.recursive = options.recursive;
    request.selection = options.selection;
    request.settings_file = options.config;
    if (!options.engine.empty()) request.engine = parse_engine(options.engine);
    request.state_file = options.state;
    request.root_variables.command_line = options.variables;
    request.root_variables.environment = config::variable_environment(environ);
    request.jobs = options.jobs;
    if (options.fix || options.unsafe_fixes) {
        request.fix = options.unsafe_fixes ? lint::FixMode::include_unsafe : lint::FixMode::safe_only;
    }
    // --diff shows what --fix would write and writes nothing.
    if (options.diff) request.fix.reset();
    if (options.online) request.online = true;
    request.offline = options.offline || offline_forced();
    request.respect_gitignore = !options.no_gitignore;
    request.callers = options.callers;
    if (options.add_ignore) request.add_ignore_reason = options.ignore_reason;
    request.write_baseline_file = options.write_baseline;
    request.baseline_file = options.baseline;
    // Notices come by the thousand (a module not loaded, per call): they
    // are written together, before anything else that goes to stderr and
    // before the run ends (also when it ends in an exception), rather than
    // one write each.
    struct NoticeBuffer {
        std::string text;
        void flush() {
            if (text.empty()) return;
            (void)std::fwrite(text.data(), 1, text.size(), stderr);
            text.clear();
        }
        NoticeBuffer() = default;
        NoticeBuffer(const NoticeBuffer&) = delete;
        NoticeBuffer& operator=(const NoticeBuffer&) = delete;
        ~NoticeBuffer() { flush(); }
    } notices;
    request.on_message = [&options, &notices](lint::MessageKind kind, const std::string& text) {
        switch (kind) {
            case lint::MessageKind::error:
            case lint::MessageKind::warning:
            case lint::MessageKind::lock_repair:
                notices.flush();
                fmt::print(stderr, "{}\n", report::escape_control_characters(text));
                break;
            case lint::MessageKind::fix_summary:
            case lint::MessageKind::fix_applied:
                notices.flush();
                if (!options.quiet) fmt::print(stderr, "{}\n", report::escape_control_characters(text));
                break;
            case lint::MessageKind::notice:
                if (options.quiet) break;
                notices.text += report::escape_control_characters(text);
                notices.text += '\n';
                if (notices.text.size() >= std::size_t{64} << 10) notices.flush();
                break;
        }
    };
    lint::LintResult result = lint::run_session(request);
    notices.flush();
    if (!result.completed) return exit_failure;
    const lint::Findings& findings = result.findings;
    if (options.diff) return print_fix_diff(findings, options);
    if (options.show_fixes) {
        for (const auto& change : result.fixed_files) {
            const std::string diff = lint::unified_diff(change.path, change.old_text, change.new_text);
            if (std::fwrite(diff.data(), 1, diff.size(), stdout) != diff.size()) {
                return finish_standard_output(exit_failure, errno);
            }
        }
    }

    // Findings decide between 0 and 1, and so does a lock file --fix could
    // not repair (its findings say why); anything that could not be read or
    // written makes it 2 (cli/exit_status.hpp).
    int exit_code = result.lock_repair_failed ? exit_findings : exit_clean;
    for (const auto& f : findings) {
        if (static_cast<int>(f.severity) <= static_cast<int>(*min_severity)) exit_code = exit_findings;
    }
    if (options.exit_zero && exit_code == exit_findings) exit_code = exit_clean;
    // --write-baseline records the findings as accepted: that is success.
    if (!options.write_baseline.empty() && exit_code == exit_findings) exit_code = exit_clean;
    if (result.io_failed()) exit_code = exit_failure;

    const auto report_started = std::chrono::steady_clock::now();
    std::string cwd = fs::current_path().generic_string();
    report::ReportInput input{findings, result.catalogue};
    // SARIF paths are relative to the repository of what was linted (the first
    // target's), which need not be the working directory's; outside any
    // repository, to the directory that holds every target.
    input.repository_root =
        report::report_root(result.target_dirs.empty() ? std::vector<std::string>{cwd} : result.target_dirs);
    // Snippets only from files inside the roots the targets were read under.
    input.trusted_roots = result.trusted_roots;
    input.working_dir = cwd;
    input.files_scanned = result.files.size();
    input.exit_code = exit_code;
    input.quiet = options.quiet;
    input.command_line = options.command_line;
    input.sarif_category = options.sarif_category;
    input.links = project_links();
    input.jobs = options.jobs > 0 ? options.jobs : available_processors();

    for (const auto& o : outputs) {
        report::ReportInput file_input = input;
        file_input.color = false;
        auto text = rendered_report(o.format, file_input);
        if (!text) return exit_failure;
        // Atomic: a report a CI step uploads is either the old one or the whole new one.
        auto written = atomic_write_file(o.path, *text);
        if (!written.ok()) {
            fmt::print(stderr, "tfsift: cannot write {}: {}\n", report::escape_control_characters(o.path),
                       written.error);
            return exit_failure;
        }
    }
    auto format = report::parse_format(options.format).value_or(report::Format::text);
    // --statistics without --format prints the table alone, as Ruff's does;
    // --write-baseline and --output put the findings elsewhere.
    const bool statistics_only = options.statistics && !options.format_given;
    const bool to_stdout =
        options.format_given || (outputs.empty() && options.write_baseline.empty() && !statistics_only);
    // The table once: not in the text report as well.
    input.rule_table = !options.statistics;
    if (to_stdout) {
        input.color = format == report::Format::text && use_color(options.color);
        auto text = rendered_report(format, input);
        if (!text) return exit_failure;
        // Written as is, without a formatting copy.
        if (std::fwrite(text->data(), 1, text->size(), stdout) != text->size()) {
            return finish_standard_output(exit_failure, errno);
        }
    }
    if (options.statistics) {
        std::ostringstream buf;
        report::write_statistics(findings, buf);
        // Keep machine-readable output on stdout parseable.
        bool machine = to_stdout && format != report::Format::text && format != report::Format::compact;
        fmt::print(machine ? stderr : stdout, "{}", buf.str());
    } else if (!to_stdout && !outputs.empty() && options.write_baseline.empty() && !options.quiet) {
        // Reports written only to files: the summary still says what they hold.
        fmt::print(stderr, "{}\n", report::summary_line(input));
    }
    // --online checks that could not be made are failures, not passes.
    for (const auto& e : result.online_check_failures) {
        fmt::print(stderr, "tfsift: {}\n", report::escape_control_characters(e));
    }
    if (options.timings) {
        timings.report = std::chrono::duration<double>(std::chrono::steady_clock::now() - report_started).count();
        timings.files_linted = result.files.size();
        std::fflush(stdout);
        print_lint_timings(result.times, timings);
    }
    const int status = finish_standard_output(result.online_check_failures.empty() ? exit_code : exit_failure);
    // Everything is written (reports and fixed files through atomic writes,
    // already closed; the standard streams flushed here). Freeing every tree,
    // finding and cache before exiting would only make the user wait longer:
    // the system takes the process's memory back at once.
    std::fflush(stderr);
    std::_Exit(status);
}

}  // namespace tfsift::cli
