#include "tfsift/lint/lock_command.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <string_view>
#include <system_error>

#include "tfsift/config/tree_requirements.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/module_resolution.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/net/engine_version.hpp"
#include "tfsift/net/http_client.hpp"
#include "tfsift/online/online_lock.hpp"
#include "tfsift/providers/package_audit.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/state_file.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

namespace {

using Say = std::function<void(const std::string&)>;

void say_update(const providers::LockUpdate& update, const Say& say) {
    if (!update.changes.empty()) {
        say(fmt::format("{}: {}", update.path.string(),
                        update.written ? "updated the provider dependency selections" : "would change"));
        for (const auto& c : update.changes) say(c);
    }
    for (const auto& p : update.problems) say(fmt::format("{}: not repaired: {}", update.path.string(), p));
    if (!update.error.empty()) say("tfsift: " + update.error);
}

std::vector<providers::Platform> platforms_of(const std::vector<std::string>& names, bool& ok, const Say& say) {
    std::vector<providers::Platform> out;
    ok = true;
    for (const auto& name : names) {
        auto parsed = providers::parse_platform(name);
        if (!parsed.platform) {
            say(fmt::format("tfsift: invalid target platform \"{}\": {}", name, parsed.error));
            ok = false;
            continue;
        }
        out.push_back(*parsed.platform);
    }
    if (out.empty() && ok) out.push_back(providers::current_platform());
    return out;
}

LockCommandResult lock_online(const LockCommandRequest& o, Engine engine, const config::LoadedTree& tree,
                              const providers::RepairOptions& repair, const Settings& settings, const Say& say) {
    LockCommandResult result;
    online::OnlineLockRequest request;
    request.dir = o.dir;
    request.requirements = config::collect_tree_requirements(*tree.root, engine);
    request.repair = repair;
    for (const auto& text : o.providers) {
        auto parsed = providers::parse_provider_source(text, engine);
        if (!parsed.provider) {
            say(fmt::format("tfsift: invalid provider argument \"{}\": {}", text,
                            parsed.error ? parsed.error->detail : std::string("not a provider source address")));
            return result;
        }
        request.only.push_back(*parsed.provider);
    }
    const auto env = providers::process_environment();
    request.fetch.net_mirror = o.net_mirror;
    request.fetch.cache_dir = o.cache_dir.empty() ? online::default_cache_dir(env) : fs::path(o.cache_dir);
    request.fetch.jobs = o.jobs;
    request.fetch.progress_bar = !o.quiet && o.progress_bar;
    if (!o.max_package_size.empty()) {
        auto bytes = parse_byte_size(o.max_package_size);
        if (!bytes) {
            say(fmt::format("tfsift: --max-package-size \"{}\" is not a size such as 512MiB or 2GiB",
                            o.max_package_size));
            return result;
        }
        request.fetch.max_package_bytes = *bytes;
    }
    if (o.enable_plugin_cache) {
        auto cli = providers::read_cli_config(providers::cli_config_files(env, engine), env);
        if (!cli.plugin_cache_dir) {
            say("tfsift: --enable-plugin-cache needs a plugin cache directory (TF_PLUGIN_CACHE_DIR or "
                "plugin_cache_dir in the CLI configuration)");
            return result;
        }
        request.plugin_cache_dir = *cli.plugin_cache_dir;
    }
    request.fetch.engine_version = settings.engine_version.value_or(std::string(default_engine_version(engine)));
    if (o.on_fetching) o.on_fetching(true);
    auto outcome = online::lock_online(request, env);
    if (o.on_fetching) o.on_fetching(false);
    for (const auto& w : outcome.warnings) say("tfsift: warning: " + w);
    if (!o.quiet) {
        for (const auto& line : outcome.progress) say(line);
    }
    result.update = std::move(outcome.update);
    if (!outcome.ok()) {
        say(fmt::format("tfsift: could not retrieve providers for locking; {} is unchanged",
                        (fs::path(o.dir) / providers::kLockFileName).lexically_normal().string()));
        for (const auto& e : outcome.errors) say("tfsift: " + e);
        return result;
    }
    result.outcome = LockCommandOutcome::done;
    return result;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
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

LockCommandResult run_lock_command(const LockCommandRequest& o) {
    const Say say = o.say ? o.say : Say([](const std::string&) {});
    LockCommandResult result;
    std::error_code ec;
    if (!fs::is_directory(o.dir, ec)) {
        say(fmt::format("tfsift: {}: no such directory", o.dir));
        return result;
    }
    if (!o.fs_mirror.empty() && !fs::is_directory(o.fs_mirror, ec)) {
        say(fmt::format("tfsift: --fs-mirror {}: no such directory", o.fs_mirror));
        return result;
    }
    const std::string settings_file = find_settings_file(o.dir);
    const SettingsResult settings = settings_file.empty()
                                        ? SettingsResult{}
                                        : load_settings(settings_file, false, o.catalogue, trusted_root_of(o.dir));
    for (const auto& w : settings.warnings) say(w.to_string());
    for (const auto& e : settings.errors) say(e.to_string());
    if (!settings.ok()) return result;
    const Engine engine = resolve_engine(o.engine, settings.settings, o.dir);
    // Remote modules from .terraform/modules, the module cache, or (unless
    // offline) the network: the lock file needs the providers they require.
    ModuleFetchPolicy fetch;
    fetch.network = !o.offline;
    fetch.cache_dir = o.cache_dir;
    fetch.engine = engine;
    fetch.engine_version = settings.settings.engine_version.value_or("");
    auto tree = load_for_lint(o.dir, engine, settings.settings, {}, nullptr, nullptr, 0, nullptr,
                              default_module_resolver(fetch));
    if (!tree.root) {
        say(fmt::format("tfsift: cannot read {}", o.dir));
        return result;
    }
    // A module that could not be loaded may require providers: a lock file
    // written without it would be incomplete, so nothing is written.
    if (!tree.unavailable_calls.empty()) {
        for (const auto& call : tree.unavailable_calls) {
            std::string at = call.at.file != nullptr ? call.at.file->path() : o.dir;
            if (call.at.file != nullptr) {
                const ResolvedPos pos = call.at.file->resolve(call.at.pos);
                at += fmt::format(":{}:{}", pos.line, pos.column);
            }
            std::string why = call.why.reason;
            if (why.empty()) {
                why = o.offline ? "it is neither installed in .terraform/modules nor in the module cache, and "
                                  "--offline opens no connection"
                                : "it is neither installed in .terraform/modules nor in the module cache";
            }
            say(fmt::format("tfsift: {}: {} (\"{}\") is not loaded: {}", at, call.address, call.source, why));
        }
        say(fmt::format(
            "tfsift: the providers of {} module call{} not loaded are unknown, so the lock file is left alone; "
            "`tfsift fetch` (or `terraform init`) fetches {}",
            tree.unavailable_calls.size(), tree.unavailable_calls.size() == 1 ? "" : "s",
            tree.unavailable_calls.size() == 1 ? "it" : "them"));
        return result;
    }
    if (tree.has_errors()) {
        say(fmt::format("tfsift: the configuration in {} has errors; run `tfsift lint` first", o.dir));
        return result;
    }
    bool ok = true;
    providers::RepairOptions options;
    options.engine = engine;
    options.platforms = platforms_of(o.platforms, ok, say);
    if (!ok) return result;
    options.keep_unrequired = true;  // like `providers lock`: other entries stay
    options.all_or_nothing = true;   // and any failure leaves the file alone
    options.installed_dir = fs::path(o.dir) / ".terraform" / "providers";
    options.requirements_partial = !config::unloaded_module_calls(*tree.root).empty();
    if (!o.offline && o.fs_mirror.empty()) {
        if (!o.net_mirror.empty()) {
            auto url = net::parse_absolute_url(o.net_mirror);
            if (!url || url->scheme != "https" || url->host.empty()) {
                say(
                    fmt::format("tfsift: Invalid network mirror URL: the --net-mirror URL \"{}\" must be an "
                                "absolute https URL",
                                net::redacted_url(o.net_mirror)));
                return result;
            }
        }
        return lock_online(o, engine, tree, options, settings.settings, say);
    }
    if (!o.net_mirror.empty()) {
        say(fmt::format("tfsift: offline (--offline or TFSIFT_OFFLINE): --net-mirror {} is not used",
                        net::redacted_url(o.net_mirror)));
    }
    std::vector<providers::LocalPackage> packages;
    if (!o.fs_mirror.empty()) {
        packages = providers::scan_filesystem_mirror(o.fs_mirror, engine);
    } else {
        packages =
            providers::all_packages(providers::find_local_packages(o.dir, providers::process_environment(), engine));
    }
    auto requirements = config::collect_tree_requirements(*tree.root, engine);
    auto update = providers::update_lock_file(o.dir, config::lock_requirements(requirements), packages, options,
                                              /*always_write=*/true);
    say_update(update, say);
    // Nothing was written when the lock file could not be read or a provider
    // could not be fetched, verified or hashed (all or nothing), or the write
    // failed: the write asked for failed. A provider left unrepaired fails too.
    const bool done = !update.write_failed() && update.error.empty() && update.problems.empty();
    result.update = std::move(update);
    result.outcome = done ? LockCommandOutcome::done : LockCommandOutcome::failed;
    return result;
}

}  // namespace tfsift::lint
