#include "tfsift/lint/session.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <system_error>

#include "tfsift/config/load_counters.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/online/lock_verification.hpp"
#include "tfsift/parallel_for.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The loaders' counters at one moment (other sessions of the process, if
// any, count too).
struct LoadSnapshot {
    explicit LoadSnapshot(const config::LoadCounters& c)
        : modules_loaded(c.modules_loaded.load()), modules_reused(c.modules_reused.load()), files_read(c.files_read.load()), bytes_read(c.bytes_read.load()),
          read_ns(c.read_ns.load()), parse_ns(c.parse_ns.load()), decode_ns(c.decode_ns.load()),
          merge_ns(c.merge_ns.load()) {}
    std::uint64_t modules_loaded;
    std::uint64_t modules_reused;
    std::uint64_t files_read;
    std::uint64_t bytes_read;
    std::uint64_t read_ns;
    std::uint64_t parse_ns;
    std::uint64_t decode_ns;
    std::uint64_t merge_ns;
};

double seconds_between(std::uint64_t from_ns, std::uint64_t to_ns) { return static_cast<double>(to_ns - from_ns) / 1e9; }

// Sends each message to the request's sink and keeps it in the result.
class Messenger {
public:
    Messenger(const MessageSink& sink, LintResult& result) : sink_(sink), result_(result) {}

    void send(MessageKind kind, std::string text) {
        if (sink_) sink_(kind, text);
        result_.messages.emplace_back(kind, std::move(text));
    }
    void error(std::string text) { send(MessageKind::error, std::move(text)); }
    void cannot_read(const std::string& what) { error("tfsift: cannot read " + what); }

private:
    const MessageSink& sink_;
    LintResult& result_;
};

// One module to lint and the files whose findings are reported (all when
// `only_files` holds "").
struct Target {
    std::string dir;                    // as the user named it
    std::set<std::string> only_files;   // absolute
    // Files must resolve inside it: the repository root of the path named
    // on the command line, else that path itself.
    std::string trusted_root;
};

using Targets = std::map<std::string, Target>;  // by absolute directory

// Settings files are read once, whichever targets share them.
class SettingsCache {
public:
    SettingsCache(std::string explicit_file, std::optional<bool> online, std::span<const Rule> catalogue,
                  Messenger& say)
        : explicit_file_(std::move(explicit_file)), online_(online), catalogue_(catalogue), say_(say) {}

    // Null after reporting the errors of a broken settings file.
    const Settings* for_dir(const std::string& dir) {
        std::string file = explicit_file_.empty() ? find_settings_file(dir) : explicit_file_;
        auto it = loaded_.find(file);
        if (it == loaded_.end()) {
            auto result = std::make_unique<SettingsResult>(
                file.empty() ? SettingsResult{} : load_settings(file, !explicit_file_.empty(), catalogue_));
            for (const auto& e : result->errors) say_.error(e.to_string());
            if (online_) result->settings.online = *online_;
            it = loaded_.emplace(file, std::move(result)).first;
        }
        return it->second->ok() ? &it->second->settings : nullptr;
    }

private:
    std::string explicit_file_;
    std::optional<bool> online_;  // --online / --offline / TFSIFT_OFFLINE beat the files
    std::span<const Rule> catalogue_;
    Messenger& say_;
    std::map<std::string, std::unique_ptr<SettingsResult>> loaded_;
};

// Directories are modules (or roots of modules with `recursive`); files lint
// their module and report only themselves. False after reporting a path that
// does not exist or a broken settings file.
bool resolve_targets(const LintRequest& request, SettingsCache& settings_cache, Messenger& say, Targets& targets,
                     std::size_t& unreadable_dirs) {
    std::vector<std::string> paths = request.paths;
    if (paths.empty()) paths.emplace_back(".");
    for (const auto& path : paths) {
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) {
            std::string dir = fs::path(path).parent_path().string();
            if (dir.empty()) dir = ".";
            Target& t = targets[absolute_normal_path(dir)];
            if (t.dir.empty()) t.dir = dir;
            t.only_files.insert(absolute_normal_path(path));
            if (t.trusted_root.empty()) t.trusted_root = trusted_root_of(dir);
        } else if (fs::is_directory(path, ec)) {
            const Settings* settings = settings_cache.for_dir(path);
            if (settings == nullptr) return false;
            std::vector<std::string> dirs;
            if (request.recursive) {
                std::vector<std::string> problems;
                dirs = find_module_dirs(path, *settings, problems);
                for (const auto& p : problems) say.cannot_read(p);
                unreadable_dirs += problems.size();
            } else {
                dirs.push_back(path);
            }
            const std::string root = trusted_root_of(path);
            for (const auto& d : dirs) {
                Target& t = targets[absolute_normal_path(d)];
                if (t.dir.empty()) t.dir = d;
                t.only_files.clear();     // the whole module was asked for
                t.only_files.insert("");  // marker: report everything
                if (t.trusted_root.empty()) t.trusted_root = root;
            }
        } else {
            say.error(fmt::format("tfsift: {}: no such file or directory", path));
            return false;
        }
    }
    return true;
}

// The state file a module is compared with: the request's, else
// terraform.tfstate in the module directory when there is anything by that
// name (a FIFO or a dangling link included, so that it is reported rather
// than skipped).
std::string state_file_for(const LintRequest& request, const std::string& dir) {
    if (!request.state_file.empty()) return request.state_file;
    fs::path candidate = fs::path(dir) / "terraform.tfstate";
    std::error_code ec;
    if (fs::exists(fs::symlink_status(candidate, ec))) return candidate.string();
    return {};
}

struct ModuleRun {
    std::string dir;
    std::string trusted_root;
    const Settings* settings = nullptr;
    Engine engine = Engine::terraform;
    config::LoadedTree tree;
    std::set<std::string> only_files;
    std::string state_file;
};

// The findings of one scan of the targets, and what the result needs besides.
struct Scan {
    SessionTimes times;
    Findings findings;
    std::map<std::string, Rule> catalogue;  // every rule that could report, for SARIF
    std::vector<std::string> catalogue_order;
    std::vector<std::string> modules;
    std::vector<std::string> files;
    bool lock_repair_failed = false;
    bool lock_write_failed = false;
    std::size_t read_failures = 0;
};

// Reads what the rules will read besides the configuration (the lock file
// and the state file) once up front, so that one that cannot be read stops
// the run with a failure instead of becoming a finding or nothing.
void check_module_inputs(const ModuleRun& run, const LintRequest& request, Messenger& say, Scan& scan) {
    for (const auto& message : run.tree.read_failures) {
        say.cannot_read(message);
        ++scan.read_failures;
    }
    const FileContent lock = read_regular_file(lock_file_display_path(run.dir), run.tree.read_policy);
    if (!lock.ok() && lock.failure != ReadFailure::missing) {
        say.cannot_read("the lock file " + lock.message);
        ++scan.read_failures;
    }
    if (!run.state_file.empty()) {
        ReadPolicy policy = run.tree.read_policy;
        if (!request.state_file.empty()) policy.root.clear();  // named by the user: it may lie anywhere
        const FileContent content = read_regular_file(run.state_file, policy);
        if (!content.ok()) {
            say.cannot_read("the state file " + content.message);
            ++scan.read_failures;
        }
    }
}

// The absolute directories of the modules that a module of the run calls by
// a local path.
std::set<std::string> called_modules(const std::vector<ModuleRun>& runs) {
    std::set<std::string> called;
    for (const auto& run : runs) {
        std::string base = absolute_normal_path(run.dir);
        std::vector<const config::LoadedModule*> todo{run.tree.root.get()};
        while (!todo.empty()) {
            const config::LoadedModule* m = todo.back();
            todo.pop_back();
            for (const auto& [name, child] : m->children) {
                called.insert(absolute_normal_path(base + "/" + child.dir));
                todo.push_back(&child);
            }
        }
    }
    return called;
}

// Loads and lints every target, `jobs` modules at once. Loading and linting
// one module does not depend on another, so each runs on its own; results are
// kept per module and joined in the targets' order, so the findings are the
// same whatever the number of jobs. False after reporting why the run cannot
// go on. With `repair_locks`, the lock files of root modules are repaired
// after loading and before linting, so that the findings show what is left.
bool scan_targets(const Targets& targets, SettingsCache& settings_cache, const LintRequest& request,
                  bool repair_locks, Messenger& say, Scan& scan) {
    const unsigned jobs = request.jobs > 0 ? request.jobs : available_processors();
    auto started = Clock::now();
    // Settings and engine first (they report errors), then load in parallel.
    std::vector<ModuleRun> runs;
    runs.reserve(targets.size());
    for (const auto& [abs, target] : targets) {
        ModuleRun run;
        run.dir = target.dir;
        run.trusted_root = target.trusted_root;
        run.settings = settings_cache.for_dir(run.dir);
        if (run.settings == nullptr) return false;
        run.engine = resolve_engine(request.engine, *run.settings, run.dir);
        if (!target.only_files.count("")) run.only_files = target.only_files;
        run.state_file = state_file_for(request, run.dir);
        runs.push_back(std::move(run));
    }
    scan.times.targets += seconds_since(started);
    started = Clock::now();
    const config::LoadCounters& counters = config::load_counters();
    const LoadSnapshot before(counters);
    parallel_for(runs.size(), jobs, [&runs](std::size_t i) {
        runs[i].tree = load_for_lint(runs[i].dir, runs[i].engine, *runs[i].settings, runs[i].trusted_root);
    });
    scan.times.load = seconds_since(started);
    const LoadSnapshot after(counters);
    scan.times.read = seconds_between(before.read_ns, after.read_ns);
    scan.times.parse = seconds_between(before.parse_ns, after.parse_ns);
    scan.times.decode = seconds_between(before.decode_ns, after.decode_ns);
    scan.times.merge = seconds_between(before.merge_ns, after.merge_ns);
    scan.times.modules_loaded = after.modules_loaded - before.modules_loaded;
    scan.times.modules_reused = after.modules_reused - before.modules_reused;
    scan.times.files_read = after.files_read - before.files_read;
    scan.times.bytes_read = after.bytes_read - before.bytes_read;
    for (const auto& run : runs) {
        if (!run.tree.root) {
            say.cannot_read(run.dir);
            return false;
        }
        scan.modules.push_back(run.dir);
        for (const auto& f : run.tree.root->files) scan.files.push_back(f.parsed->source->path());
        check_module_inputs(run, request, say, scan);
    }
    const std::set<std::string> called = called_modules(runs);

    // Rule activation: each distinct settings object gets its rule list once.
    std::map<const Settings*, std::vector<Rule>> rules_of;
    std::vector<std::vector<ActiveRule>> active(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto [it, added] = rules_of.try_emplace(runs[i].settings);
        if (added) {
            it->second = rules_for(*runs[i].settings, request.catalogue);
            for (const auto& r : it->second) {
                if (scan.catalogue.emplace(r.id, r).second) scan.catalogue_order.push_back(r.id);
            }
        }
        std::vector<std::string> unknown;
        active[i] = activate_rules(it->second, *runs[i].settings, request.selection, unknown);
        if (!unknown.empty()) {
            say.error("tfsift: unknown rule " + unknown.front());
            return false;
        }
    }

    if (repair_locks) {
        started = Clock::now();
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const ModuleRun& run = runs[i];
            if (called.count(absolute_normal_path(run.dir)) || !lock_repair_selected(active[i])) continue;
            auto outcome = repair_module_lock_file(run.dir, run.tree, run.engine, *run.settings, run.state_file,
                                                   request.offline,
                                                   [&say](std::string line) { say.send(MessageKind::lock_repair, std::move(line)); });
            if (outcome == LockFixOutcome::not_repaired) scan.lock_repair_failed = true;
            if (outcome == LockFixOutcome::failed) scan.lock_write_failed = true;
        }
        scan.times.fix += seconds_since(started);
    }

    std::vector<LintContext> contexts(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const ModuleRun& run = runs[i];
        LintContext& ctx = contexts[i];
        ctx.module_dir = run.dir;
        ctx.tree = &run.tree;
        ctx.engine = run.engine;
        ctx.settings = run.settings;
        ctx.state_file = run.state_file;
        ctx.state_file_given = !request.state_file.empty();
        ctx.role = called.count(absolute_normal_path(run.dir)) ? ModuleRole::called : ModuleRole::root;
    }
    started = Clock::now();
    std::vector<Findings> per_module(runs.size());
    parallel_for(runs.size(), jobs, [&](std::size_t i) {
        for (auto& f : lint_module(contexts[i], active[i], *runs[i].settings)) {
            if (!runs[i].only_files.empty() && !runs[i].only_files.count(absolute_normal_path(f.file->path()))) {
                continue;
            }
            per_module[i].push_back(std::move(f));
        }
        // The findings hold the sources they point into; the syntax trees
        // and the decoded modules are not needed any more.
        runs[i].tree = config::LoadedTree{};
    });
    for (auto& module_findings : per_module) {
        for (auto& f : module_findings) scan.findings.push_back(std::move(f));
    }
    sort_findings(scan.findings);
    scan.times.rules = seconds_since(started);
    return true;
}

}  // namespace

LintResult run_session(const LintRequest& request) {
    LintResult result;
    Messenger say(request.on_message, result);
    if (request.catalogue.empty()) {
        say.error("tfsift: no rule catalogue: the request names no rules to check against");
        return result;
    }
    if (!request.state_file.empty()) {
        // Named by the user, so read wherever it lies, but only a regular
        // file: a state that cannot be read is an error, not a finding.
        const FileContent state = read_regular_file(request.state_file, ReadPolicy{});
        if (!state.ok()) {
            say.cannot_read("the state file " + state.message);
            return result;
        }
    }
    SettingsCache settings_cache(request.settings_file,
                                 request.offline ? std::optional<bool>(false) : request.online, request.catalogue,
                                 say);
    Targets targets;
    std::size_t unreadable_dirs = 0;
    if (!resolve_targets(request, settings_cache, say, targets, unreadable_dirs)) return result;

    Scan scan;
    if (!scan_targets(targets, settings_cache, request, request.fix.has_value(), say, scan)) return result;
    result.lock_repair_failed = scan.lock_repair_failed;
    result.lock_write_failed = scan.lock_write_failed;
    result.read_failures = scan.read_failures + unreadable_dirs;
    if (request.fix) {
        const auto started = Clock::now();
        auto plan = plan_fixes(scan.findings, *request.fix);
        auto written = write_fixes(plan);
        for (const auto& e : written.errors) say.error("tfsift: " + e);
        result.findings_fixed = plan.findings_fixed;
        result.files_fixed = written.written.size();
        say.send(MessageKind::fix_summary,
                 fmt::format("Fixed {} finding{} in {} file{}", plan.findings_fixed, plan.findings_fixed == 1 ? "" : "s",
                             written.written.size(), written.written.size() == 1 ? "" : "s"));
        const double fix_time = scan.times.fix + seconds_since(started);
        if (!written.written.empty()) {
            // What remains, from the files as they are now.
            scan = Scan{};
            if (!scan_targets(targets, settings_cache, request, false, say, scan)) return result;
        }
        scan.times.fix = fix_time;
        result.fix_write_failed = !written.errors.empty();
    }

    result.completed = true;
    result.findings = std::move(scan.findings);
    if (scan.catalogue.empty()) {
        result.catalogue = rules_for(Settings{}, request.catalogue);
    } else {
        for (const auto& id : scan.catalogue_order) result.catalogue.push_back(std::move(scan.catalogue.at(id)));
    }
    result.modules = std::move(scan.modules);
    result.files = std::move(scan.files);
    for (const auto& [abs, target] : targets) {
        result.target_dirs.push_back(abs);
        if (std::find(result.trusted_roots.begin(), result.trusted_roots.end(), target.trusted_root) ==
            result.trusted_roots.end()) {
            result.trusted_roots.push_back(target.trusted_root);
        }
    }
    result.online_check_failures = online::failed_online_checks();
    result.times = scan.times;
    return result;
}

}  // namespace tfsift::lint
