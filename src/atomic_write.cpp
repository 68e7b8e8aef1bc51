#include "tfsift/atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

namespace tfsift {

namespace {

constexpr unsigned kDefaultMode = 0644;
constexpr int kTempNameAttempts = 100;

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

}  // namespace

AtomicWriteResult atomic_write_file(const std::filesystem::path& path, std::string_view bytes,
                                    std::optional<unsigned> mode) {
    const std::filesystem::path& target = path;
    std::filesystem::path dir = target.parent_path();
    if (dir.empty()) dir = ".";

    unsigned file_mode = mode.value_or(kDefaultMode);
    struct stat existing {};
    if (!mode && ::stat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) {
        file_mode = existing.st_mode & 07777;
    }

    // O_EXCL with a random suffix: never reuse or follow someone else's file.
    std::random_device seed;
    std::mt19937_64 random(seed());
    std::filesystem::path temp;
    int fd = -1;
    for (int attempt = 0; attempt < kTempNameAttempts && fd < 0; ++attempt) {
        temp = dir / ("." + target.filename().string() + ".tmp" + std::to_string(random() % 1000000000ULL));
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, file_mode);
        if (fd < 0 && errno != EEXIST) return {describe("cannot create a temporary file", temp, errno)};
    }
    if (fd < 0) return {"cannot create a temporary file in " + dir.string() + ": every name was taken"};
    FileDescriptor file(fd);

    auto fail = [&](std::string_view what, const std::filesystem::path& where) {
        const int err = errno;
        file.close();
        ::unlink(temp.c_str());
        return AtomicWriteResult{describe(what, where, err)};
    };

    if (!write_all(file.get(), bytes)) return fail("cannot write", temp);
    // The umask may have narrowed the mode given to open().
    if (::fchmod(file.get(), file_mode) != 0) return fail("cannot set the mode of", temp);
    if (::fsync(file.get()) != 0) return fail("cannot flush", temp);
    if (file.close() != 0) return fail("cannot close", temp);
    if (::rename(temp.c_str(), target.c_str()) != 0) return fail("cannot replace", target);

    // Make the rename itself durable.
    FileDescriptor directory(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.get() < 0 || ::fsync(directory.get()) != 0) {
        return {describe("written, but cannot flush the directory", dir, errno)};
    }
    return {};
}

}  // namespace tfsift
