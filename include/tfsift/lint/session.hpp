// A lint session: one run of the linter over the paths a user names, the
// same for every front end (the CLI, the fixture tests, the benchmark, an
// editor server). A request goes in; the findings, the rule catalogue they
// were checked against and what could not be read come out. Printing and
// exit codes are the front end's business.
//
// A session resolves the targets (directories are modules, or with
// `recursive` roots to search for modules; files lint their module and keep
// only their own findings), reads the settings that apply to each, chooses
// each module's engine, loads the modules (`jobs` at once), tells root
// modules from the ones other modules of the run call, repairs root modules'
// lock files when fixing, activates the rules and lints every module. With
// `fix`, it applies the fixes and lints again, so the result shows what is
// left; `add_ignore` then suppresses what is left inline and lints again. A
// baseline is written from, or applied to, the final findings. The findings
// are the same whatever `jobs` is.
//
// Whether a module is a root module or one that others call is decided from
// every local caller in its repository (lint/module_roles.hpp), not from
// what the run happens to include, so every scope gives the same answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/apply_fixes.hpp"
#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/rule.hpp"
#include "tfsift/read_budget.hpp"

namespace tfsift::lint {

class ModuleRoleCache;  // lint/module_roles.hpp

// What a session says while it runs, besides its result.
enum class MessageKind : std::uint8_t {
    error,        // something could not be read, a settings error, an unknown rule: a line for stderr
    lock_repair,  // what the repair of a lock file changed or could not change
    fix_summary,  // how many findings the fixes repaired, in how many files
    fix_applied,  // one fix that was written: "PATH:LINE:COLUMN: RULE ..."
    notice,       // advice that does not fail the run (a directory that needs --recursive, a baseline's effect)
    warning,      // a setting that was not honoured: printed even with --quiet, does not fail the run
};

// A file the session rewrote (fixes or ignore comments), before and after.
struct FileChange {
    std::string path;
    std::string old_text;
    std::string new_text;
};

// Receives each message as it arises (one line, or several joined by
// newlines, without the final newline).
using MessageSink = std::function<void(MessageKind kind, const std::string& text)>;

struct LintRequest {
    // The built-in rules to check against (lint::builtin_rules() of
    // tfsift/rules/catalogue.hpp); the engine knows no rule by itself, and a
    // session without a catalogue stops with an error.
    std::span<const Rule> catalogue;
    std::vector<std::string> paths;  // directories or files; none means "."
    bool recursive = false;          // every module below the directories
    RuleSelection selection;         // applied on top of each module's settings
    std::string settings_file;       // used instead of the nearest .tfsift.toml when not empty
    std::optional<Engine> engine;    // none: the settings' engine, else detected per module
    std::string state_file;          // none: terraform.tfstate in each module directory, when present
    // What the user gives the variables of every module linted as the root
    // of its tree (--var, --var-file, TF_VAR_ variables), read with its own
    // variable files; only module sources and versions use them
    // (config/root_variables.hpp).
    config::RootVariableInputs root_variables;
    unsigned jobs = 0;              // modules loaded and linted at once; 0: one per processor
    std::optional<FixMode> fix;     // apply fixes and repair root modules' lock files, then lint again
    std::optional<bool> online;     // beats the settings' `online`
    bool offline = false;           // open no connection, not even to repair a lock file
    bool respect_gitignore = true;  // with `recursive`, leave out directories .gitignore names
    // Also lint the lock files of the root modules that call the targets'
    // modules, directly or through other modules (their findings only).
    bool callers = false;
    // Suppress every finding left (after `fix`) with an inline ignore comment
    // giving this reason, then lint again.
    std::optional<std::string> add_ignore_reason;
    std::string write_baseline_file;  // record the final findings there (atomically)
    std::string baseline_file;        // leave out the findings recorded there
    MessageSink on_message;           // may be empty: the messages are in the result either way
    // Texts read instead of the files on disk, by absolute path with
    // symlinks resolved (an editor's unsaved buffers; see FileOverlays in
    // tfsift/file_read.hpp). Honoured for every configuration file and lock
    // file the loader and the rules read; the findings point into these
    // texts. Null: the disk only.
    std::shared_ptr<const FileOverlays> overlays;
    // Which modules of each repository other modules call (roles). Null:
    // the session scans each repository once for itself, as a `tfsift lint`
    // process does; a long-lived caller (the language server) keeps one
    // between runs and refreshes it as files change.
    std::shared_ptr<ModuleRoleCache> module_roles;
    // Parses kept between runs (config/load_cache.hpp): a long-lived caller
    // (the language server) re-parses only the files that changed. Null:
    // every file is read and parsed.
    std::shared_ptr<config::LoadCache> load_cache;
    // Where fetched remote modules are kept (--cache-dir); empty: the
    // default (lint/module_resolution.hpp).
    std::string module_cache_dir;
    // The bytes of configuration files one pass over the targets may read,
    // all files together (tfsift/read_budget.hpp; --max-total-size).
    std::uint64_t max_total_size = default_max_total_size;
    // The peak resident memory past which no further file is read
    // (tfsift/read_budget.hpp; --max-memory); 0: no budget of memory.
    std::uint64_t max_memory = default_max_memory;
};

// Where a session's time went, in seconds. Each module is linted as soon as
// it is loaded, so loading and linting are summed over the threads that did
// them (with several jobs they add up to more than the wall time); the
// others are wall time.
struct SessionTimes {
    double targets = 0;  // finding the modules, reading the settings, activating the rules
    double roles = 0;    // of which deciding each target's role (the scan of its repository's module calls)
    double load = 0;     // loading every module tree (summed over threads)
    double read = 0;     // of which reading files (summed)
    double parse = 0;    // parsing them (summed)
    double decode = 0;   // decoding their blocks (summed)
    double merge = 0;    // merging each module and its own checks (summed)
    double rules = 0;    // the rules, ignores and per-module filtering (summed), sorting the findings
    double fix = 0;      // applying fixes and repairing lock files (wall)
    // Module directories read, parsed, decoded and merged, and the times a
    // tree took one already loaded by another tree or caller instead;
    // configuration files read.
    std::uint64_t modules_loaded = 0;
    std::uint64_t modules_reused = 0;
    std::uint64_t files_read = 0;
    std::uint64_t bytes_read = 0;
    // Configuration files (and bytes) the module-role scan read to find the
    // repository's local module calls, besides those the loaders read.
    std::uint64_t role_scan_files_read = 0;
    std::uint64_t role_scan_bytes_read = 0;
};

struct LintResult {
    // False when the run stopped before linting (a path that does not exist,
    // a broken settings file, an unknown rule, an unreadable --state file or
    // module directory): there is nothing to report, `messages` says why.
    bool completed = false;
    Findings findings;                 // sorted (see sort_findings)
    std::vector<Rule> catalogue;       // every rule that could report, in catalogue order
    std::vector<std::string> modules;  // the module directories linted, as named
    std::vector<std::string> files;    // their configuration files, as the findings name them
    // The absolute directories of the targets, sorted, and the roots their
    // files had to resolve inside (for reports: repository root, snippets).
    std::vector<std::string> target_dirs;
    std::vector<std::string> trusted_roots;
    // Every message, in the order it was sent to `on_message`.
    std::vector<std::pair<MessageKind, std::string>> messages;

    // Files and directories that exist but could not be read.
    std::size_t read_failures = 0;
    bool lock_repair_failed = false;  // a lock file could not be repaired (its findings say why)
    bool lock_write_failed = false;   // writing a repaired lock file, or fetching for it, failed
    bool fix_write_failed = false;    // a fixed file could not be written
    std::size_t findings_fixed = 0;
    std::size_t files_fixed = 0;
    std::vector<FileChange> fixed_files;  // what `fix` wrote, in path order
    std::size_t ignores_added = 0;        // ignore comments `add_ignore_reason` wrote
    std::size_t baseline_dropped = 0;     // findings the baseline recorded
    // Online checks that could not be made (a check not made is not a pass).
    std::vector<std::string> online_check_failures;
    SessionTimes times;  // of the last scan (after fixes, of the one that reports)

    // Something could not be read or written: the run failed whatever the findings.
    [[nodiscard]] bool io_failed() const { return read_failures > 0 || lock_write_failed || fix_write_failed; }
};

// Runs one lint. Never throws for bad input; an I/O failure or bad input
// becomes a message and a flag of the result.
LintResult run_session(const LintRequest& request);

}  // namespace tfsift::lint
