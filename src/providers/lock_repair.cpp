// Offline lock file repair.
#include "tfsift/providers/lock_repair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include "tfsift/atomic_write.hpp"
#include "tfsift/providers/package_audit.hpp"

namespace tfsift::providers {

namespace fs = std::filesystem;

namespace {

std::string quoted_constraints(const VersionConstraints& c) {
    std::string text = render_constraints(c);
    return text.empty() ? "any version" : "\"" + text + "\"";
}

}  // namespace

RepairResult repair_lock(const LockFile& old, const TreeRequirements& requirements,
                         const std::vector<LocalPackage>& packages, const RepairOptions& options) {
    RepairResult out;
    out.locks = old;
    for (const auto& [provider, lock] : old.providers) {
        if (options.keep_unrequired || options.requirements_partial || requirements.count(provider)) continue;
        out.locks.providers.erase(provider);
        out.changes.push_back(fmt::format("- Removed {} {} (no longer required)", provider.to_string(),
                                          lock.version.to_string()));
    }
    for (const auto& [provider, req] : requirements) {
        if (!provider.is_lockable(options.engine)) continue;
        const ProviderLock* prior = old.find(provider);
        const std::string name = provider.to_string();
        std::vector<Version> available;
        for (const auto& p : packages) {
            if (p.provider != provider) continue;
            if (std::none_of(available.begin(), available.end(), [&](const Version& v) { return v == p.version; })) {
                available.push_back(p.version);
            }
        }
        std::sort(available.begin(), available.end(),
                  [](const Version& a, const Version& b) { return compare_precedence(a, b) < 0; });
        std::optional<Version> version;
        if (prior && constraints_allow(req.constraints, prior->version)) {
            version = prior->version;
        } else {
            version = select_newest(req.constraints, available);
            if (!version) {
                out.problems.push_back(fmt::format(
                    "{}: no package matching {} is available offline{}", name, quoted_constraints(req.constraints),
                    prior ? "; the entry is left as it is" : "; no entry added"));
                continue;
            }
        }
        const bool kept = prior && prior->version == *version;
        std::vector<std::string> hashes = kept ? prior->hashes : std::vector<std::string>{};
        ProviderLock probe = make_provider_lock(provider, *version, req.constraints, hashes);
        auto audit = audit_packages(probe, packages, options.installed_dir);
        std::vector<std::string> added_platforms;
        for (const auto& platform : options.platforms) {
            auto it = std::find_if(audit.packages.begin(), audit.packages.end(),
                                   [&](const AuditedPackage& a) { return a.package.platform == platform; });
            if (it == audit.packages.end()) {
                out.problems.push_back(fmt::format("{} {}: no {} package is available offline, so no hash for it was "
                                                   "recorded",
                                                   name, version->to_string(), platform.to_string()));
                continue;
            }
            if (it->mismatch) {
                out.problems.push_back(fmt::format("{} {}: the {} package at {} matches none of the recorded hashes; "
                                                   "its hash was not added",
                                                   name, version->to_string(), platform.to_string(),
                                                   it->package.path.string()));
                continue;
            }
            if (it->matches || it->h1.empty()) continue;
            hashes.push_back(it->h1);
            added_platforms.push_back(platform.to_string());
        }
        if (auto vouched = options.vouched_hashes.find({provider, version->to_string()});
            vouched != options.vouched_hashes.end()) {
            hashes.insert(hashes.end(), vouched->second.begin(), vouched->second.end());
        }
        const VersionConstraints& constraints =
            kept && options.requirements_partial ? prior->constraints : req.constraints;
        ProviderLock entry = make_provider_lock(provider, *version, constraints, hashes);
        if (prior) entry.definition = prior->definition;
        if (!prior) {
            out.changes.push_back(fmt::format("- Added {} {} (newest available version matching {})", name,
                                              version->to_string(), quoted_constraints(req.constraints)));
        } else if (!kept) {
            out.changes.push_back(fmt::format("- Changed {} {} -> {} ({} does not match {})", name,
                                              prior->version.to_string(), version->to_string(),
                                              prior->version.to_string(), quoted_constraints(req.constraints)));
        } else if (render_constraints(prior->constraints) != render_constraints(constraints)) {
            out.changes.push_back(fmt::format("- Updated the constraints of {} to {}", name,
                                              quoted_constraints(req.constraints)));
        }
        if (!added_platforms.empty()) {
            std::string list;
            for (const auto& p : added_platforms) list += (list.empty() ? "" : ", ") + p;
            out.changes.push_back(fmt::format("- Recorded checksums of {} {} for {}", name, version->to_string(), list));
        }
        out.locks.providers[provider] = std::move(entry);
    }
    return out;
}

LockUpdate update_lock_file(const fs::path& dir, const TreeRequirements& requirements,
                            const std::vector<LocalPackage>& packages, const RepairOptions& options,
                            bool always_write) {
    LockUpdate out;
    out.path = (dir / kLockFileName).lexically_normal();
    std::error_code ec;
    bool exists = fs::exists(fs::symlink_status(out.path, ec));
    Engine engine = options.engine;
    LockFile old;
    std::string old_bytes;
    if (exists) {
        LockReadOptions read_options;
        read_options.engine = options.engine;
        auto read = load_lock_file(out.path, read_options);
        if (read.has_errors()) {
            out.error = fmt::format("{} has errors (see lock-syntax) and is left untouched", out.path.string());
            return out;
        }
        old = read.locks;
        if (read.source) {
            old_bytes = std::string(read.source->text());
            auto newline = old_bytes.find('\n');
            engine = engine_of_lock_header(old_bytes.substr(0, newline)).value_or(options.engine);
        }
    }
    auto repaired = repair_lock(old, requirements, packages, options);
    out.changes = std::move(repaired.changes);
    out.problems = std::move(repaired.problems);
    if (options.all_or_nothing && !out.problems.empty()) return out;
    if (!exists && repaired.locks.providers.empty()) return out;
    std::string bytes = write_lock_file(repaired.locks, engine);
    if (exists && bytes == old_bytes && !always_write) return out;
    auto result = atomic_write_file(out.path, bytes);
    if (!result.ok()) {
        out.error = result.error;
        return out;
    }
    out.written = true;
    return out;
}

}  // namespace tfsift::providers
