// Fetching provider packages from their origin registries (or one network
// mirror) for a set of platforms, the way `terraform providers lock` does
// (spec 9.3, online-installer 1.5-1.6): discovery, the versions list, the
// version choice (the locked version while the constraints allow it), and
// per platform the download document, SHA256SUMS and its signature, the
// package itself (from the download cache when its checksum still matches),
// the authentication checks of package_authentication.hpp, unpacking into a
// private temporary directory and the `h1:` of the result. The download cache
// is download_cache.hpp's. Platforms are fetched in parallel
// (`jobs`); results come back in a fixed order whatever finished first.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/online/download_cache.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::online {

// Packages fetched at once unless --jobs says otherwise.
inline constexpr unsigned kDefaultFetchJobs = 8;

struct FetchOptions {
    Engine engine = Engine::terraform;
    std::vector<providers::Platform> platforms;
    std::string net_mirror;  // https base URL; empty: the origin registries
    // The CLI configuration's provider_installation methods (or the implied
    // ones, installation_methods()), as `terraform init` uses them (spec
    // 8.3): each provider is looked for in the methods that handle it, the
    // versions are the union of what they offer, and each platform's package
    // comes from the first of them that has it. Unset: the origin registries
    // or `net_mirror` only, as `terraform providers lock` does.
    std::optional<std::vector<providers::InstallationMethod>> installation;
    std::filesystem::path cache_dir;  // packed filesystem-mirror layout; empty: no cache
    unsigned jobs = 0;                // 0: kDefaultFetchJobs
    std::string engine_version;       // sent as X-Terraform-Version
    std::uint64_t max_package_bytes = 2ULL << 30;
    // Draw a one-line download progress display on stderr (the CLI sets it
    // when stderr is a terminal); it is erased again when the fetch ends.
    bool progress_bar = false;
};

struct FetchedPlatform {
    providers::Platform platform;
    std::filesystem::path unpacked;  // inside the result's temporary directory
    std::string h1;
    std::string zh;              // of the zip
    std::string authentication;  // "signed by HashiCorp", "self-signed, key ID ...", "verified checksum"
    bool downloaded = false;     // false: the cached zip was used
    std::filesystem::path zip;   // a downloaded zip, inside the temporary directory (empty: from the cache)
    std::string error;
};

struct FetchedProvider {
    providers::Provider provider;
    providers::Version version;
    std::vector<FetchedPlatform> platforms;  // in the requested order
    // The hashes the registry vouched for, for every platform: each line of a
    // signed SHA256SUMS; under OpenTofu with signing skipped, also what the
    // download documents' `packages` list (spec 3.7 step 6). Sorted.
    std::vector<std::string> signed_zh;
    std::vector<std::string> warnings;  // the registry's warnings
    std::string error;                  // could not choose a version
};

// Owns the temporary directory the packages were unpacked into; it is
// removed with the result.
struct FetchResult {
    std::vector<FetchedProvider> providers;  // in provider order
    std::vector<std::string> warnings;       // settings, credentials helpers
    std::uint64_t downloads = 0;             // packages actually transferred
    std::shared_ptr<const std::filesystem::path> work_dir;
    std::string error;  // the run could not start (no private download directory)
    [[nodiscard]] bool ok() const;
    // Every error, each naming host, provider, version and platform.
    [[nodiscard]] std::vector<std::string> errors() const;
};

// Fetches `wanted` (provider -> constraints) with the locked versions of
// `old` preferred. Reads the environment (SSL_CERT_FILE, proxies, TF_TOKEN_,
// TF_REGISTRY_*) and the CLI configuration's host and credentials blocks.
[[nodiscard]] FetchResult fetch_providers(const std::map<providers::Provider, providers::VersionConstraints>& wanted,
                                          const providers::LockFile& old, const FetchOptions& options,
                                          const providers::Environment& env);

}  // namespace tfsift::online
