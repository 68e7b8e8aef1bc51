// The online `tfsift lock`: fetch, then one all-or-nothing lock update.
#include "tfsift/online/online_lock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "tfsift/providers/installation_methods.hpp"
#include "tfsift/providers/lock_file.hpp"

namespace tfsift::online {

namespace fs = std::filesystem;
using providers::Provider;

OnlineLockOutcome lock_online(const OnlineLockRequest& request, const providers::Environment& env) {
    OnlineLockOutcome out;
    const Engine engine = request.repair.engine;
    const fs::path lock_path = request.dir / providers::kLockFileName;
    providers::LockFile old;
    std::error_code ec;
    if (fs::exists(fs::symlink_status(lock_path, ec))) {
        providers::LockReadOptions read_options;
        read_options.engine = engine;
        auto read = providers::load_lock_file(lock_path, read_options);
        if (read.has_errors()) {
            out.errors.push_back(fmt::format("{} has errors (see lock-syntax) and is left untouched",
                                             lock_path.lexically_normal().string()));
            return out;
        }
        old = read.locks;
    }
    // What to fetch: the lockable requirements, narrowed by --provider.
    providers::ProviderRequirements wanted_requirements;
    std::map<Provider, providers::VersionConstraints> wanted;
    for (const auto& provider : request.only) {
        if (request.requirements.count(provider) == 0) {
            out.errors.push_back(
                fmt::format("Invalid provider argument: the provider {} is not required by the "
                            "current configuration.",
                            provider.for_display(engine)));
        }
    }
    if (!out.errors.empty()) return out;
    for (const auto& [provider, req] : request.requirements) {
        if (!provider.is_lockable(engine)) continue;
        if (!request.only.empty() &&
            std::find(request.only.begin(), request.only.end(), provider) == request.only.end()) {
            continue;
        }
        wanted_requirements.emplace(provider, req);
        wanted.emplace(provider, req.constraints);
    }
    FetchOptions fetch_options = request.fetch;
    fetch_options.engine = engine;
    fetch_options.platforms = request.repair.platforms;
    if (request.use_installation_methods) {
        const auto config = providers::read_cli_config(providers::cli_config_files(env, engine), env);
        std::error_code cwd_ec;
        fetch_options.installation = providers::installation_methods(config, env, engine, fs::current_path(cwd_ec));
    }
    auto fetched = fetch_providers(wanted, old, fetch_options, env);
    out.warnings = fetched.warnings;
    out.downloads = fetched.downloads;
    for (const auto& p : fetched.providers) {
        if (p.warnings.empty()) continue;
        std::string text = fmt::format(
            "Additional provider information from registry: the remote registry returned "
            "warnings for {}:",
            p.provider.to_string());
        for (const auto& w : p.warnings) text += "\n- " + w;
        out.warnings.push_back(text);
    }
    // Progress in Terraform's order: per platform, per provider.
    for (const auto& platform : request.repair.platforms) {
        for (const auto& p : fetched.providers) {
            if (!p.error.empty()) continue;
            const auto it = std::find_if(p.platforms.begin(), p.platforms.end(),
                                         [&](const FetchedPlatform& f) { return f.platform == platform; });
            if (it == p.platforms.end()) continue;
            const std::string addr = p.provider.for_display(engine);
            out.progress.push_back(
                fmt::format("- Fetching {} {} for {}...", addr, p.version.to_string(), platform.to_string()));
            if (it->error.empty()) {
                out.progress.push_back(fmt::format("- Retrieved {} {} for {} ({})", addr, p.version.to_string(),
                                                   platform.to_string(), it->authentication));
            }
        }
    }
    out.errors = fetched.errors();
    if (!out.errors.empty()) return out;

    // One lock update from the unpacked packages and the signed checksums.
    std::vector<providers::LocalPackage> packages;
    providers::RepairOptions options = request.repair;
    options.keep_unrequired = true;
    options.all_or_nothing = true;
    for (const auto& p : fetched.providers) {
        for (const auto& f : p.platforms) {
            packages.push_back(providers::LocalPackage{p.provider, p.version, f.platform,
                                                       providers::PackageKind::directory, f.unpacked});
        }
        if (!p.signed_zh.empty()) options.vouched_hashes[{p.provider, p.version.to_string()}] = p.signed_zh;
    }
    out.update =
        providers::update_lock_file(request.dir, wanted_requirements, packages, options, /*always_write=*/true);
    if (!out.update.error.empty()) out.errors.push_back(out.update.error);
    for (const auto& problem : out.update.problems) out.errors.push_back(problem);
    if (!out.errors.empty()) return out;

    if (!request.plugin_cache_dir.empty()) {
        for (const auto& p : fetched.providers) {
            for (const auto& f : p.platforms) {
                const fs::path target = request.plugin_cache_dir / p.provider.hostname / p.provider.namespace_ /
                                        p.provider.type / p.version.to_string() / f.platform.to_string();
                if (fs::exists(target, ec)) continue;
                const fs::path staging = target.parent_path() / ("." + f.platform.to_string() + ".tfsift-tmp");
                fs::create_directories(target.parent_path(), ec);
                fs::remove_all(staging, ec);
                fs::copy(f.unpacked, staging, fs::copy_options::recursive, ec);
                if (!ec) fs::rename(staging, target, ec);
                if (ec) {
                    fs::remove_all(staging, ec);
                    out.warnings.push_back(fmt::format("could not add {} {} for {} to the plugin cache {}",
                                                       p.provider.to_string(), p.version.to_string(),
                                                       f.platform.to_string(), request.plugin_cache_dir.string()));
                }
            }
        }
    }
    bool changed = false;
    for (const auto& p : fetched.providers) {
        const auto* prior = old.find(p.provider);
        const std::set<std::string> before =
            prior ? std::set<std::string>(prior->hashes.begin(), prior->hashes.end()) : std::set<std::string>{};
        if (!prior || prior->version != p.version) changed = true;
        for (const auto& f : p.platforms) {
            std::vector<std::string> platform_hashes = p.signed_zh;
            platform_hashes.push_back(f.h1);
            const bool all_known = prior && prior->version == p.version &&
                                   std::all_of(platform_hashes.begin(), platform_hashes.end(),
                                               [&](const std::string& h) { return before.count(h) != 0; });
            std::string_view sentence;
            if (!prior) {
                sentence =
                    "This was a new provider and the checksums for this platform are now tracked in the lock file";
            } else if (all_known) {
                sentence = "All checksums for this platform were already tracked in the lock file";
            } else {
                sentence = "Additional checksums for this platform are now tracked in the lock file";
                changed = true;
            }
            out.progress.push_back(fmt::format("- Obtained {} checksums for {}; {}", p.provider.for_display(engine),
                                               f.platform.to_string(), sentence));
        }
    }
    out.progress.emplace_back();
    if (changed) {
        out.progress.emplace_back("Success! tfsift has updated the lock file.");
        out.progress.emplace_back();
        out.progress.emplace_back(
            "Review the changes in .terraform.lock.hcl and then commit to your version control "
            "system to retain the new checksums.");
    } else {
        out.progress.emplace_back("Success! tfsift has validated the lock file and found no need for changes.");
    }
    return out;
}

}  // namespace tfsift::online
