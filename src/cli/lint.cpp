// `tfsift lint`: find the modules, load the settings, run the rules and write
// the reports.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <system_error>

#include "cli/commands.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/apply_fixes.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/settings.hpp"
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
    cmd.add_option("--enable", o.selection.enable, "Enable a rule (repeatable)")->allow_extra_args(false);
    cmd.add_option("--disable", o.selection.disable, "Disable a rule (repeatable)")->allow_extra_args(false);
    cmd.add_option("--only", o.selection.only, "Run only this rule (repeatable)")->allow_extra_args(false);
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
    cmd.add_flag("--unsafe-fixes", o.unsafe_fixes, "Apply unsafe fixes too, which may change the plan (implies --fix)");
    cmd.add_option("--jobs,-j", o.jobs, "Lint this many modules at once (default: the number of processors)")
        ->check(CLI::Range(1U, 4096U));
}

namespace {

// One module to lint and the files whose findings are reported (all when
// `only_files` is empty).
struct Target {
    std::string dir;
    std::set<std::string> only_files;  // absolute
};

// Settings files are read once, whichever targets share them.
class SettingsCache {
public:
    explicit SettingsCache(std::string explicit_file) : explicit_file_(std::move(explicit_file)) {}

    // Null after printing the errors of a broken settings file.
    const lint::Settings* for_dir(const std::string& dir) {
        std::string file = explicit_file_.empty() ? lint::find_settings_file(dir) : explicit_file_;
        auto it = loaded_.find(file);
        if (it == loaded_.end()) {
            auto result = std::make_unique<lint::SettingsResult>(file.empty() ? lint::SettingsResult{}
                                                                              : lint::load_settings(file));
            for (const auto& e : result->errors) fmt::print(stderr, "{}\n", e.to_string());
            it = loaded_.emplace(file, std::move(result)).first;
        }
        return it->second->ok() ? &it->second->settings : nullptr;
    }

private:
    std::string explicit_file_;
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
};

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
        run.settings = settings_cache.for_dir(run.dir);
        if (run.settings == nullptr) return 2;
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
        runs[i].tree = lint::load_for_lint(runs[i].dir, runs[i].engine, *runs[i].settings);
    });
    for (const auto& run : runs) {
        if (!run.tree.root) {
            fmt::print(stderr, "tfsift: cannot read {}\n", run.dir);
            return 2;
        }
        scan.files_scanned += run.tree.root->files.size();
    }

    // Modules that another module of the scan calls by a local path.
    std::set<std::string> called;
    for (const auto& run : runs) {
        std::string base = lint::absolute_normal_path(run.dir);
        std::vector<const config::LoadedModule*> todo{run.tree.root.get()};
        while (!todo.empty()) {
            const config::LoadedModule* m = todo.back();
            todo.pop_back();
            for (const auto& [name, child] : m->children) {
                called.insert(lint::absolute_normal_path(base + "/" + child.dir));
                todo.push_back(&child);
            }
        }
    }

    if (repair_locks) {
        for (const auto& run : runs) {
            if (called.count(lint::absolute_normal_path(run.dir))) continue;
            if (!lock_repair_selected(*run.settings, options.selection)) continue;
            std::string state = options.state;
            if (std::error_code ec; state.empty() && fs::is_regular_file(fs::path(run.dir) / "terraform.tfstate", ec)) {
                state = (fs::path(run.dir) / "terraform.tfstate").string();
            }
            const int status = fix_module_lock_file(run.dir, run.tree, run.engine, *run.settings, state);
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
            fmt::print(stderr, "tfsift: unknown rule {}\n", unknown.front());
            return 2;
        }
        lint::LintContext& ctx = contexts[i];
        ctx.module_dir = run.dir;
        ctx.tree = &run.tree;
        ctx.engine = run.engine;
        ctx.settings = run.settings;
        if (!options.state.empty()) {
            ctx.state_file = options.state;
        } else if (std::error_code ec; fs::is_regular_file(fs::path(run.dir) / "terraform.tfstate", ec)) {
            ctx.state_file = (fs::path(run.dir) / "terraform.tfstate").string();
        }
        ctx.role = called.count(lint::absolute_normal_path(run.dir)) ? lint::ModuleRole::called : lint::ModuleRole::root;
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

int run_lint(const LintOptions& options) {
    if (!options.chdir.empty()) {
        std::error_code ec;
        fs::current_path(options.chdir, ec);
        if (ec) {
            fmt::print(stderr, "tfsift: cannot change to {}: {}\n", options.chdir, ec.message());
            return 2;
        }
    }
    auto min_severity = parse_severity(options.minimum_failure_severity);
    if (!min_severity) {
        fmt::print(stderr, "tfsift: unknown severity {}\n", options.minimum_failure_severity);
        return 2;
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
            return 2;
        }
        outputs.push_back({*format, o.substr(colon + 1)});
    }
    if (!options.config.empty() && !fs::is_regular_file(options.config)) {
        fmt::print(stderr, "tfsift: settings file {} not found\n", options.config);
        return 2;
    }

    // Targets: directories are modules (or roots of modules with --recursive);
    // files lint their module and report only themselves.
    SettingsCache settings_cache(options.config);
    std::vector<std::string> paths = options.paths;
    if (paths.empty()) paths.emplace_back(".");
    std::map<std::string, Target> targets;  // by absolute directory
    std::map<std::string, std::string> display_dir;  // absolute -> as the user named it
    for (const auto& path : paths) {
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) {
            std::string dir = fs::path(path).parent_path().string();
            if (dir.empty()) dir = ".";
            std::string abs = lint::absolute_normal_path(dir);
            display_dir.emplace(abs, dir);
            targets[abs].dir = abs;
            targets[abs].only_files.insert(lint::absolute_normal_path(path));
        } else if (fs::is_directory(path, ec)) {
            const lint::Settings* settings = settings_cache.for_dir(path);
            if (settings == nullptr) return 2;
            std::vector<std::string> dirs;
            if (options.recursive) {
                dirs = lint::find_module_dirs(path, *settings);
            } else {
                dirs.push_back(path);
            }
            for (const auto& d : dirs) {
                std::string abs = lint::absolute_normal_path(d);
                display_dir.emplace(abs, d);
                auto& t = targets[abs];
                t.dir = abs;
                t.only_files.clear();  // the whole module was asked for
                t.only_files.insert("");  // marker: report everything
            }
        } else {
            fmt::print(stderr, "tfsift: {}: no such file or directory\n", path);
            return 2;
        }
    }

    Scan scan;
    bool fix_failed = false;  // a file could not be fixed: exit 2 after the report
    const bool fixing = options.fix || options.unsafe_fixes;
    if (int rc = scan_targets(targets, display_dir, settings_cache, options, fixing, scan); rc != 0) return rc;
    const bool lock_repair_failed = scan.lock_repair_failed;
    const bool lock_write_failed = scan.lock_write_failed;
    if (fixing) {
        auto mode = options.unsafe_fixes ? lint::FixMode::include_unsafe : lint::FixMode::safe_only;
        auto plan = lint::plan_fixes(scan.findings, mode);
        auto written = lint::write_fixes(plan);
        for (const auto& e : written.errors) fmt::print(stderr, "tfsift: {}\n", e);
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
    lint::Findings& findings = scan.findings;
    auto& catalogue = scan.catalogue;
    auto& catalogue_order = scan.catalogue_order;
    std::size_t files_scanned = scan.files_scanned;

    int exit_code = lock_repair_failed ? 1 : 0;
    for (const auto& f : findings) {
        if (static_cast<int>(f.severity) <= static_cast<int>(*min_severity)) exit_code = 1;
    }

    std::vector<lint::Rule> rules;
    if (catalogue.empty()) rules = lint::rules_for(lint::Settings{});
    for (const auto& id : catalogue_order) rules.push_back(catalogue.at(id));
    std::string cwd = fs::current_path().generic_string();
    report::ReportInput input{findings, rules};
    // SARIF paths are relative to the repository of what was linted (the first
    // target's), which need not be the working directory's.
    input.repository_root = report::find_repository_root(targets.empty() ? cwd : targets.begin()->first);
    input.working_dir = cwd;
    input.files_scanned = files_scanned;
    input.exit_code = exit_code;
    input.quiet = options.quiet;
    input.command_line = options.command_line;

    for (const auto& o : outputs) {
        std::ofstream out(o.path, std::ios::binary);
        report::ReportInput file_input = input;
        file_input.color = false;
        report::write_report(o.format, file_input, out);
        out.flush();
        if (!out) {
            fmt::print(stderr, "tfsift: cannot write {}\n", o.path);
            return 2;
        }
    }
    auto format = report::parse_format(options.format).value_or(report::Format::text);
    bool to_stdout = outputs.empty() || options.format_given;
    if (to_stdout) {
        input.color = format == report::Format::text && use_color(options.color);
        std::ostringstream buf;
        report::write_report(format, input, buf);
        fmt::print("{}", buf.str());
    }
    if (options.statistics) {
        std::ostringstream buf;
        report::write_statistics(findings, buf);
        // Keep machine-readable output on stdout parseable.
        bool machine = to_stdout && format != report::Format::text && format != report::Format::compact;
        fmt::print(machine ? stderr : stdout, "{}", buf.str());
    }
    std::fflush(stdout);
    return fix_failed || lock_write_failed ? 2 : exit_code;
}

}  // namespace tfsift::cli
