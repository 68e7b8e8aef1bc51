#include "tfsift/lint/lock_fix.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <string_view>

#include "tfsift/atomic_write.hpp"
#include "tfsift/config/tree_requirements.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/net/engine_version.hpp"
#include "tfsift/online/download_cache.hpp"
#include "tfsift/online/provider_fetcher.hpp"
#include "tfsift/providers/installation_methods.hpp"
#include "tfsift/providers/lock_repair.hpp"
#include "tfsift/providers/package_audit.hpp"
#include "tfsift/providers/platform.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

namespace {

std::atomic<LockRepairSession*> active_session{nullptr};

// The provider names a problem line of providers::repair_lock may start
// with: its text up to each ':' or ' ' before its first space (a provider
// address holds no space, but its host may hold a port's ':').
void add_named_providers(std::string_view problem, std::unordered_set<std::string>& out) {
    const std::size_t space = problem.find(' ');
    const std::size_t end = space == std::string_view::npos ? problem.size() : space + 1;
    for (std::size_t i = 1; i < end; ++i) {
        if (problem[i] == ':' || problem[i] == ' ') out.emplace(problem.substr(0, i));
    }
}

// What repair_lock says when a package is only missing offline.
constexpr std::string_view kOfflineOnly = "is available offline";

// A repair that selects another version of a provider already locked is
// what `init -upgrade` does: a person should look at it first.
bool changes_a_version(const providers::LockFile& before, const providers::LockFile& after) {
    return std::any_of(after.providers.begin(), after.providers.end(), [&](const auto& entry) {
        const auto* old = before.find(entry.first);
        return old != nullptr && old->version != entry.second.version;
    });
}

// The packages of the providers `missing` from the registries (or the CLI
// configuration's installation methods), added to `packages` with the hashes
// their registries vouch for. Says what it fetched and what it could not.
std::optional<online::FetchResult> fetch_missing(const LintContext& ctx, const config::TreeRequirements& requirements,
                                                 const std::vector<providers::Provider>& missing,
                                                 const providers::LockFile& old, providers::RepairOptions& options,
                                                 std::vector<providers::LocalPackage>& packages,
                                                 const std::function<void(const std::string&, bool)>& say) {
    std::map<providers::Provider, providers::VersionConstraints> wanted;
    for (const auto& provider : missing) wanted.emplace(provider, requirements.at(provider).constraints);
    const auto env = providers::process_environment();
    online::FetchOptions fetch;
    fetch.engine = ctx.engine;
    fetch.platforms = options.platforms;
    fetch.cache_dir = online::default_cache_dir(env);
    fetch.engine_version = ctx.settings->engine_version.value_or(std::string(default_engine_version(ctx.engine)));
    const auto config = providers::read_cli_config(providers::cli_config_files(env, ctx.engine), env);
    std::error_code ec;
    fetch.installation = providers::installation_methods(config, env, ctx.engine, fs::current_path(ec));
    online::FetchResult fetched = online::fetch_providers(wanted, old, fetch, env);
    for (const auto& w : fetched.warnings) say("tfsift: warning: " + w, false);
    for (const auto& p : fetched.providers) {
        if (p.warnings.empty()) continue;
        std::string text = fmt::format(
            "tfsift: warning: Additional provider information from registry: the remote "
            "registry returned warnings for {}:",
            p.provider.to_string());
        for (const auto& w : p.warnings) text += "\n- " + w;
        say(text, false);
    }
    for (const auto& platform : options.platforms) {
        for (const auto& p : fetched.providers) {
            if (!p.error.empty()) continue;
            const auto it = std::find_if(p.platforms.begin(), p.platforms.end(),
                                         [&](const online::FetchedPlatform& f) { return f.platform == platform; });
            if (it == p.platforms.end()) continue;
            const std::string addr = p.provider.for_display(ctx.engine);
            say(fmt::format("- Fetching {} {} for {}...", addr, p.version.to_string(), platform.to_string()), false);
            if (it->error.empty()) {
                say(fmt::format("- Retrieved {} {} for {} ({})", addr, p.version.to_string(), platform.to_string(),
                                it->authentication),
                    false);
            }
        }
    }
    const auto errors = fetched.errors();
    if (!errors.empty()) {
        for (const auto& e : errors)
            say(fmt::format("{}: not repaired: {}", lock_file_display_path(ctx.module_dir), e), true);
        return std::nullopt;
    }
    for (const auto& p : fetched.providers) {
        for (const auto& f : p.platforms) {
            packages.push_back(providers::LocalPackage{p.provider, p.version, f.platform,
                                                       providers::PackageKind::directory, f.unpacked});
        }
        if (!p.signed_zh.empty()) options.vouched_hashes[{p.provider, p.version.to_string()}] = p.signed_zh;
    }
    return fetched;
}

LockRepair compute_lock_repair(const LintContext& ctx, const LockInputs& in, LockRepairSession* session) {
    LockRepair out;
    auto say = [&](const std::string& line, bool failure) {
        if (session != nullptr) session->say(line, failure);
    };
    if (ctx.role != ModuleRole::root || (in.exists && in.read.has_errors())) return out;
    providers::RepairOptions options;
    options.engine = ctx.engine;
    options.installed_dir = fs::path(ctx.module_dir) / ".terraform" / "providers";
    options.requirements_partial = !config::unloaded_module_calls(ctx.module()).empty();
    bool platforms_ok = true;
    for (const auto& name : ctx.settings->platforms) {
        auto parsed = providers::parse_platform(name);
        if (!parsed.platform) {
            say(fmt::format("tfsift: invalid target platform \"{}\": {}", name, parsed.error), false);
            platforms_ok = false;
            continue;
        }
        options.platforms.push_back(*parsed.platform);
    }
    if (!platforms_ok) {
        if (session != nullptr) session->mark_not_repaired();
        return out;
    }
    if (options.platforms.empty()) options.platforms.push_back(providers::current_platform());
    if (session != nullptr) {
        // Temporary files of the lock file left by a killed run go before a repair.
        if (auto target = write_target(in.path)) remove_stale_temp_files(*target);
    }
    config::TreeRequirements requirements = in.requirements();
    if (auto state = load_state(ctx)) {
        if (state->has_errors()) {
            options.keep_unrequired = true;  // cannot tell what the state still needs
        } else {
            config::add_state_requirements(requirements, *state);
        }
    }
    const providers::LockFile& old = in.read.locks;
    const providers::ProviderRequirements wanted = config::lock_requirements(requirements);
    std::vector<providers::LocalPackage> packages = providers::all_packages(visible_packages(ctx));
    auto repaired = providers::repair_lock(old, wanted, packages, options);
    // What only a download can give comes from the registries when fixing
    // online; a package contradicting the lock file is not something a
    // download can settle.
    std::vector<providers::Provider> missing;
    std::unordered_set<std::string> offline_only;  // providers named by a problem a download may settle
    for (const std::string& p : repaired.problems) {
        if (p.find(kOfflineOnly) != std::string::npos) add_named_providers(p, offline_only);
    }
    for (const auto& entry : requirements) {
        if (offline_only.count(entry.first.to_string()) != 0) missing.push_back(entry.first);
    }
    std::optional<online::FetchResult> fetched;  // owns the fetched packages while they are hashed
    bool fetch_said = false;                     // a failed fetch said why those providers stay unrepaired
    if (session != nullptr && session->online() && !missing.empty()) {
        fetched = fetch_missing(ctx, requirements, missing, old, options, packages, say);
        if (fetched) repaired = providers::repair_lock(old, wanted, packages, options);
        fetch_said = !fetched;
    }
    const std::string display = lock_file_display_path(ctx.module_dir);
    out.changes = std::move(repaired.changes);
    out.problems = std::move(repaired.problems);
    for (const std::string& p : out.problems) add_named_providers(p, out.providers_with_problems);
    if (session != nullptr) {
        std::vector<std::string> unsaid = out.problems;
        if (fetch_said) {
            std::erase_if(unsaid, [](const std::string& p) { return p.find(kOfflineOnly) != std::string::npos; });
        }
        session->record(in.path, out.changes, unsaid);
    }
    if (!in.exists && repaired.locks.providers.empty()) return out;
    const std::string_view old_text = in.exists ? in.read.source->text() : std::string_view();
    const Engine engine =
        in.exists ? providers::engine_of_lock_header(old_text.substr(0, old_text.find('\n'))).value_or(ctx.engine)
                  : ctx.engine;
    std::string text = providers::write_lock_file(repaired.locks, engine);
    if (in.exists && text == old_text) return out;
    Fix fix;
    fix.applicability = changes_a_version(old, repaired.locks) ? Applicability::unsafe : Applicability::safe;
    fix.description = in.exists ? "Update the provider selections in " + display : "Create " + display;
    auto file = in.source();
    const auto end = static_cast<std::uint32_t>(file->text().size());
    fix.edits.push_back(TextEdit{file, Range{Pos{0}, Pos{end}}, std::move(text)});
    out.fix = std::move(fix);
    return out;
}

}  // namespace

bool LockRepair::repairs(const providers::Provider& provider) const {
    return fix.has_value() && providers_with_problems.count(provider.to_string()) == 0;
}

const LockRepair& lock_repair(const LintContext& ctx) {
    const LockInputs& in = load_lock_inputs(ctx);
    if (!in.repair) in.repair = std::make_shared<const LockRepair>(compute_lock_repair(ctx, in, active_session.load()));
    return *in.repair;
}

void attach_lock_repair(const LintContext& ctx, Finding& finding, const std::optional<providers::Provider>& provider) {
    const LockRepair& repair = lock_repair(ctx);
    if (!repair.fix || (provider && !repair.repairs(*provider))) return;
    finding.fix = repair.fix;
}

LockRepairSession::LockRepairSession(bool online) : online_(online) {
    LockRepairSession* expected = nullptr;
    active_session.compare_exchange_strong(expected, this);
}

LockRepairSession::~LockRepairSession() {
    LockRepairSession* expected = this;
    active_session.compare_exchange_strong(expected, nullptr);
}

void LockRepairSession::say(const std::string& line, bool fetch_failure) {
    const std::lock_guard<std::mutex> hold(mutex_);
    messages_.push_back(line);
    if (fetch_failure) fetch_failed_ = true;
}

void LockRepairSession::mark_not_repaired() {
    const std::lock_guard<std::mutex> hold(mutex_);
    not_repaired_ = true;
}

void LockRepairSession::record(const std::string& path, const std::vector<std::string>& changes,
                               const std::vector<std::string>& problems) {
    const std::lock_guard<std::mutex> hold(mutex_);
    repaired_.push_back({path, changes, problems});
}

std::vector<std::string> LockRepairSession::outcome(const std::vector<std::string>& written) const {
    const std::lock_guard<std::mutex> hold(mutex_);
    // Modules are linted in parallel: report in path order, whatever the jobs.
    std::vector<const Repaired*> in_order;
    in_order.reserve(repaired_.size());
    for (const Repaired& r : repaired_) in_order.push_back(&r);
    std::stable_sort(in_order.begin(), in_order.end(),
                     [](const Repaired* a, const Repaired* b) { return a->path < b->path; });
    std::vector<std::string> lines;
    for (const Repaired* each : in_order) {
        const Repaired& r = *each;
        if (!r.changes.empty() && std::find(written.begin(), written.end(), r.path) != written.end()) {
            lines.push_back(r.path + ": updated the provider dependency selections");
            lines.insert(lines.end(), r.changes.begin(), r.changes.end());
        }
        for (const auto& p : r.problems) lines.push_back(fmt::format("{}: not repaired: {}", r.path, p));
    }
    return lines;
}

std::vector<std::string> LockRepairSession::take_messages() {
    const std::lock_guard<std::mutex> hold(mutex_);
    return std::exchange(messages_, {});
}

bool LockRepairSession::not_repaired() const {
    const std::lock_guard<std::mutex> hold(mutex_);
    return not_repaired_;
}

bool LockRepairSession::fetch_failed() const {
    const std::lock_guard<std::mutex> hold(mutex_);
    return fetch_failed_;
}

}  // namespace tfsift::lint
