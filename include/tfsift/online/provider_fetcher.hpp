// Fetching provider packages from their origin registries (or one network
// mirror) for a set of platforms, the way `terraform providers lock` does
// (spec 9.3, online-installer 1.5-1.6): discovery, the versions list, the
// version choice (the locked version while the constraints allow it), and
// per platform the download document, SHA256SUMS and its signature, the
// package itself (from the download cache when its checksum still matches),
// the three authentication checks, unpacking into a private temporary
// directory and the `h1:` of the result. Platforms are fetched in parallel
// (`jobs`); results come back in a fixed order whatever finished first.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
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
    std::string net_mirror;              // https base URL; empty: the origin registries
    std::filesystem::path cache_dir;     // packed filesystem-mirror layout; empty: no cache
    unsigned jobs = 0;                   // 0: kDefaultFetchJobs
    std::string engine_version;          // sent as X-Terraform-Version
    std::uint64_t max_package_bytes = 2ULL << 30;
    // Draw a one-line download progress display on stderr (the CLI sets it
    // when stderr is a terminal); it is erased again when the fetch ends.
    bool progress_bar = false;
};

struct FetchedPlatform {
    providers::Platform platform;
    std::filesystem::path unpacked;  // inside the result's temporary directory
    std::string h1;
    std::string zh;                  // of the zip
    std::string authentication;      // "signed by HashiCorp", "self-signed, key ID ...", "verified checksum"
    bool downloaded = false;         // false: the cached zip was used
    std::filesystem::path zip;       // the verified zip, inside the temporary directory
    std::filesystem::path cache_path;  // where it belongs in the download cache (empty: no cache)
    std::string error;
};

struct FetchedProvider {
    providers::Provider provider;
    providers::Version version;
    std::vector<FetchedPlatform> platforms;  // in the requested order
    std::vector<std::string> signed_zh;      // every line of a signed SHA256SUMS
    std::vector<std::string> warnings;       // the registry's warnings
    std::string error;                       // could not choose a version
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

// The download cache directory: TFSIFT_CACHE_DIR, else
// $XDG_CACHE_HOME/tfsift/providers, else ~/.cache/tfsift/providers.
[[nodiscard]] std::filesystem::path default_cache_dir(const providers::Environment& env);

// Parts of a SHA256SUMS document (spec 5.5), pure.
struct SumsLine {
    std::string hex;    // as written
    std::string error;  // upstream wording when there is no usable line
};
[[nodiscard]] SumsLine sums_line_for(std::string_view document, std::string_view filename);
// One "zh:" per line, or none when any non-blank line is not "HEX  NAME".
[[nodiscard]] std::vector<std::string> sums_zip_hashes(std::string_view document);
// The file name of each "zh:" of sums_zip_hashes(), by hash.
[[nodiscard]] std::map<std::string, std::string> sums_file_names(std::string_view document);

}  // namespace tfsift::online
