// Provider package hashes as recorded in lock files: `h1:` (Go's dirhash
// Hash1 over the package's files) for a zip archive or an unpacked
// directory, and `zh:` (SHA-256 of the zip file's bytes).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tfsift::providers {

struct PackageHash {
    std::string value;                  // e.g. "h1:6FvB...se0="
    std::string error;                  // why it could not be computed
    std::vector<std::string> manifest;  // h1 only: the hashed "<sha256>  <name>" lines
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Limits that keep a hostile archive from hashing forever.
inline constexpr std::uint64_t kMaxEntryBytes = 4ULL << 30;     // 4 GiB per zip entry
inline constexpr std::uint64_t kMaxPackageBytes = 16ULL << 30;  // 16 GiB per package

// Limits on the hashing work of one run (one process, all threads): a hostile
// repository can plant any number of packages, each a zip bomb that
// decompresses at a gigabyte a second. A package over a limit is not hashed
// (its PackageHash carries an error saying which limit); packages hashed
// before it keep their hashes.
struct HashLimits {
    std::uint64_t max_packages = 2000;                   // packages hashed per run
    std::uint64_t max_bytes = 64ULL << 30;               // bytes read or decompressed per run
    std::chrono::milliseconds max_package_time{30'000};  // wall time for one package
    std::chrono::milliseconds max_run_time{300'000};     // hashing time per run, added over packages
};

// Sets the limits and starts counting from zero (the CLI does this once, from
// TFSIFT_HASH_MAX_PACKAGES, TFSIFT_HASH_MAX_BYTES and TFSIFT_HASH_MAX_SECONDS).
void set_hash_limits(const HashLimits& limits);
[[nodiscard]] HashLimits hash_limits();
// The limits from those environment variables over the defaults; an invalid
// value is named in `error` and the default kept.
[[nodiscard]] HashLimits hash_limits_from_environment(std::string& error);

// h1 of a zip: every central-directory entry under its stored name, a
// directory entry ("name/") as an empty file; repeated names use the last
// entry's content. A name holding a newline is an error.
[[nodiscard]] PackageHash h1_of_zip(const std::filesystem::path& zip);

// h1 of an unpacked package directory (itself possibly a symlink): every
// non-directory entry below it, named relative with "/". Symlinked
// directories are not walked; a symlink is hashed as the file it names,
// which must stay inside the package (reading a directory is an error).
[[nodiscard]] PackageHash h1_of_directory(const std::filesystem::path& dir);

// zh of a zip archive (symlinks to it are followed).
[[nodiscard]] PackageHash zh_of_zip(const std::filesystem::path& zip);

// h1 of whatever `path` is: a directory or a zip file.
[[nodiscard]] PackageHash h1_of_package(const std::filesystem::path& path);

}  // namespace tfsift::providers
