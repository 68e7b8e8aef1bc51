// tfsift's own cache of provider packages downloaded from registries, so a
// second `tfsift lock` or `lint --fix` downloads no package again
// (Terraform keeps no such cache; see docs/network.md).
//
// Layout under the root (spec online-installer 3):
//
//   <host>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
//   <host>/<namespace>/<type>/.tfsift/<version>/SHA256SUMS, SHA256SUMS.sig, ...
//   <host>/<namespace>/<type>/.tfsift/<version>/h1/<sha256 of the zip>
//   <host>/<namespace>/<type>/.tfsift/tmp/      downloads in progress
//
// The zips sit in the packed filesystem-mirror layout, so the cache is
// itself a valid `--fs-mirror` (the filesystem-mirror scan skips `.tfsift`,
// which is not a version). A cached zip is handed out only when it has a hash
// the caller trusts (a freshly verified SHA256SUMS line, a lock file's zh:,
// or the h1: a network mirror lists); anything else is removed so it is
// fetched again. Every
// file lands by an atomic rename; directories are created 0700.
//
// The HTTP download itself is not here: the caller downloads into
// new_download_file() and hands the verified file to store_package().
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tfsift/providers/address.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"

namespace tfsift::online {

// The default cap on a package's download and on its unpacked size
// (`--max-package-size`).
inline constexpr std::uint64_t kDefaultMaxPackageSize = std::uint64_t{2} << 30;  // 2 GiB

// Where the cache lives when the user did not say (`--cache-dir`):
// $TFSIFT_CACHE_DIR, else $XDG_CACHE_HOME/tfsift/providers, else
// $HOME/.cache/tfsift/providers. Empty when none of these is set (or set to
// a relative path, which the XDG rules ignore).
[[nodiscard]] std::filesystem::path default_cache_dir(const providers::Environment& env);

struct CacheResult {
    std::string error;  // what failed and why, naming the path
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// What lookup found.
struct CachedPackage {
    std::optional<std::filesystem::path> zip;  // set when a trusted copy is cached
    std::string zh;                            // its hash, "zh:…"
    // A cached copy that matched no trusted hash (corrupted, truncated or
    // replaced): what was found, and that it was removed. Empty otherwise.
    std::string dropped;
};

class DownloadCache {
public:
    explicit DownloadCache(std::filesystem::path root) : root_(std::move(root)) {}

    [[nodiscard]] const std::filesystem::path& root() const { return root_; }

    // Where a package's zip lives (whether or not it is there). Empty when a
    // part of the address cannot be a path component (".", "..", "/", NUL).
    [[nodiscard]] std::filesystem::path package_path(const providers::Provider& provider, std::string_view version,
                                                     const providers::Platform& platform) const;

    // The zip, when one is cached that has one of the `trusted` hashes: a
    // "zh:" is compared with the zip's SHA-256, an "h1:" with the hash of
    // its contents (other schemes are ignored). A cached zip that matches
    // none is removed and reported in `dropped`.
    [[nodiscard]] CachedPackage find_package(const providers::Provider& provider, std::string_view version,
                                             const providers::Platform& platform,
                                             std::span<const std::string> trusted) const;

    // A new empty file to download into, on the same file system as the
    // package's final place (so store_package can rename it there).
    struct DownloadFile {
        std::filesystem::path path;
        std::string error;
    };
    [[nodiscard]] DownloadFile new_download_file(const providers::Provider& provider) const;

    // The directory for a provider's temporary files (created 0700), e.g. the
    // `scratch` of h1_of_verified_zip, so that what an interrupted run leaves
    // there is found by remove_stale_temporaries. Empty on failure.
    [[nodiscard]] std::filesystem::path temporary_dir(const providers::Provider& provider) const;

    // Removes what interrupted runs left in the temporary directories of all
    // providers: entries last modified more than `age` ago (a run still
    // downloading keeps writing to its file). Returns how many were removed.
    std::size_t remove_stale_temporaries(std::chrono::seconds age) const;

    // Moves `downloaded` (already authenticated) to package_path() in one
    // rename, replacing what was there. A file on another file system is
    // copied beside the target first. On failure `downloaded` is left for
    // the caller to remove.
    [[nodiscard]] CacheResult store_package(const providers::Provider& provider, std::string_view version,
                                            const providers::Platform& platform,
                                            const std::filesystem::path& downloaded) const;

    // Registry documents kept beside the zips of one version: names such as
    // "SHA256SUMS", "SHA256SUMS.sig" or "keys.json" (a plain file name).
    [[nodiscard]] CacheResult store_document(const providers::Provider& provider, std::string_view version,
                                             std::string_view name, std::string_view bytes) const;
    [[nodiscard]] std::optional<std::string> load_document(const providers::Provider& provider,
                                                           std::string_view version, std::string_view name) const;

    // The h1: of the package whose zip has hash `zh`, so that a cached zip
    // need not be unpacked again. Only use it for a zip whose zh: was just
    // checked against a trusted hash.
    [[nodiscard]] CacheResult remember_h1(const providers::Provider& provider, std::string_view version,
                                          std::string_view zh, std::string_view h1) const;
    [[nodiscard]] std::optional<std::string> recall_h1(const providers::Provider& provider, std::string_view version,
                                                       std::string_view zh) const;

private:
    [[nodiscard]] std::filesystem::path type_dir(const providers::Provider& provider) const;
    [[nodiscard]] std::filesystem::path version_dir(const providers::Provider& provider,
                                                    std::string_view version) const;

    std::filesystem::path root_;
};

// The h1: of a verified package zip, the way Terraform records it: the zip
// is unpacked into a temporary directory below `scratch` (the system's
// temporary directory when empty) with the given size limits, hashed as a
// directory, and the directory is removed again, also on failure.
struct PackageH1 {
    std::string h1;
    std::string error;  // the unpack or hash failure (e.g. "entry contains '..': ../x")
    [[nodiscard]] bool ok() const { return error.empty(); }
};
[[nodiscard]] PackageH1 h1_of_verified_zip(const std::filesystem::path& zip,
                                           std::uint64_t max_package_size = kDefaultMaxPackageSize,
                                           const std::filesystem::path& scratch = {});

}  // namespace tfsift::online
