// `tfsift lint`: find the modules, load the settings, run the rules and write
// the reports.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <memory>
#include <new>
#include <set>
#include <sstream>
#include <system_error>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/atomic_write.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/add_ignore.hpp"
#include "tfsift/lint/apply_fixes.hpp"
#include "tfsift/lint/baseline.hpp"
#include "tfsift/lint/fix_diff.hpp"
#include "tfsift/lint/gitignore.hpp"
#include "tfsift/lint/repository_root.hpp"
#include "tfsift/lint/rule_suggestion.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/module_roles.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/online/lock_verification.hpp"
#include "tfsift/parallel_for.hpp"
#include "tfsift/report/report.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {

void add_lint_options(CLI::App& cmd, LintOptions& o) {
    cmd.add_option("paths", o.paths, "Module directories, or files (lint their module, report only them)");
    cmd.add_flag("--recursive,-r", o.recursive, "Lint every module below the given directories");
    cmd.add_option("--format,-f", o.format, "Report on stdout: text, json, sarif, checkstyle, junit, compact")
        ->check(CLI::IsMember({"text", "json", "sarif", "checkstyle", "junit", "compact"}))
        ->each([&o](const std::string&) { o.format_given = true; });
    // Repeatable options take one value per occurrence, so that paths after them stay paths.
    cmd.add_option("--output,-o", o.outputs, "Also write a report to a file, as FORMAT:PATH (repeatable)")
        ->allow_extra_args(false);
    cmd.add_option("--minimum-failure-severity", o.minimum_failure_severity,
                   "Exit 1 when a finding is at least this severe (default: warning)")
        ->check(CLI::IsMember({"error", "warning", "notice"}));
    cmd.add_option("--enable", o.selection.enable, "Enable rules (repeatable, or a comma list)")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd.add_option("--disable", o.selection.disable, "Disable rules (repeatable, or a comma list)")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd.add_option("--only", o.selection.only, "Run only these rules (repeatable, or a comma list)")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd.add_option("--config", o.config, "Use this settings file instead of the nearest .tfsift.toml");
    cmd.add_option("--chdir", o.chdir, "Change to this directory first");
    cmd.add_option("--state", o.state,
                   "A local state file to compare the configuration with (default: terraform.tfstate in the "
                   "module directory, when present)");
    cmd.add_option("--engine", o.engine, "terraform or opentofu (default: settings, else detected)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
    cmd.add_option("--color", o.color, "Colour the text report: auto, always, never (auto honours NO_COLOR)")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    cmd.add_flag("--quiet,-q", o.quiet, "No summary line");
    cmd.add_flag("--statistics", o.statistics, "Print the number of findings per rule");
    cmd.add_flag("--fix", o.fix, "Apply the safe fixes of the findings, then report what remains");
    auto* online = cmd.add_flag("--online", o.online,
                                "Check lock file hashes against what the registries signed (needs the network)");
    cmd.add_flag("--offline", o.offline, "Open no network connection, not even to repair the lock file with --fix")
        ->excludes(online);
    cmd.add_flag("--unsafe-fixes", o.unsafe_fixes, "Apply unsafe fixes too, which may change the plan (implies --fix)");
    cmd.add_option("--jobs,-j", o.jobs, "Lint this many modules at once (default: the number of processors)")
        ->check(CLI::Range(1U, 4096U));
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
}

namespace {

// One module to lint and the files whose findings are reported (all when
// `only_files` is empty).
struct Target {
    std::string dir;
    std::set<std::string> only_files;  // absolute
    // Files must resolve inside it: the repository root of the path named
    // on the command line, else that path itself.
    std::string trusted_root;
};

// Settings files are read once, whichever targets share them.
class SettingsCache {
public:
    SettingsCache(std::string explicit_file, std::optional<bool> online)
        : explicit_file_(std::move(explicit_file)), online_(online) {}

    // Null after printing the errors of a broken settings file.
    const lint::Settings* for_dir(const std::string& dir) {
        std::string file = explicit_file_.empty() ? lint::find_settings_file(dir) : explicit_file_;
        auto it = loaded_.find(file);
        if (it == loaded_.end()) {
            auto result = std::make_unique<lint::SettingsResult>(
                file.empty() ? lint::SettingsResult{} : lint::load_settings(file, !explicit_file_.empty()));
            for (const auto& e : result->errors) fmt::print(stderr, "{}\n", report::escape_control_characters(e.to_string()));
            if (online_) result->settings.online = *online_;
            it = loaded_.emplace(file, std::move(result)).first;
        }
        return it->second->ok() ? &it->second->settings : nullptr;
    }

private:
    std::string explicit_file_;
    std::optional<bool> online_;  // --online / --offline / TFSIFT_OFFLINE beat the files
    std::map<std::string, std::unique_ptr<lint::SettingsResult>> loaded_;
};

std::optional<Severity> parse_severity(const std::string& s) {
    if (s == "error") return Severity::error;
    if (s == "warning") return Severity::warning;
    if (s == "notice") return Severity::notice;
    return std::nullopt;
}

bool use_color(const std::string& mode) {
    if (mode == "always") return true;
    if (mode == "never") return false;
    const char* no_color = std::getenv("NO_COLOR");
    if (no_color != nullptr && *no_color != '\0') return false;
    return isatty(STDOUT_FILENO) != 0;
}

// Whether a rule whose findings the lock repair fixes runs under these
// settings and the command line's selection.
bool lock_repair_selected(const lint::Settings& settings, const lint::RuleSelection& selection) {
    static const std::set<std::string> fixed_by_repair = {
        "lock-missing", "lock-missing-provider", "lock-stale-provider", "lock-version-mismatch",
        "lock-constraints-drift", "lock-platforms-incomplete", "lock-missing-hashes"};
    auto rules = lint::rules_for(settings);
    std::vector<std::string> unknown;
    for (const auto& a : lint::activate_rules(rules, settings, selection, unknown)) {
        if (a.enabled && fixed_by_repair.count(a.rule->id)) return true;
    }
    return false;
}

struct ModuleRun {
    std::string dir;
    std::string trusted_root;
    const lint::Settings* settings = nullptr;
    Engine engine = Engine::terraform;
    config::LoadedTree tree;
    std::set<std::string> only_files;
};

// The findings of one scan of the targets, and what the reports need besides.
struct Scan {
    lint::Findings findings;
    std::map<std::string, lint::Rule> catalogue;  // every rule that could report, for SARIF
    std::vector<std::string> catalogue_order;
    std::size_t files_scanned = 0;
    bool lock_repair_failed = false;  // a lock file could not be repaired (exit 1)
    bool lock_write_failed = false;   // writing a repaired lock file failed (exit 2)
    // Files and directories that exist but could not be read (each already
    // printed on stderr): the run ends with exit_failure.
    std::size_t read_failures = 0;
};

void print_read_failure(const std::string& message) {
    fmt::print(stderr, "tfsift: cannot read {}\n", report::escape_control_characters(message));
}

// The state file a module is compared with: --state, else terraform.tfstate
// in the module directory when there is anything by that name (a FIFO or a
// dangling link included, so that it is reported rather than skipped).
std::string state_file_for(const LintOptions& options, const std::string& dir) {
    if (!options.state.empty()) return options.state;
    fs::path candidate = fs::path(dir) / "terraform.tfstate";
    std::error_code ec;
    if (fs::exists(fs::symlink_status(candidate, ec))) return candidate.string();
    return {};
}

// Reads what the rules will read besides the configuration (the lock file
// and the state file) once up front, so that one that cannot be read stops
// the run with exit_failure instead of becoming a finding or nothing.
void check_module_inputs(const ModuleRun& run, const LintOptions& options, Scan& scan) {
    for (const auto& message : run.tree.read_failures) {
        print_read_failure(message);
        ++scan.read_failures;
    }
    const FileContent lock = read_regular_file(lint::lock_file_display_path(run.dir), run.tree.read_policy);
    if (!lock.ok() && lock.failure != ReadFailure::missing) {
        print_read_failure("the lock file " + lock.message);
        ++scan.read_failures;
    }
    const std::string state = state_file_for(options, run.dir);
    if (!state.empty()) {
        ReadPolicy policy = run.tree.read_policy;
        if (!options.state.empty()) policy.root.clear();  // named by the user: it may lie anywhere
        const FileContent content = read_regular_file(state, policy);
        if (!content.ok()) {
            print_read_failure("the state file " + content.message);
            ++scan.read_failures;
        }
    }
}

// Loads and lints every target, `--jobs` modules at once. Loading and linting
// one module does not depend on another, so each runs on its own; results are
// kept per module and joined in the targets' order, so the findings are the
// same whatever the number of jobs. Returns 0, or 2 after printing why not.
// With `repair_locks`, the lock files of root modules are repaired after
// loading and before linting, so the report shows what is left; a repair that
// fails sets `scan.lock_repair_failed`, a failed write `scan.lock_write_failed`.
int scan_targets(const std::map<std::string, Target>& targets, const std::map<std::string, std::string>& display_dir,
                 SettingsCache& settings_cache, const LintOptions& options, bool repair_locks, Scan& scan) {
    unsigned jobs = options.jobs > 0 ? options.jobs : available_processors();
    // Settings and engine first (they print errors), then load in parallel.
    std::vector<ModuleRun> runs;
    for (const auto& [abs, target] : targets) {
        ModuleRun run;
        run.dir = display_dir.at(abs);
        run.trusted_root = target.trusted_root;
        run.settings = settings_cache.for_dir(run.dir);
        if (run.settings == nullptr) return exit_failure;
        if (!options.engine.empty()) {
            run.engine = options.engine == "opentofu" ? Engine::opentofu : Engine::terraform;
        } else if (run.settings->engine) {
            run.engine = *run.settings->engine;
        } else {
            run.engine = lint::detect_engine(run.dir);
        }
        if (!target.only_files.count("")) run.only_files = target.only_files;
        runs.push_back(std::move(run));
    }
    parallel_for(runs.size(), jobs, [&runs](std::size_t i) {
        runs[i].tree = lint::load_for_lint(runs[i].dir, runs[i].engine, *runs[i].settings, runs[i].trusted_root);
    });
    for (const auto& run : runs) {
        if (!run.tree.root) {
            print_read_failure(run.dir);
            return exit_failure;
        }
        scan.files_scanned += run.tree.root->files.size();
        check_module_inputs(run, options, scan);
    }

    // A module's role comes from every local caller in its repository, not
    // from what this scan happens to include (lint/module_roles.hpp).
    auto is_called = [](const ModuleRun& run) {
        return lint::repository_module_role(run.dir, *run.settings, run.trusted_root) == lint::ModuleRole::called;
    };

    if (repair_locks) {
        for (const auto& run : runs) {
            if (is_called(run)) continue;
            if (!lock_repair_selected(*run.settings, options.selection)) continue;
            std::string state = state_file_for(options, run.dir);
            const int status = fix_module_lock_file(run.dir, run.tree, run.engine, *run.settings, state,
                                                    options.offline || offline_forced());
            if (status == 1) scan.lock_repair_failed = true;
            if (status == 2) scan.lock_write_failed = true;
        }
    }

    // Rule activation (each distinct settings object gets its rule list once),
    // then the lint itself in parallel.
    std::map<const lint::Settings*, std::vector<lint::Rule>> rules_of;
    std::vector<std::vector<lint::ActiveRule>> active(runs.size());
    std::vector<lint::LintContext> contexts(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const ModuleRun& run = runs[i];
        auto [it, added] = rules_of.try_emplace(run.settings);
        if (added) {
            it->second = lint::rules_for(*run.settings);
            for (const auto& r : it->second) {
                if (scan.catalogue.emplace(r.id, r).second) scan.catalogue_order.push_back(r.id);
            }
        }
        std::vector<std::string> unknown;
        active[i] = lint::activate_rules(it->second, *run.settings, options.selection, unknown);
        if (!unknown.empty()) {
            std::vector<std::string> ids;
            for (const auto& r : it->second) ids.push_back(r.id);
            fmt::print(stderr, "tfsift: unknown rule {}{}\n", report::escape_control_characters(unknown.front()),
                       report::escape_control_characters(lint::did_you_mean(unknown.front(), ids)));
            return exit_failure;
        }
        lint::LintContext& ctx = contexts[i];
        ctx.module_dir = run.dir;
        ctx.tree = &run.tree;
        ctx.engine = run.engine;
        ctx.settings = run.settings;
        ctx.state_file = state_file_for(options, run.dir);
        ctx.state_file_given = !options.state.empty();
        ctx.role = is_called(run) ? lint::ModuleRole::called : lint::ModuleRole::root;
    }
    std::vector<lint::Findings> per_module(runs.size());
    parallel_for(runs.size(), jobs, [&](std::size_t i) {
        for (auto& f : lint::lint_module(contexts[i], active[i], *runs[i].settings)) {
            if (!runs[i].only_files.empty() && !runs[i].only_files.count(lint::absolute_normal_path(f.file->path()))) {
                continue;
            }
            per_module[i].push_back(std::move(f));
        }
    });
    for (auto& module_findings : per_module) {
        for (auto& f : module_findings) scan.findings.push_back(std::move(f));
    }
    lint::sort_findings(scan.findings);
    return 0;
}

}  // namespace

namespace {

// The report as text; nullopt after saying why when it could not be made
// (out of memory for a huge report, say).
std::optional<std::string> render_report(report::Format format, const report::ReportInput& input) {
    try {
        std::ostringstream buf;
        // A stream that cannot grow sets badbit and stops writing; without
        // this the report would come out cut short, and the run succeed.
        buf.exceptions(std::ios::badbit);
        report::write_report(format, input, buf);
        if (!buf) throw std::bad_alloc();
        return std::move(buf).str();
    } catch (const std::bad_alloc&) {
        std::fputs("tfsift: out of memory while writing the report\n", stderr);
    } catch (const std::exception& e) {
        fmt::print(stderr, "tfsift: cannot write the {} report: {}\n", report::to_string(format), e.what());
    }
    return std::nullopt;
}

}  // namespace

namespace {

// --diff: the unified diff of what --fix would change; exit 1 when it would
// change something (as `diff` does), 0 when not.
int print_fix_diff(const lint::Findings& findings, const LintOptions& options) {
    auto mode = options.unsafe_fixes ? lint::FixMode::include_unsafe : lint::FixMode::safe_only;
    const lint::FixPlan plan = lint::plan_fixes(findings, mode);
    std::string out;
    for (const auto& [path, text] : plan.new_text) out += lint::unified_diff(path, plan.old_text.at(path), text);
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) return finish_standard_output(exit_failure, errno);
    if (!options.quiet) {
        fmt::print(stderr, "Would fix {} finding{} in {} file{}\n", plan.findings_fixed,
                   plan.findings_fixed == 1 ? "" : "s", plan.new_text.size(), plan.new_text.size() == 1 ? "" : "s");
    }
    return finish_standard_output(plan.new_text.empty() ? exit_clean : exit_findings);
}

// --fix says what it changed: each fix on stderr, and with --show-fixes the
// diff of each file written on stdout.
void report_fixes_made(const lint::FixPlan& plan, const lint::FixWriteResult& written, const LintOptions& options) {
    if (options.quiet) return;
    const std::set<std::string> changed(written.written.begin(), written.written.end());
    for (const auto& line : plan.applied) {
        const std::string path = line.substr(0, line.find(':'));
        std::string_view shown = line;
        while (shown.substr(0, 2) == "./") shown.remove_prefix(2);
        if (changed.count(path)) fmt::print(stderr, "Fixed {}\n", report::escape_control_characters(shown));
    }
    if (!options.show_fixes) return;
    for (const auto& path : written.written) {
        const std::string diff = lint::unified_diff(path, plan.old_text.at(path), plan.new_text.at(path));
        std::fwrite(diff.data(), 1, diff.size(), stdout);
    }
}

// --add-ignore: 1 when files were changed, 0 when there was nothing to add,
// exit_failure when a file could not be written (after saying why).
int add_ignore_comments(const lint::Findings& findings, const LintOptions& options) {
    const lint::AddIgnorePlan plan = lint::plan_add_ignores(findings, options.ignore_reason);
    const lint::FixWriteResult written = lint::write_fixes(plan.edits);
    for (const auto& e : written.errors) fmt::print(stderr, "tfsift: {}\n", report::escape_control_characters(e));
    if (!options.quiet) {
        fmt::print(stderr, "Added {} ignore comment{} for {} finding{} in {} file{}", plan.comments,
                   plan.comments == 1 ? "" : "s", plan.findings_covered, plan.findings_covered == 1 ? "" : "s",
                   written.written.size(), written.written.size() == 1 ? "" : "s");
        if (plan.findings_skipped > 0) {
            fmt::print(stderr, "; {} finding{} cannot take an inline comment (JSON or lock files, heredocs, "
                               "syntax-error, unused-ignore)",
                       plan.findings_skipped, plan.findings_skipped == 1 ? "" : "s");
        }
        fmt::print(stderr, "\n");
    }
    if (!written.errors.empty()) return exit_failure;
    return written.written.empty() ? 0 : 1;
}

std::string baseline_dir_of(const std::string& file) {
    std::string dir = fs::path(lint::absolute_normal_path(file)).parent_path().string();
    return dir.empty() ? "/" : dir;
}

// --write-baseline FILE, written atomically; false after saying why not.
bool write_baseline_file(const lint::Findings& findings, const LintOptions& options) {
    const auto entries = lint::baseline_entries(findings, baseline_dir_of(options.write_baseline));
    auto written = atomic_write_file(options.write_baseline, lint::render_baseline(entries));
    if (!written.ok()) {
        fmt::print(stderr, "tfsift: cannot write {}: {}\n", report::escape_control_characters(options.write_baseline),
                   written.error);
        return false;
    }
    if (!options.quiet) {
        fmt::print(stderr, "Recorded {} finding{} in {}\n", entries.size(), entries.size() == 1 ? "" : "s",
                   report::escape_control_characters(options.write_baseline));
    }
    return true;
}

// --baseline FILE: drops the findings it records; false after saying why the
// file cannot be used.
bool apply_baseline_file(lint::Findings& findings, const LintOptions& options) {
    const FileContent content = read_regular_file(options.baseline, ReadPolicy{});
    if (!content.ok()) {
        print_read_failure("the baseline " + content.message);
        return false;
    }
    const lint::BaselineParse parsed = lint::parse_baseline(content.bytes);
    if (!parsed.ok()) {
        fmt::print(stderr, "{}:{}: error: {}\n", report::escape_control_characters(options.baseline),
                   parsed.error.substr(0, parsed.error.find(": ")),
                   parsed.error.substr(parsed.error.find(": ") + 2));
        return false;
    }
    const std::size_t dropped = lint::filter_baseline(findings, parsed.entries, baseline_dir_of(options.baseline));
    if (!options.quiet && dropped > 0) {
        fmt::print(stderr, "{} finding{} recorded in the baseline left out\n", dropped, dropped == 1 ? "" : "s");
    }
    return true;
}

}  // namespace

int run_lint(const LintOptions& options) {
    if (!options.chdir.empty()) {
        std::error_code ec;
        fs::current_path(options.chdir, ec);
        if (ec) {
            fmt::print(stderr, "tfsift: cannot change to {}: {}\n", options.chdir, ec.message());
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
            fmt::print(stderr, "tfsift: --output takes FORMAT:PATH with FORMAT one of text, json, sarif, checkstyle, "
                               "junit, compact (got \"{}\")\n", o);
            return exit_failure;
        }
        outputs.push_back({*format, o.substr(colon + 1)});
    }
    if (!options.state.empty()) {
        // Named by the user, so read wherever it lies, but only a regular
        // file: a state that cannot be read is an error, not a finding.
        const FileContent state = read_regular_file(options.state, ReadPolicy{});
        if (!state.ok()) {
            print_read_failure("the state file " + state.message);
            return exit_failure;
        }
    }

    // Targets: directories are modules (or roots of modules with --recursive);
    // files lint their module and report only themselves.
    const bool offline = options.offline || offline_forced();
    SettingsCache settings_cache(options.config, offline ? std::optional<bool>(false)
                                                 : options.online ? std::optional<bool>(true)
                                                                  : std::nullopt);
    std::vector<std::string> paths = options.paths;
    if (paths.empty()) paths.emplace_back(".");
    std::map<std::string, Target> targets;  // by absolute directory
    std::map<std::string, std::string> display_dir;  // absolute -> as the user named it
    std::size_t unreadable_dirs = 0;
    for (const auto& path : paths) {
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) {
            std::string dir = fs::path(path).parent_path().string();
            if (dir.empty()) dir = ".";
            std::string abs = lint::absolute_normal_path(dir);
            display_dir.emplace(abs, dir);
            targets[abs].dir = abs;
            targets[abs].only_files.insert(lint::absolute_normal_path(path));
            if (targets[abs].trusted_root.empty()) targets[abs].trusted_root = trusted_root_of(dir);
        } else if (fs::is_directory(path, ec)) {
            const lint::Settings* settings = settings_cache.for_dir(path);
            if (settings == nullptr) return exit_failure;
            std::vector<std::string> dirs;
            if (options.recursive) {
                std::vector<std::string> problems;
                dirs = lint::find_module_dirs(path, *settings, problems);
                if (!options.no_gitignore) dirs = lint::drop_gitignored(dirs, lint::find_repository_root(path));
                for (const auto& p : problems) print_read_failure(p);
                unreadable_dirs += problems.size();
            } else {
                dirs.push_back(path);
                if (lint::needs_recursive_hint(path, *settings)) {
                    fmt::print(stderr, "tfsift: {} has no configuration files, but directories below it do: use "
                                       "--recursive (-r) to lint them\n", report::escape_control_characters(path));
                }
            }
            const std::string root = trusted_root_of(path);
            for (const auto& d : dirs) {
                std::string abs = lint::absolute_normal_path(d);
                // `-r .` names `sub`, not `./sub`, as the directory alone does.
                display_dir.emplace(abs, d.size() > 2 && d.compare(0, 2, "./") == 0 ? d.substr(2) : d);
                auto& t = targets[abs];
                t.dir = abs;
                t.only_files.clear();  // the whole module was asked for
                t.only_files.insert("");  // marker: report everything
                if (t.trusted_root.empty()) t.trusted_root = root;
            }
        } else {
            fmt::print(stderr, "tfsift: {}: no such file or directory\n", report::escape_control_characters(path));
            return exit_failure;
        }
    }

    Scan scan;
    bool fix_failed = false;  // a file could not be fixed: exit 2 after the report
    const bool fixing = (options.fix || options.unsafe_fixes) && !options.diff;
    if (int rc = scan_targets(targets, display_dir, settings_cache, options, fixing, scan); rc != 0) return rc;
    if (options.diff) return print_fix_diff(scan.findings, options);
    const bool lock_repair_failed = scan.lock_repair_failed;
    const bool lock_write_failed = scan.lock_write_failed;
    const std::size_t read_failures = scan.read_failures;
    if (fixing) {
        auto mode = options.unsafe_fixes ? lint::FixMode::include_unsafe : lint::FixMode::safe_only;
        auto plan = lint::plan_fixes(scan.findings, mode);
        auto written = lint::write_fixes(plan);
        for (const auto& e : written.errors) fmt::print(stderr, "tfsift: {}\n", report::escape_control_characters(e));
        report_fixes_made(plan, written, options);
        if (!options.quiet) {
            fmt::print(stderr, "Fixed {} finding{} in {} file{}\n", plan.findings_fixed,
                       plan.findings_fixed == 1 ? "" : "s", written.written.size(),
                       written.written.size() == 1 ? "" : "s");
        }
        if (!written.written.empty()) {
            // Report what remains, from the files as they are now.
            scan = Scan{};
            if (int rc = scan_targets(targets, display_dir, settings_cache, options, false, scan); rc != 0) return rc;
        }
        fix_failed = !written.errors.empty();
    }
    if (options.add_ignore) {
        const int rc = add_ignore_comments(scan.findings, options);
        if (rc == exit_failure) fix_failed = true;
        if (rc == 1) {
            // Report what remains, from the files as they are now.
            scan = Scan{};
            if (int status = scan_targets(targets, display_dir, settings_cache, options, false, scan); status != 0) {
                return status;
            }
        }
    }
    if (!options.write_baseline.empty() && !write_baseline_file(scan.findings, options)) return exit_failure;
    if (!options.baseline.empty() && !apply_baseline_file(scan.findings, options)) return exit_failure;
    lint::Findings& findings = scan.findings;
    auto& catalogue = scan.catalogue;
    auto& catalogue_order = scan.catalogue_order;
    std::size_t files_scanned = scan.files_scanned;

    // Findings decide between 0 and 1, and so does a lock file --fix could
    // not repair (its findings say why); anything that could not be read or
    // written makes it 2 (cli/exit_status.hpp).
    int exit_code = lock_repair_failed ? exit_findings : exit_clean;
    for (const auto& f : findings) {
        if (static_cast<int>(f.severity) <= static_cast<int>(*min_severity)) exit_code = exit_findings;
    }
    if (options.exit_zero && exit_code == exit_findings) exit_code = exit_clean;
    const bool io_failed = fix_failed || lock_write_failed || read_failures > 0 || unreadable_dirs > 0;
    if (io_failed) exit_code = exit_failure;

    std::vector<lint::Rule> rules;
    if (catalogue.empty()) rules = lint::rules_for(lint::Settings{});
    for (const auto& id : catalogue_order) rules.push_back(catalogue.at(id));
    std::string cwd = fs::current_path().generic_string();
    report::ReportInput input{findings, rules};
    // SARIF paths are relative to the repository of what was linted (the first
    // target's), which need not be the working directory's.
    input.repository_root = report::find_repository_root(targets.empty() ? cwd : targets.begin()->first);
    // Snippets only from files inside the roots the targets were read under.
    for (const auto& [abs, target] : targets) {
        if (std::find(input.trusted_roots.begin(), input.trusted_roots.end(), target.trusted_root) ==
            input.trusted_roots.end()) {
            input.trusted_roots.push_back(target.trusted_root);
        }
    }
    input.working_dir = cwd;
    input.files_scanned = files_scanned;
    input.exit_code = exit_code;
    input.quiet = options.quiet;
    input.command_line = options.command_line;

    for (const auto& o : outputs) {
        report::ReportInput file_input = input;
        file_input.color = false;
        auto text = render_report(o.format, file_input);
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
    bool to_stdout = outputs.empty() || options.format_given;
    if (to_stdout) {
        input.color = format == report::Format::text && use_color(options.color);
        auto text = render_report(format, input);
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
    }
    // --online checks that could not be made are failures, not passes.
    const auto unchecked = online::failed_online_checks();
    for (const auto& e : unchecked) fmt::print(stderr, "tfsift: {}\n", report::escape_control_characters(e));
    return finish_standard_output(unchecked.empty() ? exit_code : exit_failure);
}

}  // namespace tfsift::cli
