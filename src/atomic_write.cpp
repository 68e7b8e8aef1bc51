#include "tfsift/atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <string>

namespace tfsift {

namespace {

// The extended attributes of the file being replaced (POSIX ACLs among
// them, as system.posix_acl_access and system.posix_acl_default), given to
// its replacement as far as the file system and the process's rights allow:
// a rename would otherwise drop them. One that cannot be set is left out.
void copy_extended_attributes(const std::filesystem::path& from, int to) {
    ssize_t size = ::llistxattr(from.c_str(), nullptr, 0);
    if (size <= 0) return;
    std::string names(static_cast<std::size_t>(size), '\0');
    size = ::llistxattr(from.c_str(), names.data(), names.size());
    if (size <= 0) return;
    names.resize(static_cast<std::size_t>(size));
    std::string value;
    for (std::size_t at = 0; at < names.size();) {
        const char* name = names.c_str() + at;
        at += std::strlen(name) + 1;
        ssize_t n = ::lgetxattr(from.c_str(), name, nullptr, 0);
        if (n < 0 || n > (ssize_t{1} << 16)) continue;
        value.assign(static_cast<std::size_t>(n), '\0');
        n = ::lgetxattr(from.c_str(), name, value.data(), value.size());
        if (n < 0) continue;
        (void)::fsetxattr(to, name, value.data(), static_cast<std::size_t>(n), 0);
    }
}

constexpr unsigned kDefaultMode = 0644;
constexpr int kTempNameAttempts = 100;
// A temporary file this old was left by a process that is gone (or hung).
constexpr auto kStaleCurrentName = std::chrono::hours(1);
// Earlier names carry no process id: only their age tells.
constexpr auto kStaleEarlierName = std::chrono::minutes(1);

std::string describe(std::string_view what, const std::filesystem::path& path, int err) {
    return std::string(what) + " " + path.string() + ": " + std::strerror(err);
}

// Writes everything, retrying short writes and interrupted calls.
bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// A file descriptor that is closed when it goes out of scope.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() { close(); }
    [[nodiscard]] int get() const { return fd_; }
    int close() {
        if (fd_ < 0) return 0;
        const int rc = ::close(fd_);
        fd_ = -1;
        return rc;
    }

private:
    int fd_;
};

// A temporary file name: the name of the file it was to replace, and the
// process id it carries (0 for the earlier form, which carries none).
struct TempName {
    std::string_view target;
    pid_t pid = 0;
};

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `.<target>.tfsift-<pid>-<random>.tmp`, or the earlier `.<target>.tmp<digits>`.
std::optional<TempName> parse_temp_name(std::string_view name) {
    if (name.size() < 2 || name.front() != '.') return std::nullopt;
    constexpr std::string_view kTag = ".tfsift-";
    constexpr std::string_view kSuffix = ".tmp";
    if (name.ends_with(kSuffix)) {
        const std::string_view rest = name.substr(0, name.size() - kSuffix.size());
        const auto tag = rest.rfind(kTag);
        if (tag != std::string_view::npos && tag > 1) {
            const std::string_view numbers = rest.substr(tag + kTag.size());
            const auto dash = numbers.find('-');
            if (dash != std::string_view::npos && dash <= 9 && all_digits(numbers.substr(0, dash)) &&
                all_digits(numbers.substr(dash + 1))) {
                return TempName{name.substr(1, tag - 1),
                                static_cast<pid_t>(std::stol(std::string(numbers.substr(0, dash))))};
            }
        }
    }
    const auto tmp = name.rfind(kSuffix);
    if (tmp != std::string_view::npos && tmp > 1 && all_digits(name.substr(tmp + kSuffix.size()))) {
        return TempName{name.substr(1, tmp - 1), 0};
    }
    return std::nullopt;
}

// Whether the temporary file `entry` (named as `temp` says) was left by a
// process that is gone.
bool is_stale(const std::filesystem::path& entry, const TempName& temp) {
    struct stat st {};
    if (::lstat(entry.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    const auto age = std::chrono::system_clock::now() - std::chrono::system_clock::from_time_t(st.st_mtime);
    if (temp.pid == 0) return age > kStaleEarlierName;
    if (temp.pid == ::getpid()) return false;
    // ESRCH: no such process. A process of another user answers EPERM and is alive.
    return (::kill(temp.pid, 0) != 0 && errno == ESRCH) || age > kStaleCurrentName;
}

// Removes the stale temporary files of every file in `dir`, once per
// process and directory (a `--fix` of many files in one directory must not
// list it once per file). Earlier-form names count only when the file they
// were to replace exists beside them.
void clean_directory_once(const std::filesystem::path& dir) {
    static std::mutex mutex;
    static std::set<std::string> cleaned;
    {
        std::error_code ec;
        auto key = std::filesystem::weakly_canonical(dir, ec).string();
        std::lock_guard lock(mutex);
        if (!cleaned.insert(ec ? dir.string() : key).second) return;
    }
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const auto temp = parse_temp_name(name);
        if (!temp) continue;
        if (temp->pid == 0) {
            struct stat st {};
            if (::lstat((dir / std::string(temp->target)).c_str(), &st) != 0) continue;
        }
        if (is_stale(it->path(), *temp)) ::unlink(it->path().c_str());
    }
}

AtomicWriteResult io_failure(std::string message) { return {std::move(message), WriteFailure::io}; }
AtomicWriteResult refusal(std::string message) { return {std::move(message), WriteFailure::refused}; }

}  // namespace

bool is_temp_file_name(std::string_view name, std::string_view target_name) {
    const auto temp = parse_temp_name(name);
    return temp && temp->target == target_name;
}

std::size_t remove_stale_temp_files(const std::filesystem::path& path) {
    std::filesystem::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    const std::string target_name = path.filename().string();
    std::size_t removed = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const auto temp = parse_temp_name(name);
        if (!temp || temp->target != target_name) continue;
        if (is_stale(it->path(), *temp) && ::unlink(it->path().c_str()) == 0) ++removed;
    }
    return removed;
}

std::optional<std::filesystem::path> write_target(const std::filesystem::path& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::error_code ec;
    std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (ec) return std::nullopt;
    return target;
}

AtomicWriteResult atomic_write_file(const std::filesystem::path& path, std::string_view bytes,
                                    std::optional<unsigned> mode) {
    AtomicWriteOptions options;
    options.mode = mode;
    return atomic_write_file(path, bytes, options);
}

AtomicWriteResult atomic_write_file(const std::filesystem::path& path, std::string_view bytes,
                                    const AtomicWriteOptions& options) {
    // Through a symlink: the file it leads to is replaced, the link stays.
    const std::optional<std::filesystem::path> resolved = write_target(path);
    if (!resolved) return refusal(path.string() + " is a symlink whose target does not exist; not written");
    const std::filesystem::path& target = *resolved;
    std::filesystem::path dir = target.parent_path();
    if (dir.empty()) dir = ".";

    unsigned file_mode = options.mode.value_or(kDefaultMode);
    struct stat existing {};
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (!exists && errno != ENOENT) return io_failure(describe("cannot inspect", target, errno));
    if (exists) {
        if (!S_ISREG(existing.st_mode)) return refusal(target.string() + " is not a regular file; not written");
        if (existing.st_nlink > 1) {
            return refusal(target.string() + " has " + std::to_string(existing.st_nlink) +
                           " hard links, and replacing it would leave the other names with the old content; not "
                           "written (edit it by hand, or make it a single file)");
        }
        if (!options.mode) file_mode = existing.st_mode & 07777;
    }

    clean_directory_once(dir);

    // O_EXCL with a random suffix: never reuse or follow someone else's file.
    std::random_device seed;
    std::mt19937_64 random(seed());
    std::filesystem::path temp;
    int fd = -1;
    const std::string stem = "." + target.filename().string() + ".tfsift-" + std::to_string(::getpid()) + "-";
    for (int attempt = 0; attempt < kTempNameAttempts && fd < 0; ++attempt) {
        temp = dir / (stem + std::to_string(random() % 1000000000ULL) + ".tmp");
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, file_mode & 0777);
        if (fd < 0 && errno != EEXIST) return io_failure(describe("cannot create a temporary file", temp, errno));
    }
    if (fd < 0) return io_failure("cannot create a temporary file in " + dir.string() + ": every name was taken");
    FileDescriptor file(fd);

    auto fail = [&](std::string_view what, const std::filesystem::path& where) {
        const int err = errno;
        file.close();
        ::unlink(temp.c_str());
        return io_failure(describe(what, where, err));
    };

    if (!write_all(file.get(), bytes)) return fail("cannot write", temp);
    // The replacement keeps the owner and group; only a privileged process
    // may give a file away, so for others a differing owner stays a change.
    if (exists && (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid()) &&
        ::fchown(file.get(), existing.st_uid, existing.st_gid) != 0 && ::geteuid() == 0) {
        return fail("cannot set the owner of", temp);
    }
    // After fchown, which clears set-id bits; the umask may have narrowed the mode given to open().
    if (::fchmod(file.get(), file_mode) != 0) return fail("cannot set the mode of", temp);
    if (exists) copy_extended_attributes(target, file.get());
    if (::fsync(file.get()) != 0) return fail("cannot flush", temp);
    if (file.close() != 0) return fail("cannot close", temp);
    if (options.before_replace) {
        if (std::string objection = options.before_replace(); !objection.empty()) {
            ::unlink(temp.c_str());
            return refusal(std::move(objection));
        }
    }
    if (::rename(temp.c_str(), target.c_str()) != 0) return fail("cannot replace", target);

    // Make the rename itself durable.
    FileDescriptor directory(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.get() < 0 || ::fsync(directory.get()) != 0) {
        return io_failure(describe("written, but cannot flush the directory", dir, errno));
    }
    return {};
}

}  // namespace tfsift
