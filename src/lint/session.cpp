#include "tfsift/lint/session.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <tuple>

#include "tfsift/atomic_write.hpp"
#include "tfsift/config/load_counters.hpp"
#include "tfsift/config/mock_data_module.hpp"
#include "tfsift/config/module_tree.hpp"
#include "tfsift/config/test_directory.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/add_ignore.hpp"
#include "tfsift/lint/baseline.hpp"
#include "tfsift/lint/directory_probe.hpp"
#include "tfsift/lint/gitignore.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/module_resolution.hpp"
#include "tfsift/lint/module_roles.hpp"
#include "tfsift/lint/repository_root.hpp"
#include "tfsift/lint/rule_suggestion.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/online/lock_verification.hpp"
#include "tfsift/parallel_for.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/state_file.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

namespace {

using Clock = std::chrono::steady_clock;

// The rule that reports module calls that could not be loaded as findings.
// It is off by default; while it is off, each such call of a linted module
// is a notice on stderr instead (docs/modules.md says why).
constexpr std::string_view not_loaded_rule_id = "module-not-loaded";

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::uint64_t nanoseconds_since(Clock::time_point start) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

// The loaders' counters at one moment (other sessions of the process, if
// any, count too).
struct LoadSnapshot {
    explicit LoadSnapshot(const config::LoadCounters& c)
        : modules_loaded(c.modules_loaded.load()),
          modules_reused(c.modules_reused.load()),
          files_read(c.files_read.load()),
          bytes_read(c.bytes_read.load()),
          read_ns(c.read_ns.load()),
          parse_ns(c.parse_ns.load()),
          decode_ns(c.decode_ns.load()),
          merge_ns(c.merge_ns.load()),
          role_scan_files_read(c.role_scan_files_read.load()),
          role_scan_bytes_read(c.role_scan_bytes_read.load()) {}
    std::uint64_t modules_loaded;
    std::uint64_t modules_reused;
    std::uint64_t files_read;
    std::uint64_t bytes_read;
    std::uint64_t read_ns;
    std::uint64_t parse_ns;
    std::uint64_t decode_ns;
    std::uint64_t merge_ns;
    std::uint64_t role_scan_files_read;
    std::uint64_t role_scan_bytes_read;
};

double seconds_between(std::uint64_t from_ns, std::uint64_t to_ns) {
    return static_cast<double>(to_ns - from_ns) / 1e9;
}

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

// The threads a request asks for: its `jobs`, else one per processor.
unsigned jobs_of(const LintRequest& request) { return request.jobs > 0 ? request.jobs : available_processors(); }

// One module to lint and the files whose findings are reported (all when
// `only_files` holds "").
struct Target {
    std::string dir;                   // as the user named it
    std::set<std::string> only_files;  // absolute
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
        std::string file = explicit_file_.empty() ? probe_.settings_file(dir) : explicit_file_;
        auto it = loaded_.find(file);
        if (it == loaded_.end()) {
            auto result = std::make_unique<SettingsResult>(
                file.empty() ? SettingsResult{}
                             : load_settings(file, !explicit_file_.empty(), catalogue_, trusted_root_of(dir)));
            for (const auto& w : result->warnings) say_.send(MessageKind::warning, w.to_string());
            for (const auto& e : result->errors) say_.error(e.to_string());
            if (online_) result->settings.online = *online_;
            it = loaded_.emplace(file, std::move(result)).first;
        }
        return it->second->ok() ? &it->second->settings : nullptr;
    }

    // What this run has learnt of the directories above its targets (one
    // thread at a time).
    DirectoryProbe& probe() { return probe_; }

private:
    std::string explicit_file_;
    std::optional<bool> online_;  // --online / --offline / TFSIFT_OFFLINE beat the files
    std::span<const Rule> catalogue_;
    Messenger& say_;
    DirectoryProbe probe_;  // the directories above the targets, looked at once
    std::map<std::string, std::unique_ptr<SettingsResult>> loaded_;
};

// The warning for a directory named on the command line in which there is
// nothing to lint.
void warn_nothing_to_lint(const std::string& path, bool below, Messenger& say) {
    say.send(MessageKind::warning,
             fmt::format("tfsift: warning: no Terraform or OpenTofu configuration files (.tf, .tf.json, .tofu, "
                         ".tofu.json) {} {}",
                         below ? "found under" : "in", path));
}

// Directories are modules (or roots of modules with `recursive`); files lint
// their module and report only themselves. False after reporting a path that
// does not exist, a file that is not one tfsift reads (README.md) or a broken
// settings file. A directory with nothing to lint gets a warning and lints
// as what it is, nothing: the run is not a failure (as Ruff does).
bool resolve_targets(const LintRequest& request, SettingsCache& settings_cache, Messenger& say, Targets& targets,
                     std::size_t& unreadable_dirs, ScanListings& listings) {
    std::vector<std::string> paths = request.paths;
    if (paths.empty()) paths.emplace_back(".");
    const unsigned jobs = jobs_of(request);
    for (const auto& path : paths) {
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) {
            if (!is_lintable_file_name(fs::path(path).filename().string())) {
                say.error("tfsift: error: " + not_lintable_message(path));
                return false;
            }
            std::string dir = fs::path(path).parent_path().string();
            if (dir.empty()) dir = ".";
            // A test file in a module's test directory (`tests`, or what the
            // settings name) belongs to that module.
            // A mock data file belongs to the module above it whose tests
            // read it (config/mock_data_module.hpp).
            if (!config::select_mock_data_files({fs::path(path).filename().string()}).empty()) {
                if (auto module = config::module_dir_of_mock_data(dir)) dir = std::move(*module);
            }
            if (!config::select_test_files({fs::path(path).filename().string()}, Engine::opentofu).empty()) {
                const Settings* settings = settings_cache.for_dir(dir);
                if (settings == nullptr) return false;
                if (auto module = config::module_dir_above_test_directory(dir, settings->test_directory)) {
                    dir = std::move(*module);
                }
            }
            Target& t = targets[absolute_normal_path(dir)];
            if (t.dir.empty()) t.dir = dir;
            t.only_files.insert(absolute_normal_path(path));
            if (t.trusted_root.empty()) t.trusted_root = trusted_repository_root(dir);
        } else if (fs::is_directory(path, ec)) {
            const Settings* settings = settings_cache.for_dir(path);
            if (settings == nullptr) return false;
            std::vector<std::string> dirs;
            if (request.recursive) {
                std::vector<std::string> problems;
                dirs = find_module_dirs(path, *settings, problems, &listings, jobs);
                if (request.respect_gitignore) {
                    std::vector<std::string> unreadable;
                    dirs = drop_gitignored(dirs, find_repository_root(path), &listings, &unreadable);
                    for (const auto& why : unreadable) {
                        say.send(MessageKind::warning,
                                 fmt::format("tfsift: warning: cannot read {}; its patterns are not applied", why));
                    }
                }
                for (const auto& p : problems) say.cannot_read(p);
                unreadable_dirs += problems.size();
                if (dirs.empty() && problems.empty() && !request.overlays) warn_nothing_to_lint(path, true, say);
            } else {
                dirs.push_back(path);
                if (request.overlays) {
                    // An editor's buffers may hold files the disk does not have yet.
                } else if (needs_recursive_hint(path, *settings)) {
                    say.send(MessageKind::warning,
                             fmt::format("tfsift: warning: {} has no configuration files, but directories below it "
                                         "do: use --recursive (-r) to lint them",
                                         path));
                } else if (module_config_files(path, Engine::opentofu, *settings).empty()) {
                    warn_nothing_to_lint(path, false, say);
                }
            }
            const std::string root = trusted_repository_root(path);
            for (const auto& d : dirs) {
                Target& t = targets[absolute_normal_path(d)];
                // `-r .` names `sub`, not `./sub`, as the directory alone does.
                if (t.dir.empty()) t.dir = d.size() > 2 && d.compare(0, 2, "./") == 0 ? d.substr(2) : d;
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

// With `callers`: the lock files of the root modules that call a target's
// module, directly or through other modules, as the repository's module
// calls say (lint/module_roles.hpp), join the targets as files of their own,
// so that what a change to a called module breaks in its callers' lock files
// is reported. A root module named whole already is left as it is.
void add_caller_lock_files(const LintRequest& request, SettingsCache& settings_cache, ModuleRoleCache& role_cache,
                           Targets& targets) {
    const unsigned jobs = jobs_of(request);
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    std::vector<std::pair<std::string, std::string>> found;  // absolute caller directory, trusted root
    for (const auto& [abs, target] : targets) {
        const Settings* settings = settings_cache.for_dir(target.dir);
        if (settings == nullptr) continue;  // reported; the scan stops on it
        // Scans the target's repository, when no question did yet.
        (void)role_cache.role_of(target.dir, *settings, target.trusted_root, request.overlays, jobs,
                                 &settings_cache.probe());
        for (const auto& caller : role_cache.callers_of(abs)) found.emplace_back(caller, target.trusted_root);
    }
    for (const auto& [caller, trusted_root] : found) {
        const std::string lock = caller + "/.terraform.lock.hcl";
        if (!fs::is_regular_file(lock, ec)) continue;
        auto existing = targets.find(caller);
        if (existing != targets.end() && existing->second.only_files.count("")) continue;
        // Named relative to the working directory, as the user's paths are.
        std::string dir = caller;
        if (!cwd.empty()) {
            const std::string relative = fs::path(caller).lexically_relative(cwd).string();
            if (!relative.empty()) dir = relative;
        }
        const Settings* settings = settings_cache.for_dir(dir);
        if (settings == nullptr) continue;
        if (role_cache.role_of(dir, *settings, trusted_root, request.overlays, jobs, &settings_cache.probe()) !=
            ModuleRole::root) {
            continue;
        }
        Target& t = targets[caller];
        if (t.dir.empty()) t.dir = dir;
        t.only_files.insert(absolute_normal_path(lock));
        if (t.trusted_root.empty()) t.trusted_root = trusted_root;
    }
}

// The state file a module is compared with: the request's, else
// terraform.tfstate in the module directory when there is anything by that
// name (a FIFO or a dangling link included, so that it is reported rather
// than skipped). `listed`, the scan's listing of `dir` (may be null), answers
// without asking the file system.
std::string state_file_for(const LintRequest& request, const std::string& dir, const ScanListings::Entries& listed) {
    if (!request.state_file.empty()) return request.state_file;
    fs::path candidate = fs::path(dir) / "terraform.tfstate";
    if (listed) return lists_entry(*listed, "terraform.tfstate") ? candidate.string() : std::string();
    std::error_code ec;
    if (fs::exists(fs::symlink_status(candidate, ec))) return candidate.string();
    return {};
}

struct ModuleRun {
    std::string dir;
    std::string absolute;  // absolute_normal_path(dir)
    std::string trusted_root;
    const Settings* settings = nullptr;
    Engine engine = Engine::terraform;
    config::LoadedTree tree;  // from loading until linted
    std::set<std::string> only_files;
    std::string state_file;

    // What the scan keeps of the tree once it is released.
    bool readable = false;                 // the module directory could be read
    std::vector<std::string> files;        // the module's own configuration files
    std::vector<std::string> cannot_read;  // its inputs that exist but could not be read
    std::vector<std::string> calls;        // absolute directories its tree's modules call
    std::optional<ModuleRole> linted_as;   // set once linted
    Findings findings;                     // its own (only_files applied)
    // Its calls that could not be loaded, as lines for stderr, while the
    // rule that makes them findings is off (only_files applied).
    std::vector<std::string> not_loaded;
};

// The findings of one scan of the targets, and what the result needs besides.
struct Scan {
    SessionTimes times;
    Findings findings;
    std::map<std::string, Rule> catalogue;  // every rule that could report, for SARIF
    std::vector<std::string> catalogue_order;
    std::vector<std::string> modules;
    std::vector<std::string> files;
    std::size_t read_failures = 0;
    // Remote modules whose fetch was tried and failed (`lint --online`): a
    // check not made, which fails the run. Sorted, each once.
    std::set<std::string> fetch_failures;
    // Module calls that could not be loaded, as notices for stderr (see
    // not_loaded_rule_id), in the targets' order.
    std::vector<std::string> not_loaded;
};

// Reads what the rules will read besides the configuration (the lock file
// and the state file) once up front, so that one that cannot be read stops
// the run with a failure instead of becoming a finding or nothing.
// `listings`: what the scan has listed (may be null).
void check_module_inputs(ModuleRun& run, const LintRequest& request, const ScanListings* listings) {
    for (const auto& message : run.tree.read_failures) run.cannot_read.push_back(message);
    const ScanListings::Entries listed = listings != nullptr ? listings->find(run.absolute) : nullptr;
    const bool no_lock_file = listed && !lists_entry(*listed, providers::kLockFileName);
    if (!no_lock_file) {
        const FileContent lock = read_regular_file(lock_file_display_path(run.dir), run.tree.read_policy);
        if (!lock.ok() && lock.failure != ReadFailure::missing)
            run.cannot_read.push_back("the lock file " + lock.message);
    }
    if (!run.state_file.empty()) {
        ReadPolicy policy = run.tree.read_policy;
        if (!request.state_file.empty()) policy.root.clear();  // named by the user: it may lie anywhere
        const FileContent content = read_regular_file(run.state_file, policy);
        if (!content.ok()) run.cannot_read.push_back("the state file " + content.message);
    }
}

// The absolute directory of a module of the tree of `run` (a resolver may
// place one outside the root, by an absolute path).
std::string module_path(const ModuleRun& run, const config::LoadedModule& module) {
    return absolute_normal_path(module.dir.starts_with("/") ? module.dir : run.absolute + "/" + module.dir);
}

// The absolute directories of the modules that the tree of `run` calls (by
// a local path, or installed).
std::vector<std::string> called_by(const ModuleRun& run) {
    std::vector<std::string> called;
    if (!run.tree.root) return called;
    std::vector<const config::LoadedModule*> todo{run.tree.root.get()};
    while (!todo.empty()) {
        const config::LoadedModule* m = todo.back();
        todo.pop_back();
        for (const auto& [name, child] : m->children) {
            called.push_back(module_path(run, child));
            todo.push_back(&child);
        }
    }
    return called;
}

// What the targets' files call by a local path (from the module-role scan,
// which has read them all already), used only to schedule: targets no
// other target calls are loaded first, and a loaded directory is kept while
// targets still to come call it, so that it is shared rather than loaded
// again.
struct LocalNames {
    std::vector<char> maybe_called;               // by target
    std::vector<std::vector<std::string>> names;  // by target: absolute directories, each once
    // By target: the bytes of text in its directory and in every directory
    // it calls by a local path, directly or not (each once), as the scan
    // read them: about what loading its tree costs. Empty unless asked for.
    std::vector<std::uint64_t> tree_bytes;
};

// The scan names directories by their real paths (below each target's
// trusted root, itself a real path); a target named through a symbolic link
// (`../shared/corpus` with `shared` a link) has its names put back in the
// terms the run uses, so that its module directories are shared as they are
// under the real path. One real path is asked for per trusted root.
LocalNames local_names(const std::vector<ModuleRun>& runs, ModuleRoleCache& role_cache, bool weigh_trees) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < runs.size(); ++i) index.emplace(runs[i].absolute, i);
    LocalNames out;
    out.maybe_called.assign(runs.size(), 0);
    out.names.resize(runs.size());
    if (weigh_trees) out.tree_bytes.assign(runs.size(), 0);
    // In the scan's terms, each directory asked once.
    std::map<std::string, std::pair<std::vector<std::string>, std::uint64_t>> scanned;
    auto scanned_dir = [&](const std::string& dir) -> const std::pair<std::vector<std::string>, std::uint64_t>& {
        auto [it, added] = scanned.try_emplace(dir);
        if (added) it->second = {role_cache.local_calls(dir), weigh_trees ? role_cache.text_bytes(dir) : 0};
        return it->second;
    };
    std::map<std::string, std::string> named_root_of;  // trusted root -> how the run names it
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const ModuleRun& run = runs[i];
        const std::string& root = run.trusted_root;
        std::string real = run.absolute;
        if (!root.empty() && !lies_within(run.absolute, root)) {
            auto [it, added] = named_root_of.try_emplace(root);
            if (added) {
                // The run's name of the root: its real path's part below the
                // root taken off the name.
                const std::string resolved = in_terms_of_root(run.absolute, root);
                const std::string below = resolved.substr(std::min(resolved.size(), root.size()));
                if (lies_within(resolved, root) && run.absolute.ends_with(below)) {
                    it->second = run.absolute.substr(0, run.absolute.size() - below.size());
                }
            }
            const std::string& named_root = it->second;
            if (!named_root.empty() && lies_within(run.absolute, named_root)) {
                real = root + run.absolute.substr(named_root.size());
            }
        }
        out.names[i] = scanned_dir(real).first;
        if (weigh_trees) {
            std::set<std::string> seen{real};
            std::vector<std::string> stack{real};
            while (!stack.empty()) {
                const std::string dir = std::move(stack.back());
                stack.pop_back();
                const auto& [calls, bytes] = scanned_dir(dir);
                out.tree_bytes[i] += bytes;
                for (const auto& next : calls) {
                    if (seen.insert(next).second) stack.push_back(next);
                }
            }
        }
        if (real != run.absolute) {
            const std::string& named_root = named_root_of[root];
            for (auto& d : out.names[i]) {
                if (lies_within(d, root)) d = named_root + d.substr(root.size());
            }
        }
        for (const auto& d : out.names[i]) {
            if (auto it = index.find(d); it != index.end()) out.maybe_called[it->second] = 1;
        }
    }
    return out;
}

// The modules of a tree with their absolute directories.
std::vector<std::pair<std::string, const config::LoadedModule*>> modules_of(const ModuleRun& run) {
    std::vector<std::pair<std::string, const config::LoadedModule*>> out;
    if (!run.tree.root) return out;
    out.emplace_back(run.absolute, run.tree.root.get());
    for (std::size_t k = 0; k < out.size(); ++k) {
        for (const auto& [name, child] : out[k].second->children) {
            out.emplace_back(module_path(run, child), &child);
        }
    }
    return out;
}

// Loads and lints every target, `jobs` modules at once, releasing each
// module's tree as soon as it is linted, so that memory holds a few trees
// rather than all of them. Each target's role (root or called) comes from
// its repository (lint/module_roles.hpp), so a target is linted as soon as
// it is loaded. A target that a loaded tree calls is moved to the front of
// the queue, while its directory is still loaded and can be shared. Results
// are kept per target and joined in the targets' order, so the findings are
// the same whatever the number of jobs and the order of the work.
//
// When the selection names an unknown rule, every tree is held. False after
// reporting why the run cannot go on. `listings` (may be null) holds what
// this scan has listed already.
bool scan_targets(const Targets& targets, SettingsCache& settings_cache, const LintRequest& request, Messenger& say,
                  Scan& scan, ModuleRoleCache& role_cache, const ScanListings* listings) {
    const unsigned jobs = jobs_of(request);
    // Files do not change during one scan (a fix is applied between two).
    const std::uint64_t scan_id = config::new_scan_id();
    // One budget for the configuration files of every tree the scan loads.
    const auto budget = std::make_shared<ReadBudget>(request.max_total_size, request.max_memory);
    auto started = Clock::now();
    // Settings and engine first (they report errors), then load in parallel.
    std::vector<ModuleRun> runs;
    runs.reserve(targets.size());
    for (const auto& [abs, target] : targets) {
        ModuleRun run;
        run.dir = target.dir;
        run.absolute = absolute_normal_path(run.dir);
        run.trusted_root = target.trusted_root;
        run.settings = settings_cache.for_dir(run.dir);
        if (run.settings == nullptr) return false;
        if (!target.only_files.count("")) run.only_files = target.only_files;
        runs.push_back(std::move(run));
    }
    // Each target's engine (which may list its directory and read its lock
    // file) and state file, `jobs` at once: they report nothing.
    parallel_for(runs.size(), jobs, [&](std::size_t i) {
        runs[i].engine = resolve_engine(request.engine, *runs[i].settings, runs[i].dir, listings);
        runs[i].state_file =
            state_file_for(request, runs[i].dir, listings != nullptr ? listings->find(runs[i].absolute) : nullptr);
    });

    // Rule activation: each distinct settings object gets its rule list and
    // its active rules once.
    // An unknown rule is reported after what loading reports.
    struct Activation {
        std::vector<Rule> rules;
        std::optional<RuleSet> active;  // points into `rules`
    };
    std::map<const Settings*, Activation> activation_of;
    std::vector<const RuleSet*> active(runs.size());
    std::string unknown_rule;
    std::string unknown_suggestion;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto [it, added] = activation_of.try_emplace(runs[i].settings);
        Activation& a = it->second;
        if (added) {
            a.rules = rules_for(*runs[i].settings, request.catalogue);
            for (const auto& r : a.rules) {
                if (scan.catalogue.emplace(r.id, r).second) scan.catalogue_order.push_back(r.id);
            }
            std::vector<std::string> unknown;
            a.active.emplace(activate_rules(a.rules, *runs[i].settings, request.selection, unknown));
            if (!unknown.empty() && unknown_rule.empty()) {
                unknown_rule = unknown.front();
                std::vector<std::string> ids;
                ids.reserve(a.rules.size());
                for (const auto& r : a.rules) ids.push_back(r.id);
                unknown_suggestion = did_you_mean(unknown_rule, ids);
            }
        }
        active[i] = &*a.active;
    }
    // A module's role comes from every local caller in its repository, not
    // from what this run happens to include (lint/module_roles.hpp), so it is
    // known before anything is loaded.
    const auto roles_started = Clock::now();
    std::vector<ModuleRole> roles(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        roles[i] = role_cache.role_of(runs[i].dir, *runs[i].settings, runs[i].trusted_root, request.overlays, jobs,
                                      &settings_cache.probe(), listings);
    }
    scan.times.roles += seconds_since(roles_started);
    const bool lint_early = unknown_rule.empty();
    LocalNames local = lint_early ? local_names(runs, role_cache, jobs > 1) : LocalNames{};
    if (!lint_early) local.maybe_called.assign(runs.size(), 1);
    const std::vector<char>& maybe = local.maybe_called;
    // How many targets still to load name each directory: while some do, a
    // loaded directory is kept for them (the loader shares a directory while
    // anything holds it), wherever they come in the order.
    std::map<std::string, std::size_t> pending;
    for (const auto& dirs : local.names) {
        for (const auto& d : dirs) ++pending[d];
    }
    std::map<std::string, std::vector<std::shared_ptr<const config::ParsedFile>>> kept;
    scan.times.targets += seconds_since(started);

    const config::LoadCounters& counters = config::load_counters();
    const LoadSnapshot before(counters);
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < runs.size(); ++i) index.emplace(runs[i].absolute, i);
    std::atomic<std::uint64_t> load_ns{0};
    std::mutex fetch_failures_mutex;
    std::atomic<std::uint64_t> lint_ns{0};
    const providers::LocalPackageFinder packages(providers::process_environment(), listings);
    // Remote module calls: one resolver chain per kind of module for the
    // scan, shared by every load, so a package is fetched once; the network
    // only for modules whose settings say `online` (--online), never with
    // --offline.
    std::mutex resolvers_mutex;
    std::map<std::tuple<bool, Engine, std::string>, std::shared_ptr<config::ModuleSourceResolver>> resolvers;
    auto resolver_for = [&](const ModuleRun& run) {
        ModuleFetchPolicy policy;
        policy.network = !request.offline && run.settings->online.value_or(false);
        policy.cache_dir = request.module_cache_dir;
        policy.engine = run.engine;
        policy.engine_version = run.settings->engine_version.value_or("");
        const std::lock_guard<std::mutex> lock(resolvers_mutex);
        auto& slot = resolvers[{policy.network, policy.engine, policy.engine_version}];
        if (!slot) slot = default_module_resolver(policy, listings);
        return slot;
    };
    auto lint = [&](ModuleRun& run, std::size_t i, ModuleRole role) {
        const auto lint_started = Clock::now();
        LintContext ctx;
        ctx.module_dir = run.dir;
        ctx.tree = &run.tree;
        ctx.engine = run.engine;
        ctx.settings = run.settings;
        ctx.state_file = run.state_file;
        ctx.state_file_given = !request.state_file.empty();
        ctx.packages = &packages;
        ctx.listings = listings;
        ctx.role = role;
        run.findings.clear();
        for (auto& f : lint_module(ctx, *active[i], *run.settings)) {
            if (!run.only_files.empty() && !run.only_files.count(absolute_normal_path(f.file->path()))) continue;
            run.findings.push_back(std::move(f));
        }
        run.linted_as = role;
        run.not_loaded.clear();
        if (const ActiveRule* rule = active[i]->find(not_loaded_rule_id); rule == nullptr || !rule->enabled) {
            for (const auto& d : run.tree.diagnostics) {
                if (d.diagnostic.code != code::module_not_loaded || d.diagnostic.severity == Severity::error ||
                    !d.source || !d.diagnostic.subject) {
                    continue;
                }
                if (!run.only_files.empty() && !run.only_files.count(absolute_normal_path(d.source->path()))) continue;
                const ResolvedPos at = d.source->resolve(d.diagnostic.subject->start);
                run.not_loaded.push_back(fmt::format("{}:{}:{}: notice: {}: {} [{}]", d.source->path(), at.line,
                                                     at.column, d.diagnostic.summary, d.diagnostic.detail,
                                                     not_loaded_rule_id));
            }
        }
        lint_ns.fetch_add(nanoseconds_since(lint_started), std::memory_order_relaxed);
    };
    auto load = [&](ModuleRun& run) {
        const auto load_started = Clock::now();
        run.tree =
            load_for_lint(run.dir, run.engine, *run.settings, run.trusted_root, request.overlays, request.load_cache,
                          scan_id, listings, resolver_for(run), request.root_variables, budget);
        for (const auto& call : run.tree.unavailable_calls) {
            if (call.why.kind != config::ModuleUnavailableKind::failed) continue;
            std::string at = call.at.file != nullptr ? call.at.file->path() : run.dir;
            if (call.at.file != nullptr) {
                const ResolvedPos pos = call.at.file->resolve(call.at.pos);
                at += fmt::format(":{}:{}", pos.line, pos.column);
            }
            const std::lock_guard<std::mutex> lock(fetch_failures_mutex);
            scan.fetch_failures.insert(
                fmt::format("{}: cannot fetch {} (\"{}\"): {}", at, call.address, call.source, call.why.reason));
        }
        load_ns.fetch_add(nanoseconds_since(load_started), std::memory_order_relaxed);
    };

    // The queue of targets to load, its order, and what is known of roles.
    std::mutex mutex;
    std::deque<std::size_t> queue;
    {
        // Targets no other target calls first, then the others (most are
        // loaded through their callers first). Within each, with more than
        // one job, the largest trees first: the last trees to load are then
        // small, so the jobs finish together rather than one job loading a
        // large tree alone at the end; and two large trees are seldom
        // loaded at once. One job keeps the order of the directories, which
        // shares more of them between neighbouring trees.
        std::vector<std::size_t> order(runs.size());
        for (std::size_t i = 0; i < runs.size(); ++i) order[i] = i;
        const std::vector<std::uint64_t>& bytes = local.tree_bytes;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            if (maybe[a] != maybe[b]) return maybe[a] < maybe[b];
            return jobs > 1 && !bytes.empty() && bytes[a] > bytes[b];
        });
        queue.assign(order.begin(), order.end());
    }
    std::vector<char> taken(runs.size(), 0);
    std::set<std::string> called;
    // The files of the trees linted last: their module directories stay
    // loaded for the next trees that call them (the loader shares a
    // directory while a tree holds it).
    std::deque<std::vector<std::shared_ptr<const config::ParsedFile>>> recent;
    const std::size_t recent_trees = 8 + 2 * static_cast<std::size_t>(jobs);

    parallel_for(std::min<std::size_t>(jobs, runs.size()), jobs, [&](std::size_t) {
        // Module directories let go of under the lock, freed after it: freeing
        // a tree takes long enough to keep the other threads waiting.
        std::vector<std::vector<std::shared_ptr<const config::ParsedFile>>> released;
        for (;;) {
            std::size_t i = 0;
            {
                std::lock_guard<std::mutex> lock(mutex);
                while (!queue.empty() && taken[queue.front()]) queue.pop_front();
                if (queue.empty()) return;
                i = queue.front();
                queue.pop_front();
                taken[i] = 1;
            }
            ModuleRun& run = runs[i];
            load(run);
            run.readable = run.tree.root != nullptr;
            if (run.readable) {
                for (const auto& f : run.tree.root->files) run.files.push_back(f.parsed->source->path());
                for (const auto& t : run.tree.test_files) run.files.push_back(t.parsed->source->path());
                for (const auto& m : run.tree.mock_data_files) run.files.push_back(m.parsed->source->path());
                for (const auto& q : run.tree.query_files) run.files.push_back(q.parsed->source->path());
                for (const auto& m : run.tree.migration_files) run.files.push_back(m.parsed->source->path());
                check_module_inputs(run, request, listings);
                run.calls = called_by(run);
            }
            std::optional<ModuleRole> role;
            {
                std::lock_guard<std::mutex> lock(mutex);
                for (const auto& d : run.calls) {
                    if (!called.insert(d).second) continue;
                    if (auto it = index.find(d); it != index.end() && !taken[it->second]) queue.push_front(it->second);
                }
                if (run.readable && !pending.empty()) {
                    std::map<const config::ParsedFile*, std::shared_ptr<const config::ParsedFile>> handles;
                    for (const auto& f : run.tree.files) handles.emplace(f.get(), f);
                    for (const auto& [dir, module] : modules_of(run)) {
                        auto wanted = pending.find(dir);
                        if (wanted == pending.end() || wanted->second == 0 || kept.count(dir)) continue;
                        auto& keep = kept[dir];
                        for (const auto& mf : module->files) {
                            if (auto h = handles.find(mf.parsed); h != handles.end()) keep.push_back(h->second);
                        }
                    }
                }
                if (lint_early) {
                    for (const auto& d : local.names[i]) {
                        auto it = pending.find(d);
                        if (it == pending.end() || it->second == 0 || --it->second > 0) continue;
                        if (auto k = kept.find(d); k != kept.end()) {
                            released.push_back(std::move(k->second));
                            kept.erase(k);
                        }
                    }
                }
                if (run.readable && lint_early) role = roles[i];
            }
            released.clear();
            if (!run.readable || !role) continue;  // held: linted when every tree is loaded
            lint(run, i, *role);
            std::vector<std::shared_ptr<const config::ParsedFile>> files = std::move(run.tree.files);
            run.tree = config::LoadedTree{};
            {
                std::lock_guard<std::mutex> lock(mutex);
                recent.push_back(std::move(files));
                if (recent.size() > recent_trees) {
                    released.push_back(std::move(recent.front()));
                    recent.pop_front();
                }
            }
            released.clear();
        }
    });
    recent.clear();
    kept.clear();

    for (auto& run : runs) {
        if (!run.readable) {
            say.cannot_read(run.dir);
            return false;
        }
        scan.modules.push_back(run.dir);
        scan.files.insert(scan.files.end(), run.files.begin(), run.files.end());
        for (const auto& message : run.cannot_read) {
            say.cannot_read(message);
            ++scan.read_failures;
        }
    }
    if (!unknown_rule.empty()) {
        say.error("tfsift: unknown rule " + unknown_rule + unknown_suggestion);
        return false;
    }

    // The held targets, and those linted as roots that a tree turned out to call.
    std::vector<std::size_t> rest;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].linted_as != roles[i]) rest.push_back(i);
    }
    parallel_for(rest.size(), jobs, [&](std::size_t k) {
        ModuleRun& run = runs[rest[k]];
        if (run.linted_as) load(run);  // released: load it again
        lint(run, rest[k], roles[rest[k]]);
        run.tree = config::LoadedTree{};
    });

    const LoadSnapshot end(counters);
    scan.times.load = static_cast<double>(load_ns.load()) / 1e9;
    scan.times.rules = static_cast<double>(lint_ns.load()) / 1e9;
    scan.times.read = seconds_between(before.read_ns, end.read_ns);
    scan.times.parse = seconds_between(before.parse_ns, end.parse_ns);
    scan.times.decode = seconds_between(before.decode_ns, end.decode_ns);
    scan.times.merge = seconds_between(before.merge_ns, end.merge_ns);
    scan.times.modules_loaded = end.modules_loaded - before.modules_loaded;
    scan.times.modules_reused = end.modules_reused - before.modules_reused;
    scan.times.files_read = end.files_read - before.files_read;
    scan.times.bytes_read = end.bytes_read - before.bytes_read;

    for (auto& run : runs) {
        for (auto& f : run.findings) scan.findings.push_back(std::move(f));
        run.findings.clear();
        for (auto& line : run.not_loaded) scan.not_loaded.push_back(std::move(line));
    }
    started = Clock::now();
    sort_findings(scan.findings);
    scan.times.rules += seconds_since(started);
    return true;
}

std::string baseline_dir_of(const std::string& file) {
    std::string dir = fs::path(absolute_normal_path(file)).parent_path().string();
    return dir.empty() ? "/" : dir;
}

// Records `findings` in the baseline `file`, atomically; false after saying
// why it could not be written.
bool write_baseline(const std::string& file, const Findings& findings, Messenger& say) {
    const auto entries = baseline_entries(findings, baseline_dir_of(file));
    auto written = atomic_write_file(file, render_baseline(entries));
    if (!written.ok()) {
        say.error(fmt::format("tfsift: cannot write {}: {}", file, written.error));
        return false;
    }
    say.send(MessageKind::fix_summary,
             fmt::format("Wrote {} finding{} to {}", entries.size(), entries.size() == 1 ? "" : "s", file));
    return true;
}

// Leaves out the findings the baseline `file` records; how many, or nullopt
// after saying why the file cannot be used.
std::optional<std::size_t> apply_baseline(const std::string& file, Findings& findings, Messenger& say) {
    const FileContent content = read_regular_file(file, ReadPolicy{});
    if (!content.ok()) {
        say.cannot_read("the baseline " + content.message);
        return std::nullopt;
    }
    const BaselineParse parsed = parse_baseline(content.bytes);
    if (!parsed.ok()) {
        const auto colon = parsed.error.find(": ");
        say.error(fmt::format("{}:{}: error: {}", file, parsed.error.substr(0, colon), parsed.error.substr(colon + 2)));
        return std::nullopt;
    }
    const std::size_t dropped = filter_baseline(findings, parsed.entries, baseline_dir_of(file));
    if (dropped > 0) {
        say.send(MessageKind::notice,
                 fmt::format("{} finding{} recorded in the baseline left out", dropped, dropped == 1 ? "" : "s"));
    }
    return dropped;
}

}  // namespace

LintResult run_session(const LintRequest& request) {
    LintResult result;
    Messenger say(request.on_message, result);
    const LoadSnapshot at_start(config::load_counters());
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
        // Nor is a state that is not one: rules comparing with half a state
        // would report what the state never said.
        const auto parsed = providers::parse_state_file(
            std::make_shared<const SourceFile>(request.state_file, state.bytes), Engine::terraform);
        for (const Diagnostic& d : parsed.diagnostics) {
            if (d.severity != Severity::error) continue;
            std::string where = request.state_file;
            if (d.subject) {
                const auto pos = parsed.source->resolve(d.subject->start);
                where += fmt::format(":{}:{}", pos.line, pos.column);
            }
            say.error(fmt::format("tfsift: invalid state file {}: {}{}{}", where, d.summary,
                                  d.detail.empty() ? "" : ": ", d.detail));
            return result;
        }
    }
    SettingsCache settings_cache(request.settings_file, request.offline ? std::optional<bool>(false) : request.online,
                                 request.catalogue, say);
    Targets targets;
    std::size_t unreadable_dirs = 0;
    // What finding the targets lists, the first scan takes; a scan after
    // files were written lists again.
    ScanListings listings;
    settings_cache.probe().use_listings(&listings);
    if (!resolve_targets(request, settings_cache, say, targets, unreadable_dirs, listings)) return result;

    // One scan of each repository's module calls for the whole run, unless
    // the caller keeps them between runs.
    const std::shared_ptr<ModuleRoleCache> role_cache =
        request.module_roles ? request.module_roles : std::make_shared<ModuleRoleCache>();
    if (request.callers) add_caller_lock_files(request, settings_cache, *role_cache, targets);
    Scan scan;
    // With `fix`, the lock findings carry the repair of their lock file
    // (lint/lock_fix.hpp), fetched from the registries unless offline.
    std::optional<LockRepairSession> lock_repairs;
    if (request.fix) lock_repairs.emplace(!request.offline);
    const bool scanned = scan_targets(targets, settings_cache, request, say, scan, *role_cache, &listings);
    if (lock_repairs) {
        for (auto& line : lock_repairs->take_messages()) say.send(MessageKind::lock_repair, std::move(line));
        result.lock_repair_failed = lock_repairs->not_repaired();
        result.lock_write_failed = lock_repairs->fetch_failed();
    }
    if (!scanned) return result;
    result.read_failures = scan.read_failures + unreadable_dirs;
    if (request.fix) {
        // A fix whose edits overlap one taken before it (a `lookup()` inside
        // a quoted interpolation, a legacy index inside it) is left out of a
        // plan; it applies to the rewritten text. So fixes are planned again
        // on the files as written, a bounded number of times, and one --fix
        // leaves nothing fixable that a second would change.
        constexpr int max_fix_rounds = 8;
        std::map<std::string, FileChange> changes;  // by path: the text before the first round, after the last
        std::size_t findings_fixed = 0;
        std::size_t files_unwritten = 0;
        bool write_failed = false;
        double fix_time = scan.times.fix;
        for (int round = 0; round < max_fix_rounds; ++round) {
            const auto started = Clock::now();
            const auto plan = plan_fixes(scan.findings, *request.fix);
            const auto written = write_fixes(plan);
            fix_time += seconds_since(started);
            for (const auto& e : written.errors) say.error("tfsift: " + e);
            write_failed = write_failed || !written.errors.empty();
            files_unwritten += written.errors.size();
            if (lock_repairs) {
                for (auto& line : lock_repairs->outcome(written.written))
                    say.send(MessageKind::lock_repair, std::move(line));
                lock_repairs.reset();
            }
            // When a file could not be written, only the fixes of the files
            // that were count (each applied line is one fix).
            if (written.errors.empty()) findings_fixed += plan.findings_fixed;
            const std::set<std::string> changed(written.written.begin(), written.written.end());
            for (const auto& line : plan.applied) {
                std::string_view shown = line;
                if (!changed.count(std::string(shown.substr(0, shown.find(':'))))) continue;
                if (!written.errors.empty()) ++findings_fixed;
                while (shown.substr(0, 2) == "./") shown.remove_prefix(2);
                say.send(MessageKind::fix_applied, "Fixed " + std::string(shown));
            }
            for (const auto& path : written.written) {
                auto at = changes.try_emplace(path, FileChange{path, plan.old_text.at(path), {}}).first;
                at->second.new_text = plan.new_text.at(path);
            }
            if (written.written.empty()) break;
            // What remains, from the files as they are now.
            scan = Scan{};
            if (!scan_targets(targets, settings_cache, request, say, scan, *role_cache, nullptr)) return result;
            if (plan.conflicts_skipped == 0) break;
        }
        result.findings_fixed = findings_fixed;
        result.files_fixed = changes.size();
        for (auto& [path, change] : changes) result.fixed_files.push_back(std::move(change));
        std::string summary =
            fmt::format("Fixed {} finding{} in {} file{}", findings_fixed, findings_fixed == 1 ? "" : "s",
                        changes.size(), changes.size() == 1 ? "" : "s");
        if (files_unwritten > 0) {
            summary +=
                fmt::format("; {} file{} could not be written", files_unwritten, files_unwritten == 1 ? "" : "s");
        }
        say.send(MessageKind::fix_summary, std::move(summary));
        scan.times.fix = fix_time;
        result.fix_write_failed = write_failed;
    }
    if (request.add_ignore_reason) {
        const AddIgnorePlan plan = plan_add_ignores(scan.findings, *request.add_ignore_reason);
        const FixWriteResult written = write_fixes(plan.edits);
        for (const auto& e : written.errors) say.error("tfsift: " + e);
        result.ignores_added = plan.comments;
        std::string summary =
            fmt::format("Added {} ignore comment{} for {} finding{} in {} file{}", plan.comments,
                        plan.comments == 1 ? "" : "s", plan.findings_covered, plan.findings_covered == 1 ? "" : "s",
                        written.written.size(), written.written.size() == 1 ? "" : "s");
        if (plan.findings_skipped > 0) {
            summary += fmt::format(
                "; {} finding{} cannot take an inline comment (JSON or lock files, heredocs, "
                "syntax-error, unused-ignore)",
                plan.findings_skipped, plan.findings_skipped == 1 ? "" : "s");
        }
        say.send(MessageKind::fix_summary, summary);
        if (!written.errors.empty()) result.fix_write_failed = true;
        if (!written.written.empty()) {
            // Report what remains, from the files as they are now.
            const SessionTimes times = scan.times;
            scan = Scan{};
            if (!scan_targets(targets, settings_cache, request, say, scan, *role_cache, nullptr)) return result;
            scan.times.fix = times.fix;
        }
    }
    if (!request.write_baseline_file.empty() && !write_baseline(request.write_baseline_file, scan.findings, say)) {
        return result;
    }
    if (!request.baseline_file.empty()) {
        const auto dropped = apply_baseline(request.baseline_file, scan.findings, say);
        if (!dropped) return result;
        result.baseline_dropped = *dropped;
    }

    // The calls that could not be loaded, once per run (after any fixes):
    // notices on stderr, which reports leave out, unless the rule that
    // makes them findings is on.
    for (auto& line : scan.not_loaded) say.send(MessageKind::notice, std::move(line));

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
    result.online_check_failures.insert(result.online_check_failures.end(), scan.fetch_failures.begin(),
                                        scan.fetch_failures.end());
    result.times = scan.times;
    const LoadSnapshot at_end(config::load_counters());
    result.times.role_scan_files_read = at_end.role_scan_files_read - at_start.role_scan_files_read;
    result.times.role_scan_bytes_read = at_end.role_scan_bytes_read - at_start.role_scan_bytes_read;
    return result;
}

}  // namespace tfsift::lint
