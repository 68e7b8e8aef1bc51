// Auditing local packages against a lock entry's hashes.
#include "tfsift/providers/package_audit.hpp"

#include <algorithm>
#include <set>

#include "tfsift/providers/hash.hpp"

namespace tfsift::providers {

std::vector<LocalPackage> all_packages(const LocalPackages& local) {
    std::vector<LocalPackage> out = local.installed;
    out.insert(out.end(), local.cache.begin(), local.cache.end());
    out.insert(out.end(), local.mirrors.begin(), local.mirrors.end());
    return out;
}

bool PackageAudit::any_mismatch() const {
    return std::any_of(packages.begin(), packages.end(), [](const AuditedPackage& p) { return p.mismatch; });
}

PackageAudit audit_packages(const ProviderLock& lock, const std::vector<LocalPackage>& packages,
                            const std::filesystem::path& installed_dir) {
    PackageAudit out;
    std::set<Platform> seen;
    const std::set<std::string> recorded(lock.hashes.begin(), lock.hashes.end());
    bool has_zh = std::any_of(lock.hashes.begin(), lock.hashes.end(),
                              [](const std::string& h) { return h.rfind("zh:", 0) == 0; });
    std::string installed_prefix = installed_dir.lexically_normal().generic_string();
    for (const auto& p : packages) {
        if (p.provider != lock.provider || !(p.version == lock.version) || !seen.insert(p.platform).second) continue;
        AuditedPackage a;
        a.package = p;
        std::string path = p.path.lexically_normal().generic_string();
        a.installed = !installed_prefix.empty() && path.rfind(installed_prefix + "/", 0) == 0;
        if (!p.refused.empty()) {
            a.error = p.refused;
            out.packages.push_back(std::move(a));
            continue;
        }
        auto h1 = h1_of_package(p.path);
        if (h1.ok()) {
            a.h1 = h1.value;
        } else {
            a.error = h1.error;
        }
        if (p.kind == PackageKind::zip) {
            auto zh = zh_of_zip(p.path);
            if (zh.ok()) a.zh = zh.value;
        }
        a.matches = (!a.h1.empty() && recorded.count(a.h1)) || (!a.zh.empty() && recorded.count(a.zh));
        out.packages.push_back(std::move(a));
    }
    std::sort(out.packages.begin(), out.packages.end(),
              [](const AuditedPackage& a, const AuditedPackage& b) { return a.package.platform < b.package.platform; });
    for (const auto& h : lock.hashes) {
        if (h.rfind("h1:", 0) != 0) continue;
        bool fits =
            std::any_of(out.packages.begin(), out.packages.end(), [&](const AuditedPackage& a) { return a.h1 == h; });
        if (!fits) out.unmatched_hashes.push_back(h);
    }
    bool checkable = std::any_of(lock.hashes.begin(), lock.hashes.end(),
                                 [](const std::string& h) { return h.rfind("h1:", 0) == 0 || h.rfind("zh:", 0) == 0; });
    for (auto& a : out.packages) {
        if (a.matches || !checkable) continue;
        a.mismatch = !a.error.empty() || a.installed || (has_zh && a.package.kind == PackageKind::zip) ||
                     !out.unmatched_hashes.empty();
    }
    return out;
}

}  // namespace tfsift::providers
