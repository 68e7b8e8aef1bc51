// Checking a provider package against the hashes a lock file records
// (getproviders.PackageMatchesHash / PackageMatchesAnyHash) and the
// installer's decision built on it (providercache Dir.InstallPackage with
// PreferredHashes): spec 4.5.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tfsift::providers {

// Where a package is: a zip archive or an unpacked directory.
enum class PackageKind : std::uint8_t { zip, directory };

struct HashMatch {
    bool matches = false;
    std::string error;  // why the package could not be hashed, or the hash not used
};

// One hash: h1: for either kind, zh: for a zip only (an error for a
// directory), any other scheme an error.
[[nodiscard]] HashMatch package_matches_hash(const std::filesystem::path& package, PackageKind kind,
                                             std::string_view hash);

// Any of `hashes`: unknown schemes and (for a directory) zh: are skipped;
// each scheme is computed at most once; a hashing failure is an error.
[[nodiscard]] HashMatch package_matches_any_hash(const std::filesystem::path& package, PackageKind kind,
                                                 std::span<const std::string> hashes);

// The h1: and zh: entries of `hashes`, in order (PreferredHashes).
[[nodiscard]] std::vector<std::string> preferred_hashes(std::span<const std::string> hashes);

// What the installer needs to name a package in its messages.
struct PackageIdentity {
    std::string provider;  // canonical address, e.g. registry.terraform.io/hashicorp/aws
    std::string version;   // e.g. 5.31.0
    std::string location;  // how the package's location is shown
};

struct InstallCheck {
    bool ok = true;
    std::string error;  // Terraform's installer message
};

// Whether `init` accepts this package for a lock entry holding `hashes`:
// only h1:/zh: count; none means no check; a directory whose preferred
// hashes are all zh: is not checked either; otherwise one must match.
[[nodiscard]] InstallCheck verify_package_for_install(const std::filesystem::path& package, PackageKind kind,
                                                      std::span<const std::string> hashes,
                                                      const PackageIdentity& identity);

}  // namespace tfsift::providers
