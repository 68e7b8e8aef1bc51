// Comparing the packages tfsift can see for a locked provider version with
// the hashes its lock entry records: which packages match, which platforms
// have no recorded hash yet, and which packages contradict the record.
#pragma once

#include <string>
#include <vector>

#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/package_sources.hpp"

namespace tfsift::providers {

// Every package of `local` in search order: installed, plugin cache, mirrors.
[[nodiscard]] std::vector<LocalPackage> all_packages(const LocalPackages& local);

struct AuditedPackage {
    LocalPackage package;
    bool installed = false;  // found in the working directory's .terraform/providers
    std::string h1;          // empty when it could not be hashed
    std::string zh;          // zips only
    std::string error;       // why it could not be hashed
    bool matches = false;    // its h1: or zh: is recorded
    bool mismatch = false;   // recorded hashes should have covered it and do not
};

struct PackageAudit {
    std::vector<AuditedPackage> packages;       // one per platform (the first source wins), by platform
    std::vector<std::string> unmatched_hashes;  // recorded h1: hashes that fit none of the packages
    [[nodiscard]] bool any_mismatch() const;
};

// Audits the packages of `lock.version` in `packages`. A package whose hash
// is not recorded contradicts the record (a mismatch) when it is installed
// (init checked it against the entry), when it is a zip and the entry holds
// zh: hashes (a registry's checksums cover every platform), or when a
// recorded h1: fits no available package (a hash was recorded for it and
// changed). Otherwise its platform is simply not recorded yet.
[[nodiscard]] PackageAudit audit_packages(const ProviderLock& lock, const std::vector<LocalPackage>& packages,
                                          const std::filesystem::path& installed_dir);

}  // namespace tfsift::providers
