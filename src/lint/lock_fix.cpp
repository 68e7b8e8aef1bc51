#include "tfsift/lint/lock_fix.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

#include "tfsift/net/engine_version.hpp"
#include "tfsift/online/online_lock.hpp"
#include "tfsift/providers/lock_repair.hpp"
#include "tfsift/providers/package_audit.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/state_file.hpp"
#include "tfsift/config/tree_requirements.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

namespace {

void say_update(const providers::LockUpdate& update, const std::function<void(std::string)>& say) {
    if (!update.changes.empty()) {
        say(fmt::format("{}: {}", update.path.string(),
                        update.written ? "updated the provider dependency selections" : "would change"));
        for (const auto& c : update.changes) say(c);
    }
    for (const auto& p : update.problems) say(fmt::format("{}: not repaired: {}", update.path.string(), p));
    if (!update.error.empty()) say("tfsift: " + update.error);
}

}  // namespace

bool lock_repair_selected(const std::vector<ActiveRule>& rules) {
    // The rules whose findings a repaired lock file no longer has.
    static const std::set<std::string, std::less<>> fixed_by_repair = {
        "lock-missing", "lock-missing-provider", "lock-stale-provider", "lock-version-mismatch",
        "lock-constraints-drift", "lock-platforms-incomplete", "lock-missing-hashes"};
    return std::any_of(rules.begin(), rules.end(),
                       [](const ActiveRule& a) { return a.enabled && fixed_by_repair.count(a.rule->id) != 0; });
}

LockFixOutcome repair_module_lock_file(const std::string& dir, const config::LoadedTree& tree, Engine engine,
                                       const Settings& settings, const std::string& state_file, bool offline,
                                       const std::function<void(std::string)>& say) {
    if (!tree.root) return LockFixOutcome::done;
    auto requirements = config::collect_tree_requirements(*tree.root, engine);
    providers::RepairOptions options;
    options.engine = engine;
    options.installed_dir = fs::path(dir) / ".terraform" / "providers";
    options.requirements_partial = !config::unloaded_module_calls(*tree.root).empty();
    bool platforms_ok = true;
    for (const auto& name : settings.platforms) {
        auto parsed = providers::parse_platform(name);
        if (!parsed.platform) {
            say(fmt::format("tfsift: invalid target platform \"{}\": {}", name, parsed.error));
            platforms_ok = false;
            continue;
        }
        options.platforms.push_back(*parsed.platform);
    }
    if (!platforms_ok) return LockFixOutcome::not_repaired;
    if (options.platforms.empty()) options.platforms.push_back(providers::current_platform());
    if (!state_file.empty()) {
        auto state = providers::read_state_file(state_file, state_file, engine);
        if (state.has_errors()) {
            options.keep_unrequired = true;  // cannot tell what the state still needs
        } else {
            config::add_state_requirements(requirements, state);
        }
    }
    auto local = providers::find_local_packages(dir, providers::process_environment(), engine);
    auto update = providers::update_lock_file(dir, config::lock_requirements(requirements), providers::all_packages(local),
                                              options);
    // Packages missing on disk come from the registries; a package that
    // contradicts the lock file is not something a download can settle.
    constexpr std::string_view offline_only = "is available offline";
    online::OnlineLockRequest request;
    for (const auto& [provider, req] : requirements) {
        const std::string name = provider.to_string();
        const bool missing = std::any_of(update.problems.begin(), update.problems.end(), [&](const std::string& p) {
            return (p.compare(0, name.size() + 1, name + ":") == 0 || p.compare(0, name.size() + 1, name + " ") == 0) &&
                   p.find(offline_only) != std::string::npos;
        });
        if (missing) request.only.push_back(provider);
    }
    if (offline || request.only.empty() || !update.error.empty()) {
        say_update(update, say);
        if (update.write_failed()) return LockFixOutcome::failed;
        return update.error.empty() ? LockFixOutcome::done : LockFixOutcome::not_repaired;
    }
    std::erase_if(update.problems, [&](const std::string& p) { return p.find(offline_only) != std::string::npos; });
    say_update(update, say);
    if (update.write_failed()) return LockFixOutcome::failed;
    request.dir = dir;
    request.requirements = requirements;
    request.repair = options;
    request.use_installation_methods = true;
    const auto env = providers::process_environment();
    request.fetch.cache_dir = online::default_cache_dir(env);
    request.fetch.engine_version = settings.engine_version.value_or(std::string(default_engine_version(engine)));
    auto outcome = online::lock_online(request, env);
    for (const auto& w : outcome.warnings) say("tfsift: warning: " + w);
    for (const auto& line : outcome.progress) say(line);
    for (const auto& e : outcome.errors) say(fmt::format("{}: not repaired: {}", update.path.string(), e));
    return outcome.ok() ? LockFixOutcome::done : LockFixOutcome::failed;
}

}  // namespace tfsift::lint
