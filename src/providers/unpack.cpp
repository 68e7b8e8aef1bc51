#include "tfsift/providers/unpack.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tfsift/lazy/zip.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "tfsift/providers/hash.hpp"

namespace tfsift::providers {

namespace fs = std::filesystem;

namespace {

constexpr mode_t kDirectoryMode = 0755;
constexpr std::uint8_t kCreatorFat = 0;
constexpr std::uint8_t kCreatorUnix = 3;
constexpr std::uint8_t kCreatorNtfs = 11;
constexpr std::uint8_t kCreatorVfat = 14;
constexpr std::uint8_t kCreatorMacOsX = 19;
constexpr std::uint32_t kDosReadOnly = 0x01;
constexpr std::size_t kCopyBuffer = std::size_t{64} * 1024;

std::vector<std::string_view> components(std::string_view name) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= name.size()) {
        const auto slash = name.find('/', start);
        const auto end = slash == std::string_view::npos ? name.size() : slash;
        if (end > start) parts.push_back(name.substr(start, end - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return parts;
}

// Creates `dir` below `root` one component at a time, refusing to pass
// through anything that is not a real directory (a planted symlink).
std::string make_directories(const fs::path& root, const std::vector<std::string_view>& parts, std::size_t count) {
    fs::path current = root;
    for (std::size_t i = 0; i < count; ++i) {
        if (parts[i] == ".") continue;
        current /= std::string(parts[i]);
        struct stat st {};
        if (::lstat(current.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) return "cannot create directory " + current.string() + ": not a directory";
            continue;
        }
        if (::mkdir(current.c_str(), kDirectoryMode) != 0 && errno != EEXIST) {
            return "mkdir " + current.string() + ": " + std::strerror(errno);
        }
    }
    return {};
}

// The permission bits Go's archive/zip reports for an entry.
mode_t entry_mode(zip_t* archive, zip_uint64_t index) {
    zip_uint8_t opsys = 0;
    zip_uint32_t attributes = 0;
    if (libzip::file_get_external_attributes(archive, index, 0, &opsys, &attributes) != 0) return 0;
    switch (opsys) {
        case kCreatorUnix:
        case kCreatorMacOsX: return static_cast<mode_t>((attributes >> 16) & 0777);
        case kCreatorFat:
        case kCreatorNtfs:
        case kCreatorVfat: return (attributes & kDosReadOnly) != 0 ? 0444 : 0666;
        default: return 0;
    }
}

}  // namespace

UnpackResult unpack_zip(const fs::path& zip, const fs::path& target) { return unpack_zip(zip, target, UnpackLimits{}); }

UnpackResult unpack_zip(const fs::path& zip, const fs::path& target, const UnpackLimits& limits) {
    int zip_error = 0;
    std::unique_ptr<zip_t, void (*)(zip_t*)> archive(libzip::open(zip.c_str(), ZIP_RDONLY, &zip_error),
                                                     [](zip_t* z) { libzip::discard(z); });
    if (!archive) {
        zip_error_t err;
        libzip::error_init_with_code(&err, zip_error);
        std::string message = "zip: cannot open " + zip.string() + ": " + libzip::error_strerror(&err);
        libzip::error_fini(&err);
        return {message};
    }
    const zip_int64_t count = libzip::get_num_entries(archive.get(), 0);
    if (count <= 0) return {"empty archive: " + zip.string()};

    struct stat st {};
    if (::lstat(target.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            return {"cannot install package into target directory " + target.string() + " because it is a symlink."};
        }
        if (!S_ISDIR(st.st_mode)) return {"cannot install package into " + target.string() + ": not a directory"};
    } else {
        std::error_code ec;
        fs::create_directories(target, ec);
        if (ec) return {"mkdir " + target.string() + ": " + ec.message()};
    }

    std::uint64_t total = 0;
    std::vector<char> buffer(kCopyBuffer);
    // A zip bomb is bounded in time as well as in bytes: the limit for hashing one package.
    const auto time_limit = hash_limits().max_package_time;
    const auto deadline = std::chrono::steady_clock::now() + time_limit;
    for (zip_int64_t i = 0; i < count; ++i) {
        const auto index = static_cast<zip_uint64_t>(i);
        const char* raw_name = libzip::get_name(archive.get(), index, ZIP_FL_ENC_RAW);
        if (raw_name == nullptr) return {"zip: cannot read the name of entry " + std::to_string(i)};
        const std::string_view name = raw_name;
        const auto parts = components(name);
        for (auto part : parts) {
            if (part == "..") return {"entry contains '..': " + std::string(name)};
        }
        const bool is_directory = name.ends_with('/');
        if (parts.empty()) {
            if (is_directory) continue;  // "/" or "./": the target itself
            return {"zip: entry " + std::string(name) + " has no file name"};
        }
        if (is_directory) {
            if (auto err = make_directories(target, parts, parts.size()); !err.empty()) return {err};
            continue;
        }
        if (auto err = make_directories(target, parts, parts.size() - 1); !err.empty()) return {err};
        fs::path path = target;
        for (auto part : parts) {
            if (part != ".") path /= std::string(part);
        }

        const mode_t mode = entry_mode(archive.get(), index);
        // A repeated name replaces the earlier file, even a read-only one.
        if (struct stat existing{}; ::lstat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) {
            ::unlink(path.c_str());
        }
        // O_NOFOLLOW: an existing symlink at this name is an error, never a way out.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) return {"open " + path.string() + ": " + std::strerror(errno)};
        std::unique_ptr<zip_file_t, void (*)(zip_file_t*)> entry(libzip::fopen_index(archive.get(), index, 0),
                                                                 [](zip_file_t* f) { libzip::fclose(f); });
        std::string failure;
        if (!entry) failure = "zip: cannot open entry " + std::string(name);
        std::uint64_t entry_bytes = 0;
        while (failure.empty()) {
            const zip_int64_t n = libzip::fread(entry.get(), buffer.data(), buffer.size());
            if (n < 0) {
                failure = "zip: cannot read entry " + std::string(name);
                break;
            }
            if (n == 0) break;
            entry_bytes += static_cast<std::uint64_t>(n);
            total += static_cast<std::uint64_t>(n);
            if (entry_bytes > limits.max_entry_bytes || total > limits.max_total_bytes) {
                failure = "zip: entry " + std::string(name) + " decompresses beyond the size limit";
                break;
            }
            if (std::chrono::steady_clock::now() > deadline) {
                failure = "zip: unpacking " + zip.string() + " took longer than " + std::to_string(time_limit.count()) +
                          " ms, the limit for one package";
                break;
            }
            std::size_t written = 0;
            while (written < static_cast<std::size_t>(n)) {
                const ssize_t w = ::write(fd, buffer.data() + written, static_cast<std::size_t>(n) - written);
                if (w < 0 && errno == EINTR) continue;
                if (w < 0) {
                    failure = "write " + path.string() + ": " + std::strerror(errno);
                    break;
                }
                written += static_cast<std::size_t>(w);
            }
        }
        if (failure.empty() && ::fchmod(fd, mode) != 0)
            failure = "chmod " + path.string() + ": " + std::strerror(errno);
        ::close(fd);
        if (!failure.empty()) return {failure};
    }
    return {};
}

}  // namespace tfsift::providers
