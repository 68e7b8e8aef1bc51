// Offline lock file repair.
#include "tfsift/providers/lock_repair.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <set>
#include <system_error>
#include <thread>
#include <utility>

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

RepairResult repair_lock(const LockFile& old, const ProviderRequirements& requirements,
                         const std::vector<LocalPackage>& packages, const RepairOptions& options) {
    RepairResult out;
    out.locks = old;
    for (const auto& [provider, lock] : old.providers) {
        if (options.keep_unrequired || options.requirements_partial || requirements.count(provider)) continue;
        out.locks.providers.erase(provider);
        out.changes.push_back(
            fmt::format("- Removed {} {} (no longer required)", provider.to_string(), lock.version.to_string()));
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
                out.problems.push_back(fmt::format("{}: no package matching {} is available offline{}", name,
                                                   quoted_constraints(req.constraints),
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
                out.problems.push_back(
                    fmt::format("{} {}: no {} package is available offline, so no hash for it was "
                                "recorded",
                                name, version->to_string(), platform.to_string()));
                continue;
            }
            if (it->mismatch && !it->error.empty()) {
                // Not a package whose hash differs: one with no hash at all.
                out.problems.push_back(
                    fmt::format("{} {}: the {} package at {} cannot be hashed: {}; its hash was not added", name,
                                version->to_string(), platform.to_string(), it->package.path.string(), it->error));
                continue;
            }
            if (it->mismatch) {
                out.problems.push_back(
                    fmt::format("{} {}: the {} package at {} matches none of the recorded hashes; "
                                "its hash was not added",
                                name, version->to_string(), platform.to_string(), it->package.path.string()));
                continue;
            }
            if (it->matches) continue;
            if (it->h1.empty()) {
                out.problems.push_back(fmt::format(
                    "{} {}: the {} package at {} cannot be hashed ({}); no checksum "
                    "was recorded for it",
                    name, version->to_string(), platform.to_string(), it->package.path.string(), it->error));
                continue;
            }
            hashes.push_back(it->h1);
            added_platforms.push_back(platform.to_string());
        }
        if (auto vouched = options.vouched_hashes.find({provider, version->to_string()});
            vouched != options.vouched_hashes.end()) {
            hashes.insert(hashes.end(), vouched->second.begin(), vouched->second.end());
        }
        // An entry without checksums would make the next `init` trust any
        // package of that version: none is written (defect: a corrupt only
        // package used to give an entry with no `hashes`).
        if (hashes.empty()) {
            out.problems.push_back(fmt::format("{} {}: no checksum could be recorded for any platform, so {}", name,
                                               version->to_string(),
                                               prior ? "the entry is left as it is" : "no entry was added"));
            continue;
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
            out.changes.push_back(
                fmt::format("- Updated the constraints of {} to {}", name, quoted_constraints(req.constraints)));
        }
        if (!added_platforms.empty()) {
            std::string list;
            for (const auto& p : added_platforms) list += (list.empty() ? "" : ", ") + p;
            out.changes.push_back(
                fmt::format("- Recorded checksums of {} {} for {}", name, version->to_string(), list));
        }
        out.locks.providers[provider] = std::move(entry);
    }
    return out;
}

namespace {

// Lock files are a few kilobytes; anything near this is not one.
constexpr std::size_t kMaxLockFileBytes = std::size_t{16} << 20;

// Reads all of `fd` (at most kMaxLockFileBytes); nullopt with errno set on failure.
std::optional<std::string> read_all(int fd, bool& too_large) {
    std::string out;
    std::array<char, 1 << 16> buffer{};
    too_large = false;
    while (true) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::nullopt;
        if (n == 0) return out;
        out.append(buffer.data(), static_cast<std::size_t>(n));
        if (out.size() > kMaxLockFileBytes) {
            too_large = true;
            return std::nullopt;
        }
    }
}

std::string describe_errno(std::string_view what, const fs::path& path, int err) {
    return fmt::format("{} {}: {}", what, path.string(), std::strerror(err));
}

}  // namespace

HeldLockFile::HeldLockFile(HeldLockFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      exists_(other.exists_),
      bytes_(std::move(other.bytes_)),
      device_(other.device_),
      inode_(other.inode_) {}

HeldLockFile& HeldLockFile::operator=(HeldLockFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        path_ = std::move(other.path_);
        fd_ = std::exchange(other.fd_, -1);
        exists_ = other.exists_;
        bytes_ = std::move(other.bytes_);
        device_ = other.device_;
        inode_ = other.inode_;
    }
    return *this;
}

HeldLockFile::~HeldLockFile() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

std::optional<HeldLockFile> HeldLockFile::open(const fs::path& dir, LockUpdate& update,
                                               std::chrono::milliseconds wait) {
    HeldLockFile held;
    held.path_ = (dir / kLockFileName).lexically_normal();
    update.path = held.path_;
    auto fail = [&](LockUpdateFailure failure, std::string message) -> std::optional<HeldLockFile> {
        update.failure = failure;
        update.error = std::move(message);
        return std::nullopt;
    };
    const auto deadline = std::chrono::steady_clock::now() + wait;
    constexpr auto kPoll = std::chrono::milliseconds(50);
    // A writer replaces the file by a rename, so the file locked may be
    // replaced while waiting: then lock the new one.
    constexpr int kMaxReopens = 100;
    for (int reopen = 0;; ++reopen) {
        if (reopen == kMaxReopens) {
            return fail(LockUpdateFailure::busy,
                        fmt::format("{} keeps being replaced by another process; not repaired", held.path_.string()));
        }
        if (held.fd_ >= 0) ::close(std::exchange(held.fd_, -1));
        struct stat st {};
        held.exists_ = ::stat(held.path_.c_str(), &st) == 0;
        if (!held.exists_ && errno != ENOENT) {
            return fail(LockUpdateFailure::io, describe_errno("cannot read", held.path_, errno));
        }
        if (held.exists_ && !S_ISREG(st.st_mode)) {
            return fail(LockUpdateFailure::refused,
                        fmt::format("{} is not a regular file and is left untouched", held.path_.string()));
        }
        // O_NONBLOCK: a FIFO put in the file's place between stat and open must not block.
        const fs::path& locked = held.exists_ ? held.path_ : dir;
        const int flags = held.exists_ ? O_RDONLY | O_NONBLOCK | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_CLOEXEC;
        held.fd_ = ::open(locked.c_str(), flags);
        if (held.fd_ < 0) {
            if (errno == ENOENT) continue;  // removed meanwhile
            return fail(LockUpdateFailure::io, describe_errno("cannot open", locked, errno));
        }
        while (::flock(held.fd_, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                return fail(LockUpdateFailure::io, describe_errno("cannot lock", locked, errno));
            }
            if (std::chrono::steady_clock::now() >= deadline) {
                return fail(LockUpdateFailure::busy,
                            fmt::format("{} is locked by another process (another tfsift run repairing it?); not "
                                        "repaired",
                                        held.path_.string()));
            }
            std::this_thread::sleep_for(kPoll);
        }
        struct stat now {};
        const bool exists_now = ::stat(held.path_.c_str(), &now) == 0;
        if (exists_now != held.exists_) continue;
        if (!held.exists_) break;
        struct stat opened {};
        if (::fstat(held.fd_, &opened) != 0) {
            return fail(LockUpdateFailure::io, describe_errno("cannot read", held.path_, errno));
        }
        if (opened.st_dev != now.st_dev || opened.st_ino != now.st_ino) continue;
        if (!S_ISREG(opened.st_mode)) {
            return fail(LockUpdateFailure::refused,
                        fmt::format("{} is not a regular file and is left untouched", held.path_.string()));
        }
        held.device_ = opened.st_dev;
        held.inode_ = opened.st_ino;
        bool too_large = false;
        auto bytes = read_all(held.fd_, too_large);
        if (!bytes) {
            if (too_large) {
                return fail(LockUpdateFailure::refused, fmt::format("{} is larger than {} bytes and is left untouched",
                                                                    held.path_.string(), kMaxLockFileBytes));
            }
            return fail(LockUpdateFailure::io, describe_errno("cannot read", held.path_, errno));
        }
        held.bytes_ = std::move(*bytes);
        break;
    }
    if (auto target = write_target(held.path_)) remove_stale_temp_files(*target);
    return held;
}

std::string HeldLockFile::changed_since_read() const {
    const std::string changed =
        fmt::format("{} changed on disk while tfsift worked on it; not overwritten (run again)", path_.string());
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) return exists_ ? changed : std::string();
    if (!exists_) return changed;
    if (st.st_dev != device_ || st.st_ino != inode_) return changed;
    // Same file: compare the bytes (a time stamp can miss a quick edit).
    const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return changed;
    bool too_large = false;
    auto bytes = read_all(fd, too_large);
    ::close(fd);
    if (!bytes || *bytes != bytes_) return changed;
    return {};
}

LockUpdate update_held_lock_file(const HeldLockFile& held, const ProviderRequirements& requirements,
                                 const std::vector<LocalPackage>& packages, const RepairOptions& options,
                                 bool always_write) {
    LockUpdate out;
    out.path = held.path();
    const bool exists = held.exists();
    Engine engine = options.engine;
    LockFile old;
    const std::string& old_bytes = held.bytes();
    if (exists) {
        LockReadOptions read_options;
        read_options.engine = options.engine;
        auto read = read_lock_file(std::make_shared<const SourceFile>(out.path.string(), old_bytes), read_options);
        if (read.has_errors()) {
            out.failure = LockUpdateFailure::invalid;
            out.error = fmt::format("{} has errors (see lock-syntax) and is left untouched", out.path.string());
            return out;
        }
        old = read.locks;
        auto newline = old_bytes.find('\n');
        engine = engine_of_lock_header(old_bytes.substr(0, newline)).value_or(options.engine);
    }
    auto repaired = repair_lock(old, requirements, packages, options);
    out.changes = std::move(repaired.changes);
    out.problems = std::move(repaired.problems);
    if (options.all_or_nothing && !out.problems.empty()) return out;
    if (!exists && repaired.locks.providers.empty()) return out;
    std::string bytes = write_lock_file(repaired.locks, engine);
    if (exists && bytes == old_bytes && !always_write) return out;
    AtomicWriteOptions write_options;
    bool changed = false;
    write_options.before_replace = [&held, &changed] {
        std::string why = held.changed_since_read();
        changed = !why.empty();
        return why;
    };
    auto result = atomic_write_file(out.path, bytes, write_options);
    if (!result.ok()) {
        out.error = result.error;
        out.failure = result.failure == WriteFailure::io ? LockUpdateFailure::io
                      : changed                          ? LockUpdateFailure::changed
                                                         : LockUpdateFailure::refused;
        return out;
    }
    out.written = true;
    return out;
}

LockUpdate update_lock_file(const fs::path& dir, const ProviderRequirements& requirements,
                            const std::vector<LocalPackage>& packages, const RepairOptions& options,
                            bool always_write) {
    LockUpdate opening;
    auto held = HeldLockFile::open(dir, opening);
    if (!held) return opening;
    return update_held_lock_file(*held, requirements, packages, options, always_write);
}

}  // namespace tfsift::providers
