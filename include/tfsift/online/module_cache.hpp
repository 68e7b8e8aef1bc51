// tfsift's cache of fetched module packages, shared by every run (and by
// concurrent runs) of a user:
//
//   <root>/packages/<id>/manifest.json   what the package is and its digest
//   <root>/packages/<id>/tree/           the package's files
//   <root>/resolutions/<hash>.json       what a version constraint, git ref or
//                                        URL resolved to when last looked up
//   <root>/locks/<id>.lock               held while one run fetches a package
//   <root>/tmp/                          packages being built
//
// <id> is the SHA-256 of the normalised package address (without its
// subdirectory) and what it resolved to: a registry version, a git commit, or
// an archive's SHA-256. The manifest also records the archive's SHA-256 and
// the registry location. A package is built in tmp/ and renamed into place
// in one step, under its lock, so that readers see a whole package or none;
// a package whose tree no longer matches its recorded digest is reported as
// corrupt and can be replaced. Directories are created 0700.
//
// Hashing every file of every cached package on every run would make a lint
// read each remote module twice. So the manifest also records a stamp of the
// tree (tree_stamp: each entry's path, type, size, inode, modification and
// change times); while the tree's stamp is the recorded one, its content is
// the content that was hashed, and the digest is not computed again. Any
// edit, added, removed or replaced file changes the stamp (a change time
// cannot be set back), and then the digest decides.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "tfsift/providers/package_sources.hpp"

namespace tfsift::online {

// Where the module cache lives when the user did not say (`--cache-dir DIR`
// gives DIR/.tfsift-modules): $TFSIFT_CACHE_DIR/.tfsift-modules, else
// $XDG_CACHE_HOME/tfsift/modules, else $HOME/.cache/tfsift/modules. Empty
// when none of these is set to an absolute path.
[[nodiscard]] std::filesystem::path default_module_cache_dir(const providers::Environment& env);
// The module cache beside a provider cache directory given on the command line.
[[nodiscard]] std::filesystem::path module_cache_dir_in(const std::filesystem::path& cache_dir);

// A digest of a directory tree: every directory, regular file (content and
// whether it is executable) and symbolic link (its text) below `dir`, by
// relative path. "sha256:<hex>"; empty with `error` set when the tree cannot
// be read or holds anything else.
[[nodiscard]] std::string tree_digest(const std::filesystem::path& dir, std::string& error);

// A stamp of a directory tree: every entry below `dir` by relative path, with
// its type, size, inode, modification and change times (nanoseconds), as
// "stamp:<sha256 hex>". Reads no file's content. Empty with `error` set when
// the tree cannot be listed.
[[nodiscard]] std::string tree_stamp(const std::filesystem::path& dir, std::string& error);

// The SHA-256 of a file as hex, or empty with `error` set.
[[nodiscard]] std::string file_sha256(const std::filesystem::path& file, std::string& error);

struct ModuleManifest {
    std::string package;          // the normalised package address
    std::string resolved;         // registry version, git commit, or "sha256:<archive hex>"
    std::string location;         // registry packages: where the registry said the package is
    std::string archive_sha256;   // archives: hex SHA-256 of the downloaded archive
    std::string commit;           // git packages (also a registry package that pointed at git)
    std::string subdir;           // registry packages: the subdirectory the location named, within tree/
    std::string digest;           // tree_digest of tree/
    std::string stamp;            // tree_stamp of tree/ when it was installed
    std::int64_t fetched_at = 0;  // seconds since the epoch
};

struct CachedModule {
    std::optional<std::filesystem::path> tree;  // set when present and its digest matched
    ModuleManifest manifest;
    // A package that is present but damaged: its files no longer match the
    // recorded digest, or its manifest is unreadable. Says what was found.
    std::string corrupt;
};

class ModuleCache {
public:
    explicit ModuleCache(std::filesystem::path root) : root_(std::move(root)) {}

    [[nodiscard]] const std::filesystem::path& root() const { return root_; }

    [[nodiscard]] static std::string package_id(std::string_view package, std::string_view resolved);

    // The package `id`, verified against its digest.
    [[nodiscard]] CachedModule find(const std::string& id) const;

    // Held while a package is fetched so that concurrent runs fetch it once;
    // released when destroyed. `error` is set when the lock file cannot be
    // made (a read-only cache): the fetch may still go on without it.
    class Lock {
    public:
        Lock() = default;
        explicit Lock(int fd) : fd_(fd) {}
        Lock(Lock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
        Lock& operator=(Lock&& other) noexcept;
        Lock(const Lock&) = delete;
        Lock& operator=(const Lock&) = delete;
        ~Lock();

    private:
        int fd_ = -1;
    };
    [[nodiscard]] Lock lock(const std::string& id, std::string& error) const;

    // A new private directory below tmp/ to build a package in; empty with
    // `error` set on failure.
    [[nodiscard]] std::filesystem::path new_staging_dir(std::string& error) const;

    // Moves `staging`/tree into place as package `id` with `manifest` (its
    // digest computed here), replacing a corrupt package. Returns the error,
    // empty on success; `staging` is removed either way.
    [[nodiscard]] std::string install(const std::string& id, const std::filesystem::path& staging,
                                      ModuleManifest& manifest) const;

    // What `query` (e.g. "registry HOST/NS/NAME/SYSTEM ~> 1.2") resolved to
    // when last looked up, and when.
    struct Resolution {
        std::string answer;
        std::int64_t at = 0;
    };
    [[nodiscard]] std::optional<Resolution> recall(const std::string& query) const;
    void remember(const std::string& query, const std::string& answer) const;

    // Removes what killed runs left in tmp/ (older than `age`).
    std::size_t remove_stale_staging(std::chrono::seconds age) const;

private:
    std::filesystem::path root_;
};

}  // namespace tfsift::online
