// `tfsift lock` and the lock file part of `tfsift lint --fix`: repair of
// the root module's dependency lock file, from the registries (online) or
// from the packages on disk (offline).
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <optional>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/net/engine_version.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/net/http_client.hpp"
#include "tfsift/online/online_lock.hpp"
#include "tfsift/providers/lock_repair.hpp"
#include "tfsift/providers/package_audit.hpp"
#include "tfsift/providers/state_file.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {

namespace {

void print_update(const providers::LockUpdate& update) {
    if (!update.changes.empty()) {
        fmt::print(stderr, "{}: {}\n", update.path.string(),
                   update.written ? "updated the provider dependency selections" : "would change");
        for (const auto& c : update.changes) fmt::print(stderr, "{}\n", c);
    }
    for (const auto& p : update.problems) fmt::print(stderr, "{}: not repaired: {}\n", update.path.string(), p);
    if (!update.error.empty()) fmt::print(stderr, "tfsift: {}\n", update.error);
}

std::vector<providers::Platform> platforms_of(const std::vector<std::string>& names, bool& ok) {
    std::vector<providers::Platform> out;
    ok = true;
    for (const auto& name : names) {
        auto parsed = providers::parse_platform(name);
        if (!parsed.platform) {
            fmt::print(stderr, "tfsift: invalid target platform \"{}\": {}\n", name, parsed.error);
            ok = false;
            continue;
        }
        out.push_back(*parsed.platform);
    }
    if (out.empty() && ok) out.push_back(providers::current_platform());
    return out;
}

extern "C" void on_interrupt(int /*signal*/) { net::request_cancel(); }

// "1048576", "512KiB", "1MiB", "2GiB" (also KB/MB/GB as powers of 1024).
std::optional<std::uint64_t> parse_size(std::string_view text) {
    std::uint64_t value = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (value > (1ULL << 50)) return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
    }
    if (i == 0) return std::nullopt;
    const std::string_view unit = text.substr(i);
    int shift = 0;
    if (unit.empty() || unit == "B") {
        shift = 0;
    } else if (unit == "KiB" || unit == "KB" || unit == "K") {
        shift = 10;
    } else if (unit == "MiB" || unit == "MB" || unit == "M") {
        shift = 20;
    } else if (unit == "GiB" || unit == "GB" || unit == "G") {
        shift = 30;
    } else {
        return std::nullopt;
    }
    if (value == 0 || value > (std::uint64_t{1} << (62 - shift))) return std::nullopt;
    return value << shift;
}

int run_lock_online(const LockOptions& o, Engine engine, const config::LoadedTree& tree,
                    const providers::RepairOptions& repair, const lint::Settings& settings) {
    online::OnlineLockRequest request;
    request.dir = o.dir;
    request.requirements = config::collect_tree_requirements(*tree.root, engine);
    request.repair = repair;
    for (const auto& text : o.providers) {
        auto parsed = providers::parse_provider_source(text, engine);
        if (!parsed.provider) {
            fmt::print(stderr, "tfsift: invalid provider argument \"{}\": {}\n", text,
                       parsed.error ? parsed.error->detail : std::string("not a provider source address"));
            return exit_failure;
        }
        request.only.push_back(*parsed.provider);
    }
    const auto env = providers::process_environment();
    request.fetch.net_mirror = o.net_mirror;
    request.fetch.cache_dir = o.cache_dir.empty() ? online::default_cache_dir(env) : fs::path(o.cache_dir);
    request.fetch.jobs = o.jobs;
    request.fetch.progress_bar = !o.quiet && isatty(STDERR_FILENO) != 0;
    if (!o.max_package_size.empty()) {
        auto bytes = parse_size(o.max_package_size);
        if (!bytes) {
            fmt::print(stderr, "tfsift: --max-package-size \"{}\" is not a size such as 512MiB or 2GiB\n",
                       o.max_package_size);
            return exit_failure;
        }
        request.fetch.max_package_bytes = *bytes;
    }
    if (o.enable_plugin_cache) {
        auto cli = providers::read_cli_config(providers::cli_config_files(env, engine), env);
        if (!cli.plugin_cache_dir) {
            fmt::print(stderr, "tfsift: --enable-plugin-cache needs a plugin cache directory (TF_PLUGIN_CACHE_DIR or "
                               "plugin_cache_dir in the CLI configuration)\n");
            return exit_failure;
        }
        request.plugin_cache_dir = *cli.plugin_cache_dir;
    }
    request.fetch.engine_version =
        settings.engine_version.value_or(std::string(default_engine_version(engine)));
    // Ctrl-C stops the transfers; temporary files go, the lock file stays as it was.
    auto previous = std::signal(SIGINT, &on_interrupt);
    auto previous_term = std::signal(SIGTERM, &on_interrupt);
    auto outcome = online::lock_online(request, env);
    std::signal(SIGINT, previous);
    std::signal(SIGTERM, previous_term);
    for (const auto& w : outcome.warnings) fmt::print(stderr, "tfsift: warning: {}\n", w);
    if (!o.quiet) {
        for (const auto& line : outcome.progress) fmt::print(stderr, "{}\n", line);
    }
    if (!outcome.ok()) {
        fmt::print(stderr, "tfsift: could not retrieve providers for locking; {} is unchanged\n",
                   (fs::path(o.dir) / providers::kLockFileName).lexically_normal().string());
        for (const auto& e : outcome.errors) fmt::print(stderr, "tfsift: {}\n", e);
        return exit_failure;
    }
    return exit_clean;
}

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
    cmd.add_option("--jobs", o.jobs, "Packages fetched at once (default: 8)")
        ->check(CLI::Range(1U, 64U));
    cmd.add_option("--max-package-size", o.max_package_size,
                   "Largest package accepted, downloaded and unpacked (bytes, or with KiB/MiB/GiB; default 2GiB)");
    cmd.add_flag("--quiet", o.quiet, "Print no progress lines");
    cmd.add_flag("--enable-plugin-cache", o.enable_plugin_cache,
                 "Also unpack the fetched packages into the plugin cache (TF_PLUGIN_CACHE_DIR or plugin_cache_dir)");
    cmd.add_option("--engine", o.engine, "terraform or opentofu (default: settings, else detected)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
}

int run_lock(const LockOptions& o) {
    std::error_code ec;
    if (!fs::is_directory(o.dir, ec)) {
        fmt::print(stderr, "tfsift: {}: no such directory\n", o.dir);
        return exit_failure;
    }
    if (!o.fs_mirror.empty() && !fs::is_directory(o.fs_mirror, ec)) {
        fmt::print(stderr, "tfsift: --fs-mirror {}: no such directory\n", o.fs_mirror);
        return exit_failure;
    }
    std::string settings_file = lint::find_settings_file(o.dir);
    lint::SettingsResult settings = settings_file.empty() ? lint::SettingsResult{}
                                                         : lint::load_settings(settings_file, false, lint::builtin_rules());
    for (const auto& e : settings.errors) fmt::print(stderr, "{}\n", e.to_string());
    if (!settings.ok()) return exit_failure;
    const Engine engine = lint::resolve_engine(parse_engine(o.engine), settings.settings, o.dir);
    auto tree = lint::load_for_lint(o.dir, engine, settings.settings);
    if (!tree.root) {
        fmt::print(stderr, "tfsift: cannot read {}\n", o.dir);
        return exit_failure;
    }
    if (tree.has_errors()) {
        fmt::print(stderr, "tfsift: the configuration in {} has errors; run `tfsift lint` first\n", o.dir);
        return exit_failure;
    }
    bool ok = true;
    providers::RepairOptions options;
    options.engine = engine;
    options.platforms = platforms_of(o.platforms, ok);
    if (!ok) return exit_failure;
    options.keep_unrequired = true;  // like `providers lock`: other entries stay
    options.all_or_nothing = true;   // and any failure leaves the file alone
    options.installed_dir = fs::path(o.dir) / ".terraform" / "providers";
    options.requirements_partial = !config::unloaded_module_calls(*tree.root).empty();
    const bool offline = o.offline || offline_forced();
    if (!offline && o.fs_mirror.empty()) {
        if (!o.net_mirror.empty()) {
            auto url = net::parse_absolute_url(o.net_mirror);
            if (!url || url->scheme != "https" || url->host.empty()) {
                fmt::print(stderr, "tfsift: Invalid network mirror URL: the --net-mirror URL \"{}\" must be an "
                                   "absolute https URL\n",
                           o.net_mirror);
                return exit_failure;
            }
        }
        return run_lock_online(o, engine, tree, options, settings.settings);
    }
    if (!o.net_mirror.empty()) {
        fmt::print(stderr, "tfsift: offline (--offline or TFSIFT_OFFLINE): --net-mirror {} is not used\n",
                   o.net_mirror);
    }
    std::vector<providers::LocalPackage> packages;
    if (!o.fs_mirror.empty()) {
        packages = providers::scan_filesystem_mirror(o.fs_mirror, engine);
    } else {
        packages = providers::all_packages(providers::find_local_packages(o.dir, providers::process_environment(), engine));
    }
    auto requirements = config::collect_tree_requirements(*tree.root, engine);
    auto update = providers::update_lock_file(o.dir, config::lock_requirements(requirements), packages, options,
                                              /*always_write=*/true);
    print_update(update);
    if (update.write_failed()) return exit_failure;
    // The lock file could not be read, or a provider could not be fetched,
    // verified or hashed: nothing was written (all or nothing), so the write
    // asked for failed.
    if (!update.error.empty()) return exit_failure;
    return update.problems.empty() ? exit_clean : exit_failure;
}

}  // namespace tfsift::cli
