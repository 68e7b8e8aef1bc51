#include "tfsift/file_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "tfsift/read_budget.hpp"
#include "tfsift/tree_space.hpp"

namespace tfsift {

std::optional<std::string> path_of_descriptor(int fd) {
    std::array<char, PATH_MAX + 1> buf{};
    std::array<char, 32> link{};
    const auto end = fmt::format_to_n(link.data(), link.size() - 1, "/proc/self/fd/{}", fd).out;
    *end = '\0';
    const ssize_t n = ::readlink(link.data(), buf.data(), buf.size() - 1);
    if (n <= 0 || static_cast<std::size_t>(n) >= buf.size() - 1 || buf[0] != '/') return std::nullopt;
    std::string out(buf.data(), static_cast<std::size_t>(n));
    if (out.ends_with(" (deleted)")) return std::nullopt;
    return out;
}

namespace {

namespace fs = std::filesystem;

std::string errno_text(int e) { return std::generic_category().message(e); }

// What a file that is not a regular file is, for a message.
std::string_view kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

FileContent failure(ReadFailure kind, std::string message) {
    FileContent out;
    out.failure = kind;
    out.message = std::move(message);
    return out;
}

std::optional<std::string> link_target(const std::string& path) {
    std::vector<char> buf(PATH_MAX + 1);
    const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size() - 1);
    if (n < 0) return std::nullopt;
    return std::string(buf.data(), static_cast<std::size_t>(n));
}

// The path with every symlink resolved; errno on failure. The name is
// opened without being read (O_PATH: no device is woken, no FIFO waited
// on) and the kernel says where it led: three calls with one walk of the
// path, where realpath reads each component's link in turn.
std::optional<std::string> real_path(const std::string& path, int& error) {
    const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) {
        error = errno;
        return std::nullopt;
    }
    std::optional<std::string> out = path_of_descriptor(fd);
    ::close(fd);
    if (out) return out;
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (resolved == nullptr) {
        error = errno;
        return std::nullopt;
    }
    out = std::string(resolved);
    std::free(resolved);  // NOLINT(cppcoreguidelines-no-malloc): realpath's contract
    return out;
}

// The real path of a repository root, as real_path gives it (the root
// itself when it cannot be resolved). Every file read checks against its
// root, so each thread remembers the last root it resolved, with the
// directory it named: one stat tells whether the name still leads there.
std::string real_root(const std::string& root) {
    struct Remembered {
        std::string root;
        std::string resolved;
        dev_t device = 0;
        ino_t inode = 0;
    };
    thread_local Remembered last;
    struct stat st {};
    const bool found = ::stat(root.c_str(), &st) == 0;
    if (found && !last.root.empty() && last.root == root && last.device == st.st_dev && last.inode == st.st_ino) {
        return last.resolved;
    }
    int error = 0;
    std::string resolved = real_path(root, error).value_or(root);
    if (found) last = Remembered{root, resolved, st.st_dev, st.st_ino};
    return resolved;
}

// Where a read's bytes go: a std::string (zeroed as it grows), or a block
// of the tree space that a SourceFile then takes over as it is, neither
// zeroed nor copied.
class StringBuffer {
public:
    explicit StringBuffer(std::string& s) : s_(s) {}
    void reserve(std::size_t n) { s_.reserve(n); }
    [[nodiscard]] std::size_t size() const { return s_.size(); }
    void resize(std::size_t n) { s_.resize(n); }
    char* data() { return s_.data(); }
    void assign(std::string_view text) { s_.assign(text); }

private:
    std::string& s_;
};

class TreeBuffer {
public:
    TreeBuffer() = default;
    TreeBuffer(const TreeBuffer&) = delete;
    TreeBuffer& operator=(const TreeBuffer&) = delete;
    ~TreeBuffer() { tree_space::release(data_, capacity_); }
    void reserve(std::size_t n) {
        if (n > capacity_) regrow(n);
    }
    [[nodiscard]] std::size_t size() const { return size_; }
    // Bytes past the old size are left as they are: the read fills them.
    void resize(std::size_t n) {
        if (n > capacity_) regrow(std::max(n, capacity_ * 2));
        size_ = n;
    }
    char* data() { return data_; }
    void assign(std::string_view text) {
        resize(text.size());
        if (!text.empty()) std::memcpy(data_, text.data(), text.size());
    }
    // Gives the block up, exactly `size()` long (null when empty), for a
    // SourceFile to own. A block always shrinks in place.
    char* take() {
        char* out = nullptr;
        if (size_ == 0) {
            tree_space::release(data_, capacity_);
        } else {
            if (size_ != capacity_) (void)tree_space::resize_in_place(data_, capacity_, size_);
            out = data_;
        }
        data_ = nullptr;
        capacity_ = 0;
        size_ = 0;
        return out;
    }

private:
    void regrow(std::size_t n) {
        if (data_ != nullptr && tree_space::resize_in_place(data_, capacity_, n)) {
            capacity_ = n;
            return;
        }
        char* bigger = static_cast<char*>(tree_space::allocate(n));
        if (size_ > 0) std::memcpy(bigger, data_, size_);
        tree_space::release(data_, capacity_);
        data_ = bigger;
        capacity_ = n;
    }

    char* data_ = nullptr;
    std::size_t capacity_ = 0;
    std::size_t size_ = 0;
};

// Reads what `fd` holds, at most `limit` bytes plus one to notice more.
// The size fstat reported is only a hint: files in /proc report 0.
template <class Buffer>
bool read_all(int fd, std::uint64_t expected, std::uint64_t limit, Buffer& out, int& error) {
    out.reserve(static_cast<std::size_t>(std::min(expected, limit)) + 1);
    constexpr std::size_t chunk = std::size_t{1} << 16;
    while (out.size() <= limit) {
        const std::size_t old = out.size();
        // What fstat promised and one byte more (the byte that shows the
        // file grew), then one byte to see the end: growing the string by a
        // whole chunk each time would zero 128 KiB for every small file (and
        // reallocate it).
        std::uint64_t hint = chunk;
        if (old < expected) {
            hint = expected - old + 1;
        } else if (old == expected && expected > 0) {
            hint = 1;
        }
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(hint, limit + 1 - old));
        out.resize(old + want);
        const ssize_t n = ::read(fd, out.data() + old, want);
        if (n < 0) {
            out.resize(old);
            if (errno == EINTR) continue;
            error = errno;
            return false;
        }
        out.resize(old + static_cast<std::size_t>(n));
        if (n == 0) break;
        // A regular file's read stops short only at its end: once it has
        // given the size fstat reported and less than was asked, another
        // read would only return nothing (a system call for each file).
        if (static_cast<std::size_t>(n) < want && expected > 0 && out.size() == expected) break;
    }
    return true;
}

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    [[nodiscard]] int get() const { return fd_; }

private:
    int fd_;
};

std::string size_text(std::uint64_t bytes) {
    if (bytes >= (std::uint64_t{1} << 20) && bytes % (std::uint64_t{1} << 20) == 0) {
        return fmt::format("{} MiB", bytes >> 20);
    }
    return fmt::format("{} bytes", bytes);
}

}  // namespace

std::string memory_budget_reached(const ReadBudget& budget) {
    return fmt::format(
        "the run's memory budget of {} was reached (the process's peak resident memory was {} MiB; the option "
        "--max-memory)",
        size_text(budget.memory_limit()), budget.memory_at_refusal() >> 20);
}

namespace {

// Why a file is not read once one of the run's budgets is reached.
std::string over_budget_message(const std::string& named, const ReadBudget& budget) {
    if (budget.reached() == ReadBudget::Reached::memory) {
        return fmt::format("{}: not read: {}", named, memory_budget_reached(budget));
    }
    return fmt::format(
        "{}: not read: the run's budget of {} for all configuration files together was reached (the "
        "option --max-total-size)",
        named, size_text(budget.limit()));
}

// The overlaid text of `path` when no file is there yet but its directory
// exists, resolves inside the policy's root (when it has one and does not
// follow external links) and the overlay names the file in it.
std::optional<std::string_view> overlaid_new_file(const std::string& path, const ReadPolicy& policy) {
    if (!policy.overlays || policy.overlays->empty()) return std::nullopt;
    const fs::path named(path);
    if (!named.has_filename()) return std::nullopt;
    int error = 0;
    const auto dir = real_path(named.parent_path().empty() ? std::string(".") : named.parent_path().string(), error);
    if (!dir) return std::nullopt;
    if (!policy.root.empty() && !policy.follow_external && !lies_within(*dir, policy.root) &&
        !lies_within(*dir, real_root(policy.root))) {
        return std::nullopt;
    }
    const auto it = policy.overlays->find((fs::path(*dir) / named.filename()).string());
    if (it == policy.overlays->end()) return std::nullopt;
    return std::string_view(it->second);
}

// read_regular_file, the bytes going to `buffer` (FileContent::bytes stays
// empty).
template <class Buffer>
FileContent read_into(const std::string& path, const ReadPolicy& policy, Buffer& buffer) {
    // One stat for a file that reads cleanly; whether the name is a symbolic
    // link is asked only to say so in a message.
    struct stat st {};
    const bool found = ::stat(path.c_str(), &st) == 0;
    const int stat_error = found ? 0 : errno;
    bool looked = false;
    std::string via_text;  // " (a symbolic link to T)"
    auto via = [&]() -> const std::string& {
        if (looked) return via_text;
        looked = true;
        struct stat entry {};
        if (::lstat(path.c_str(), &entry) == 0 && S_ISLNK(entry.st_mode))
            via_text = fmt::format(" (a symbolic link to {})", link_target(path).value_or("?"));
        return via_text;
    };
    if (!found) {
        struct stat entry {};
        if (::lstat(path.c_str(), &entry) != 0) {
            const int e = errno;
            if (e == ENOENT) {
                // An editor's buffer for a file not saved yet (`:e new.tf`)
                // is read as that file, in its real directory.
                if (auto text = overlaid_new_file(path, policy)) {
                    if (text->size() > policy.max_size) {
                        return failure(
                            ReadFailure::too_large,
                            fmt::format("{}: {} bytes, more than the limit of {} (the setting max_file_size)", path,
                                        text->size(), size_text(policy.max_size)));
                    }
                    buffer.assign(*text);
                    return FileContent{};
                }
                return failure(ReadFailure::missing, fmt::format("{}: no such file", path));
            }
            return failure(ReadFailure::io_error, fmt::format("{}: {}", path, errno_text(e)));
        }
        if (S_ISLNK(entry.st_mode) && (stat_error == ENOENT || stat_error == ENOTDIR)) {
            return failure(ReadFailure::dangling_symlink, fmt::format("{}: a symbolic link to {}, which does not exist",
                                                                      path, link_target(path).value_or("?")));
        }
        return failure(ReadFailure::io_error, fmt::format("{}{}: {}", path, via(), errno_text(stat_error)));
    }
    if (S_ISDIR(st.st_mode))
        return failure(ReadFailure::directory, fmt::format("{}{}: is a directory, not a file", path, via()));
    if (!S_ISREG(st.st_mode)) {
        return failure(ReadFailure::not_regular,
                       fmt::format("{}{}: is {}; only regular files are read", path, via(), kind_of(st.st_mode)));
    }
    const bool check_root = !policy.root.empty() && !policy.follow_external;
    const bool overlaid = policy.overlays && !policy.overlays->empty();
    // The failure of a file whose real path `real` lies outside the root.
    auto outside_root = [&](const std::string& real) -> std::optional<FileContent> {
        // A real path has no links in it, so one inside the root as named
        // is inside it; only otherwise is the root itself resolved.
        if (lies_within(real, policy.root)) return std::nullopt;
        const std::string root = real_root(policy.root);
        if (lies_within(real, root)) return std::nullopt;
        return failure(ReadFailure::outside_root,
                       fmt::format("{}{}: resolves to {}, outside the repository root {}; not read (the setting "
                                   "follow_external_symlinks = true, in a settings file given with --config, allows "
                                   "it)",
                                   path, via(), real, root));
    };
    auto too_large = [&]() -> std::optional<FileContent> {
        if (static_cast<std::uint64_t>(st.st_size) <= policy.max_size) return std::nullopt;
        return failure(ReadFailure::too_large,
                       fmt::format("{}{}: {} bytes, more than the limit of {} (the setting max_file_size)", path, via(),
                                   st.st_size, size_text(policy.max_size)));
    };
    // The root check by the path's real path (the file is not open).
    auto check_root_by_path = [&]() -> std::optional<FileContent> {
        int e = 0;
        auto real = real_path(path, e);
        if (!real) return failure(ReadFailure::io_error, fmt::format("{}{}: {}", path, via(), errno_text(e)));
        return outside_root(*real);
    };
    if (check_root && overlaid) {
        if (auto refused = check_root_by_path()) return *refused;
    }
    if (overlaid) {
        int e = 0;
        if (auto real = real_path(path, e)) {
            if (auto it = policy.overlays->find(*real); it != policy.overlays->end()) {
                if (it->second.size() > policy.max_size) {
                    return failure(ReadFailure::too_large,
                                   fmt::format("{}{}: {} bytes, more than the limit of {} (the setting max_file_size)",
                                               path, via(), it->second.size(), size_text(policy.max_size)));
                }
                buffer.assign(it->second);
                return FileContent{};
            }
        }
    }
    // O_NONBLOCK: should the entry have been swapped for a FIFO since the
    // stat, opening it must not wait for a writer. Opening reads nothing:
    // the root is checked before a byte is read, by the opened file's own
    // path (one readlink instead of one per component of the path).
    FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) {
        const int e = errno;
        if (check_root && !overlaid) {
            if (auto refused = check_root_by_path()) return *refused;
        }
        if (auto refused = too_large()) return *refused;
        return failure(ReadFailure::io_error, fmt::format("{}{}: {}", path, via(), errno_text(e)));
    }
    if (check_root && !overlaid) {
        if (auto real = path_of_descriptor(fd.get())) {
            if (auto refused = outside_root(*real)) return *refused;
        } else if (auto refused = check_root_by_path()) {
            return *refused;
        }
    }
    if (auto refused = too_large()) return *refused;
    struct stat opened {};
    if (::fstat(fd.get(), &opened) != 0) {
        const int e = errno;
        return failure(ReadFailure::io_error, fmt::format("{}{}: {}", path, via(), errno_text(e)));
    }
    if (!S_ISREG(opened.st_mode)) {
        return failure(ReadFailure::not_regular,
                       fmt::format("{}{}: is {}; only regular files are read", path, via(), kind_of(opened.st_mode)));
    }
    if (policy.budget && !policy.budget->admit(opened.st_dev, opened.st_ino, opened.st_size)) {
        return failure(ReadFailure::over_budget, over_budget_message(path + via(), *policy.budget));
    }
    FileContent out;
    int e = 0;
    if (!read_all(fd.get(), static_cast<std::uint64_t>(opened.st_size), policy.max_size, buffer, e)) {
        return failure(ReadFailure::io_error, fmt::format("{}{}: read failed: {}", path, via(), errno_text(e)));
    }
    if (buffer.size() > policy.max_size) {
        return failure(ReadFailure::too_large,
                       fmt::format("{}{}: more than the limit of {} (the setting max_file_size)", path, via(),
                                   size_text(policy.max_size)));
    }
    if (opened.st_size > 0 && buffer.size() < static_cast<std::uint64_t>(opened.st_size)) {
        return failure(ReadFailure::io_error,
                       fmt::format("{}{}: short read: {} of {} bytes (the file changed while it was read)", path, via(),
                                   buffer.size(), opened.st_size));
    }
    return out;
}

}  // namespace

FileContent read_regular_file(const std::string& path, const ReadPolicy& policy) {
    std::string bytes;
    StringBuffer buffer(bytes);
    FileContent out = read_into(path, policy, buffer);
    if (out.ok()) out.bytes = std::move(bytes);
    return out;
}

std::shared_ptr<const SourceFile> read_source_file(const std::string& path, const ReadPolicy& policy,
                                                   FileContent& failure, const std::string& display_name) {
    TreeBuffer buffer;
    FileContent content = read_into(path, policy, buffer);
    if (!content.ok()) {
        failure = std::move(content);
        return nullptr;
    }
    const std::size_t size = buffer.size();
    return SourceFile::adopt(display_name.empty() ? path : display_name, buffer.take(), size);
}

DirectoryFileReader::DirectoryFileReader(const OpenDirectory& dir, const ReadPolicy& policy,
                                         const std::optional<std::string>& real)
    : dir_(dir), policy_(policy) {
    if (!dir.is_open() || (policy.overlays && !policy.overlays->empty())) return;
    if (policy.root.empty() || policy.follow_external) {
        direct_ = true;
        return;
    }
    if (real) {
        direct_ = real_path_inside(*real, policy.root);
        real_ = *real;
        return;
    }
    const auto asked = dir.real_path();
    direct_ = asked && real_path_inside(*asked, policy.root);
    if (asked) real_ = *asked;
}

std::shared_ptr<const SourceFile> DirectoryFileReader::read(const std::string& name, const std::string& path,
                                                            FileContent& failure, const std::string& display_name,
                                                            std::optional<FileStamp>* stamp) {
    if (direct_ && name.find('/') == std::string::npos) {
        // O_NOFOLLOW: a link is read by path, where its target is checked.
        // O_NONBLOCK: an entry swapped for a FIFO must not block the open.
        FileDescriptor fd(
            ::openat(dir_.descriptor(), name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW));
        struct stat st {};
        // A file the budget refuses is read again by path, which says so.
        if (fd.get() >= 0 && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) &&
            static_cast<std::uint64_t>(st.st_size) <= policy_.max_size &&
            (!policy_.budget || policy_.budget->admit(st.st_dev, st.st_ino, st.st_size))) {
            TreeBuffer buffer;
            int error = 0;
            const auto expected = static_cast<std::uint64_t>(st.st_size);
            if (read_all(fd.get(), expected, policy_.max_size, buffer, error) && buffer.size() <= policy_.max_size &&
                buffer.size() >= expected) {
                if (stamp != nullptr) *stamp = file_stamp(st);
                const std::size_t size = buffer.size();
                return SourceFile::adopt(display_name.empty() ? path : display_name, buffer.take(), size, real_);
            }
        }
        // Anything unusual is read again by path, which says what it is.
    }
    std::optional<FileStamp> before;
    if (stamp != nullptr && dir_.is_open()) {
        before = dir_.stamp(name);
    } else if (struct stat st{}; stamp != nullptr && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        before = file_stamp(st);
    }
    auto out = read_source_file(path, policy_, failure, display_name);
    if (out && stamp != nullptr) *stamp = before;
    return out;
}

std::vector<std::string> overlaid_names(const ReadPolicy& policy, const std::string& dir) {
    std::vector<std::string> out;
    if (!policy.overlays) return out;
    std::string prefix = dir;
    if (prefix.empty() || prefix.back() != '/') prefix += '/';
    for (auto it = policy.overlays->lower_bound(prefix); it != policy.overlays->end() && it->first.starts_with(prefix);
         ++it) {
        if (it->first.find('/', prefix.size()) == std::string::npos) out.push_back(it->first.substr(prefix.size()));
    }
    return out;
}

bool overlays_directory(const ReadPolicy& policy, const std::string& dir) {
    if (!policy.overlays) return false;
    std::string prefix = dir;
    if (prefix.empty() || prefix.back() != '/') prefix += '/';
    for (auto it = policy.overlays->lower_bound(prefix); it != policy.overlays->end() && it->first.starts_with(prefix);
         ++it) {
        if (it->first.find('/', prefix.size()) == std::string::npos) return true;
    }
    return false;
}

std::string trusted_root_of(const std::string& start) {
    std::error_code ec;
    fs::path dir = fs::absolute(fs::path(start), ec).lexically_normal();
    if (ec) dir = fs::path(start);
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    std::string resolved = dir.generic_string();
    while (resolved.size() > 1 && resolved.back() == '/') resolved.pop_back();
    int error = 0;
    if (auto real = real_path(resolved, error)) resolved = *real;
    for (fs::path d = resolved;; d = d.parent_path()) {
        if (fs::exists(d / ".git", ec)) return d.generic_string();
        if (d.parent_path() == d || d.empty()) break;
    }
    return resolved;
}

std::optional<std::string> resolved_real_path(const std::string& path) {
    int error = 0;
    return real_path(path, error);
}

bool resolves_inside(const std::string& path, const std::string& root) {
    int error = 0;
    auto real = real_path(path, error);
    return real && real_path_inside(*real, root);
}

bool lies_within(const std::string& path, const std::string& dir) {
    if (dir == "/") return true;
    return path == dir ||
           (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

std::string in_terms_of_root(const std::string& path, const std::string& root) {
    if (lies_within(path, root)) return path;
    auto real = resolved_real_path(path);
    return real && lies_within(*real, root) ? *real : path;
}

bool real_path_inside(const std::string& real, const std::string& root) {
    return lies_within(real, root) || lies_within(real, real_root(root));
}

}  // namespace tfsift
