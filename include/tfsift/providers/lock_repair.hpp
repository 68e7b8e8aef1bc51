// Repairing a dependency lock file offline, the way `terraform init` and
// `terraform providers lock` update it (spec 3.6-3.7, 9.3), without
// guessing: stale entries go, missing ones are added with the newest version
// meeting every constraint among the packages at hand, a locked version the
// constraints still accept is kept with all its hashes, `constraints` is
// brought up to date, and the `h1:` hash of every wanted platform whose
// package is available is added. A package contradicting the recorded
// hashes is never trusted.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/requirement.hpp"

namespace tfsift::providers {

struct RepairOptions {
    Engine engine = Engine::terraform;
    std::vector<Platform> platforms;  // platforms to record hashes for
    bool keep_unrequired = false;     // keep entries nothing requires (`providers lock`)
    // The requirements are a lower bound (modules not loaded): entries nothing
    // known requires stay, and a kept entry keeps its recorded constraints.
    bool requirements_partial = false;
    std::filesystem::path installed_dir;  // the working directory's .terraform/providers
    bool all_or_nothing = false;          // write nothing when anything could not be repaired
    // Hashes a source vouched for, by provider and version string: a
    // registry's signed `zh:` lines, added to the entry of that version.
    std::map<std::pair<Provider, std::string>, std::vector<std::string>> vouched_hashes;
};

struct RepairResult {
    LockFile locks;
    std::vector<std::string> changes;   // one line per change, init-style ("- Removed ...")
    std::vector<std::string> problems;  // what could not be repaired and why
};

[[nodiscard]] RepairResult repair_lock(const LockFile& old, const ProviderRequirements& requirements,
                                       const std::vector<LocalPackage>& packages, const RepairOptions& options);

// Why a lock file was not written. `invalid`: the file has errors (see
// lock-syntax), so it is left for a person to mend. The others are failed
// writes, which the CLI reports with exit status 2: `busy` (another process
// held the file's advisory lock for too long), `changed` (the file changed on
// disk after it was read), `refused` (several hard links, not a regular file)
// and `io` (no space, read-only directory, no permission).
enum class LockUpdateFailure : std::uint8_t { none, invalid, busy, changed, refused, io };

// Rewrites the lock file of a root module directory from `requirements`.
struct LockUpdate {
    std::filesystem::path path;
    bool written = false;
    std::string error;  // unreadable lock file, failed write: nothing was written
    LockUpdateFailure failure = LockUpdateFailure::none;
    std::vector<std::string> changes;
    std::vector<std::string> problems;

    [[nodiscard]] bool write_failed() const {
        return failure != LockUpdateFailure::none && failure != LockUpdateFailure::invalid;
    }
};

// A root module's lock file, read while holding an advisory lock (`flock`)
// on it (on its directory while there is no file), so that two tfsift runs
// do not repair it at once. The lock is released when this is destroyed.
// Stale temporary files of earlier, killed writers are removed on opening.
class HeldLockFile {
public:
    HeldLockFile(HeldLockFile&& other) noexcept;
    HeldLockFile& operator=(HeldLockFile&& other) noexcept;
    HeldLockFile(const HeldLockFile&) = delete;
    HeldLockFile& operator=(const HeldLockFile&) = delete;
    ~HeldLockFile();

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    [[nodiscard]] bool exists() const { return exists_; }
    [[nodiscard]] const std::string& bytes() const { return bytes_; }  // as read

    // Opens and reads `dir/.terraform.lock.hcl`, waiting up to `wait` for a
    // lock another process holds; nullopt with `update.error` and
    // `update.failure` set when it cannot.
    static std::optional<HeldLockFile> open(const std::filesystem::path& dir, LockUpdate& update,
                                            std::chrono::milliseconds wait = std::chrono::seconds(10));

    // Whether the file on disk is still what was read (same file, same
    // bytes; still absent when it was absent): empty when so, else why not.
    [[nodiscard]] std::string changed_since_read() const;

private:
    HeldLockFile() = default;
    std::filesystem::path path_;
    int fd_ = -1;  // the locked file or directory
    bool exists_ = false;
    std::string bytes_;
    std::uint64_t device_ = 0;
    std::uint64_t inode_ = 0;
};

// Repairs the held file and writes it atomically when the bytes change (a
// new file only when it would hold an entry), unless the file changed on disk
// since it was read. The header follows the existing file's engine, else
// `options.engine`. With `always_write` the file is written even unchanged.
[[nodiscard]] LockUpdate update_held_lock_file(const HeldLockFile& held, const ProviderRequirements& requirements,
                                               const std::vector<LocalPackage>& packages, const RepairOptions& options,
                                               bool always_write = false);

// HeldLockFile::open, then update_held_lock_file.
[[nodiscard]] LockUpdate update_lock_file(const std::filesystem::path& dir, const ProviderRequirements& requirements,
                                          const std::vector<LocalPackage>& packages, const RepairOptions& options,
                                          bool always_write = false);

}  // namespace tfsift::providers
