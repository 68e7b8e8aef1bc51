// `tfsift lock`: its flags, and the lines the library says printed on
// standard error (tfsift/lint/lock_command.hpp does the work).
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string_view>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/lint/lock_command.hpp"
#include "tfsift/net/http_client.hpp"
#include "tfsift/report/report.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace tfsift::cli {

namespace {

extern "C" void on_interrupt(int /*signal*/) { net::request_cancel(); }

}  // namespace

bool offline_forced() {
    const char* value = std::getenv("TFSIFT_OFFLINE");
    return value != nullptr && *value != '\0' && std::string_view(value) != "0";
}

void add_lock_options(CLI::App& cmd, LockOptions& o) {
    cmd.add_option("dir", o.dir, "The root module directory (default: .)");
    cmd.add_option("--platform", o.platforms, "Record hashes for this OS_ARCH platform (repeatable; default: this one)")
        ->allow_extra_args(false);
    auto* fs_mirror =
        cmd.add_option("--fs-mirror", o.fs_mirror, "Take packages only from this filesystem mirror directory");
    cmd.add_option("--net-mirror", o.net_mirror, "Take packages only from this network mirror (an https URL)")
        ->excludes(fs_mirror);
    cmd.add_option("--provider", o.providers, "Lock only this provider (repeatable; default: all required)")
        ->allow_extra_args(false);
    cmd.add_flag("--offline", o.offline, "Use only packages already on disk; open no network connection");
    cmd.add_option("--cache-dir", o.cache_dir,
                   "Download cache (default: TFSIFT_CACHE_DIR, else $XDG_CACHE_HOME/tfsift/providers)");
    cmd.add_option("--jobs", o.jobs, "Packages fetched at once (default: 8)")->check(CLI::Range(1U, 64U));
    cmd.add_option("--max-package-size", o.max_package_size,
                   "Largest package accepted, downloaded and unpacked (bytes, or with KiB/MiB/GiB; default 2GiB)");
    cmd.add_flag("--quiet", o.quiet, "Print no progress lines");
    cmd.add_flag("--enable-plugin-cache", o.enable_plugin_cache,
                 "Also unpack the fetched packages into the plugin cache (TF_PLUGIN_CACHE_DIR or plugin_cache_dir)");
    cmd.add_option("--engine", o.engine, "terraform or opentofu (default: settings, else detected)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
}

int run_lock(const LockOptions& o) {
    lint::LockCommandRequest request;
    request.catalogue = lint::builtin_rules();
    request.dir = o.dir;
    request.platforms = o.platforms;
    request.fs_mirror = o.fs_mirror;
    request.net_mirror = o.net_mirror;
    request.providers = o.providers;
    request.offline = o.offline || offline_forced();
    request.enable_plugin_cache = o.enable_plugin_cache;
    request.cache_dir = o.cache_dir;
    request.jobs = o.jobs;
    request.max_package_size = o.max_package_size;
    request.quiet = o.quiet;
    request.progress_bar = isatty(STDERR_FILENO) != 0;
    request.engine = parse_engine(o.engine);
    // Lines carry registry-supplied text (warnings, error bodies): escaped.
    request.say = [](const std::string& line) { fmt::print(stderr, "{}\n", report::escape_control_characters(line)); };
    // Ctrl-C stops the transfers; temporary files go, the lock file stays as it was.
    using Handler = void (*)(int);
    Handler previous = SIG_DFL;
    Handler previous_term = SIG_DFL;
    request.on_fetching = [&](bool fetching) {
        if (fetching) {
            previous = std::signal(SIGINT, &on_interrupt);
            previous_term = std::signal(SIGTERM, &on_interrupt);
        } else {
            std::signal(SIGINT, previous);
            std::signal(SIGTERM, previous_term);
        }
    };
    const auto result = lint::run_lock_command(request);
    return result.outcome == lint::LockCommandOutcome::done ? exit_clean : exit_failure;
}

}  // namespace tfsift::cli
