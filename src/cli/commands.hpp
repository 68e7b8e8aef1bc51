// The subcommands of the tfsift CLI. Each returns the process exit code:
// 0 success / no findings, 1 findings or input errors, 2 usage or I/O errors
// (cli/exit_status.hpp).
#pragma once

#include <string>
#include <vector>

#include "tfsift/lint/linter.hpp"

namespace CLI {
class App;
}

namespace tfsift::cli {

struct LintOptions {
    std::vector<std::string> paths;
    bool recursive = false;
    std::string format = "text";
    bool format_given = false;         // --format was on the command line
    std::string sarif_category;        // --sarif-category: SARIF automationDetails.id
    std::vector<std::string> outputs;  // FORMAT:PATH
    std::string minimum_failure_severity = "warning";
    lint::RuleSelection selection;
    std::string config;
    std::string chdir;
    std::string engine;  // empty: settings, else detected
    std::string state;   // --state FILE; empty: terraform.tfstate when present
    // --var-file FILE and --var NAME=VALUE, in the order given: root
    // variables for module sources.
    std::vector<config::RootVariableInput> variables;
    std::string color = "auto";
    bool quiet = false;
    bool statistics = false;
    bool timings = false;
    bool fix = false;                       // --fix: apply safe fixes, then lint again
    bool unsafe_fixes = false;              // --unsafe-fixes: with --fix, unsafe ones too
    bool online = false;                    // --online: lock rules ask the registries
    bool offline = false;                   // --offline: no network, not even for --fix
    unsigned jobs = 0;                      // modules linted at once; 0: one per processor
    std::string max_total_size;             // --max-total-size, e.g. "1GiB"; empty: the default
    std::string max_memory;                 // --max-memory, e.g. "2GiB"; empty: the default
    std::vector<std::string> command_line;  // for the SARIF invocation
    // Adoption (docs/migrating-from-tflint.md, "Adopting tfsift in a repository with findings").
    bool exit_zero = false;      // --exit-zero: exit 0 even with findings
    std::string write_baseline;  // --write-baseline FILE
    std::string baseline;        // --baseline FILE: report only findings not recorded there
    bool add_ignore = false;     // --add-ignore: suppress every current finding inline
    std::string ignore_reason = "added by tfsift --add-ignore";  // --ignore-reason TEXT
    bool diff = false;          // --diff: print what --fix would change, change nothing
    bool show_fixes = false;    // --show-fixes: with --fix, print the diff of what changed
    std::string preset;         // --preset recommended|strict (into selection.preset)
    bool no_gitignore = false;  // --no-gitignore: -r lints what .gitignore names too
    bool callers = false;       // --callers: also the lock files of the root modules calling the linted ones
};

// Declares the options of `tfsift lint` on its subcommand.
void add_lint_options(CLI::App& cmd, LintOptions& options);
int run_lint(const LintOptions& options);

// `tfsift init [--from-tflint [FILE]] [--output FILE] [--force]`.
struct InitOptions {
    std::string from_tflint;  // the .tflint.hcl to import; empty: a commented default file
    std::string output = ".tfsift.toml";
    bool force = false;  // replace an existing output file
};
void add_init_options(CLI::App& cmd, InitOptions& options);
int run_init(const InitOptions& options);

// `tfsift rules [--format text|json]` and `tfsift rule ID` (a tfsift rule
// id, or a TFLint rule's name: its tfsift rules) / `tfsift rule
// --all-markdown DIR`.
struct RulesOptions {
    std::string format = "text";
};
void add_rules_options(CLI::App& cmd, RulesOptions& options);
int run_rules(const RulesOptions& options);
struct RuleDocOptions {
    std::string id;
    std::string all_markdown_dir;
};
void add_rule_options(CLI::App& cmd, RuleDocOptions& options);
int run_rule(const RuleDocOptions& options);
int run_debug_parse(const std::vector<std::string>& files);
// `tfsift debug hash PATH...`: h1 (and zh for a zip) of provider packages.
int run_debug_hash(const std::vector<std::string>& paths);
// `tfsift debug lock FILE [--engine E]`: the lock file's diagnostics on
// stderr, the file as tfsift would write it on stdout; exit 1 on errors.
int run_debug_lock(const std::string& file, const std::string& engine);

// `tfsift effective [DIR] --format json|hcl`.
struct EffectiveOptions {
    std::string dir = ".";
    std::string format = "json";
    std::string engine = "terraform";
    bool installed_modules = false;
};
void add_effective_options(CLI::App& cmd, EffectiveOptions& options);
int run_effective(const EffectiveOptions& options);

// `tfsift lock [DIR] [--platform OS_ARCH ...] [--fs-mirror DIR | --net-mirror URL]
// [--provider ADDR ...] [--offline] [--cache-dir DIR] [--jobs N]`: records the
// providers the configuration requires, like `terraform providers lock`;
// online (origin registries) unless --fs-mirror, --offline or TFSIFT_OFFLINE=1.
struct LockOptions {
    std::string dir = ".";
    std::vector<std::string> platforms;
    std::string fs_mirror;
    std::string net_mirror;
    std::vector<std::string> providers;
    bool offline = false;
    bool enable_plugin_cache = false;
    std::string cache_dir;
    unsigned jobs = 0;
    std::string max_package_size;  // e.g. "2GiB"; caps the download and the unpacked size
    bool quiet = false;
    std::string engine;  // empty: settings, else detected
};
void add_lock_options(CLI::App& cmd, LockOptions& options);
int run_lock(const LockOptions& options);

// `tfsift lock diff (--base REF | --base-file OLD) [PATH...]`: what changed in
// the lock files against a git revision, every added hash verified against
// what its registry signed unless --offline (docs/lock-review.md). Exit 1 for
// an unsigned added hash, 2 when the base cannot be read or a check fails.
struct LockDiffOptions {
    std::vector<std::string> paths;
    std::string base;       // --base REF
    std::string base_file;  // --base-file OLD
    bool offline = false;
    std::string format = "text";
    bool format_given = false;
    std::vector<std::string> outputs;  // FORMAT:PATH
    unsigned jobs = 0;
    std::string cache_dir;
    std::string engine;
    std::string color = "auto";
};
void add_lock_diff_options(CLI::App& cmd, LockDiffOptions& options);
int run_lock_diff(const LockDiffOptions& options);

// `tfsift fetch [DIR...] [--cache-dir DIR] [--offline] [--quiet]`: fills the
// module cache with every remote module call of the roots, like `terraform
// get`; exit 2 when a call could not be fetched.
struct FetchOptions {
    std::vector<std::string> dirs;
    std::string cache_dir;
    bool offline = false;
    bool quiet = false;
    std::string engine;  // empty: terraform
};
void add_fetch_options(CLI::App& cmd, FetchOptions& options);
int run_fetch(const FetchOptions& options);

// `tfsift server [--stdio] [--debounce MS]`: the language server on stdin
// and stdout; exit 0 after `shutdown` and `exit`, 1 when the stream ends or
// `exit` comes without `shutdown`.
struct ServerOptions {
    bool stdio = false;  // accepted for clients that pass it; stdio is the only transport
    unsigned debounce_ms = 150;
};
void add_server_options(CLI::App& cmd, ServerOptions& options);
int run_server(const ServerOptions& options);

// TFSIFT_OFFLINE=1 (any value but "" and "0") forces `offline` everywhere
// (`tfsift lock`, `tfsift lint --fix`).
[[nodiscard]] bool offline_forced();

}  // namespace tfsift::cli
