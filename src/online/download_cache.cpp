#include "tfsift/online/download_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include "tfsift/atomic_write.hpp"
#include "tfsift/providers/hash.hpp"
#include "tfsift/providers/unpack.hpp"

namespace tfsift::online {

namespace fs = std::filesystem;

namespace {

constexpr mode_t kPrivateDirectory = 0700;
constexpr unsigned kPrivateFile = 0600;
constexpr std::string_view kSidecar = ".tfsift";
constexpr std::size_t kSha256HexDigits = 64;
constexpr std::size_t kH1Length = 47;  // "h1:" + 44 base64 characters

std::string errno_text(std::string_view what, const fs::path& path, int err) {
    return std::string(what) + " " + path.string() + ": " + std::strerror(err);
}

// A name that can stand as one path component without going anywhere else.
bool safe_component(std::string_view name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
           name.find('\0') == std::string_view::npos;
}

// Creates every missing directory of `dir`, each with mode 0700 (the cache
// holds what credentials fetched; others need not read it).
std::string make_private_directories(const fs::path& dir) {
    fs::path current;
    for (const auto& part : dir) {
        current /= part;
        struct stat st {};
        if (::stat(current.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) return current.string() + " is not a directory";
            continue;
        }
        if (errno != ENOENT) return errno_text("stat", current, errno);
        if (::mkdir(current.c_str(), kPrivateDirectory) != 0 && errno != EEXIST) {
            return errno_text("cannot create directory", current, errno);
        }
    }
    return {};
}

std::string lower_hex(std::string_view hex) {
    std::string out(hex);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](char c) { return c >= 'A' && c <= 'F' ? static_cast<char>(c - 'A' + 'a') : c; });
    return out;
}

// The 64 lower-case hex digits of a "zh:" hash, or nothing.
std::optional<std::string> zh_digits(std::string_view zh) {
    if (!zh.starts_with("zh:") || zh.size() != 3 + kSha256HexDigits) return std::nullopt;
    const auto digits = zh.substr(3);
    const bool hex = std::all_of(digits.begin(), digits.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
    if (!hex) return std::nullopt;
    return lower_hex(digits);
}

std::optional<std::string> read_small_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) return std::nullopt;
    return bytes;
}

// Flushes a file's data to disk before it is renamed into place.
std::string sync_file(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno_text("open", path, errno);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    return rc != 0 ? errno_text("fsync", path, err) : std::string();
}

void sync_directory(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// Copies `from` to a new temporary file in `dir`; returns its path.
std::string copy_to_temporary(const fs::path& from, const fs::path& dir, fs::path& copy) {
    std::string name = (dir / "copy-XXXXXX").string();
    const int out = ::mkstemp(name.data());
    if (out < 0) return errno_text("cannot create a temporary file in", dir, errno);
    copy = name;
    const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        const int err = errno;
        ::close(out);
        ::unlink(copy.c_str());
        return errno_text("open", from, err);
    }
    std::array<char, 65536> buffer{};
    std::string error;
    for (;;) {
        const ssize_t n = ::read(in, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = errno_text("read", from, errno);
            break;
        }
        if (n == 0) break;
        ssize_t written = 0;
        while (written < n) {
            const ssize_t w = ::write(out, buffer.data() + written, static_cast<std::size_t>(n - written));
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) {
                error = errno_text("write", copy, errno);
                break;
            }
            written += w;
        }
        if (!error.empty()) break;
    }
    if (error.empty() && ::fsync(out) != 0) error = errno_text("fsync", copy, errno);
    ::close(in);
    ::close(out);
    if (!error.empty()) ::unlink(copy.c_str());
    return error;
}

}  // namespace

fs::path default_cache_dir(const providers::Environment& env) {
    if (auto dir = env("TFSIFT_CACHE_DIR"); dir && !dir->empty()) return fs::path(*dir);
    if (auto xdg = env("XDG_CACHE_HOME"); xdg && xdg->starts_with('/')) return fs::path(*xdg) / "tfsift" / "providers";
    if (auto home = env("HOME"); home && home->starts_with('/'))
        return fs::path(*home) / ".cache" / "tfsift" / "providers";
    return {};
}

fs::path DownloadCache::type_dir(const providers::Provider& provider) const {
    const auto host = providers::hostname_for_display(provider.hostname);
    if (!safe_component(host) || !safe_component(provider.namespace_) || !safe_component(provider.type)) return {};
    return root_ / host / provider.namespace_ / provider.type;
}

fs::path DownloadCache::version_dir(const providers::Provider& provider, std::string_view version) const {
    auto dir = type_dir(provider);
    if (dir.empty() || !safe_component(version)) return {};
    return dir / kSidecar / std::string(version);
}

fs::path DownloadCache::package_path(const providers::Provider& provider, std::string_view version,
                                     const providers::Platform& platform) const {
    auto dir = type_dir(provider);
    const std::string name =
        "terraform-provider-" + provider.type + "_" + std::string(version) + "_" + platform.to_string() + ".zip";
    if (dir.empty() || !safe_component(version) || !safe_component(platform.os) || !safe_component(platform.arch) ||
        !safe_component(name)) {
        return {};
    }
    return dir / name;
}

CachedPackage DownloadCache::find_package(const providers::Provider& provider, std::string_view version,
                                          const providers::Platform& platform,
                                          std::span<const std::string> trusted) const {
    CachedPackage found;
    const auto path = package_path(provider, version, platform);
    if (path.empty()) return found;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return found;
    const auto drop = [&](const std::string& why) {
        std::error_code ec;
        fs::remove(path, ec);
        found.dropped = "cached package " + path.string() + " " + why +
                        (ec ? "; removing it failed: " + ec.message() : "; removed it to download it again");
    };
    if (!S_ISREG(st.st_mode)) {
        drop("is not a regular file");
        return found;
    }
    const auto zh = providers::zh_of_zip(path);
    if (!zh.ok()) {
        drop("cannot be read (" + zh.error + ")");
        return found;
    }
    for (const auto& hash : trusted) {
        if (const auto digits = zh_digits(hash); digits && "zh:" + *digits == zh.value) {
            found.zip = path;
            found.zh = zh.value;
            return found;
        }
    }
    // A network mirror vouches for h1: hashes, the hash of what the zip holds.
    const bool any_h1 =
        std::any_of(trusted.begin(), trusted.end(), [](const std::string& h) { return h.starts_with("h1:"); });
    if (any_h1) {
        if (const auto h1 = providers::h1_of_zip(path);
            h1.ok() && std::find(trusted.begin(), trusted.end(), h1.value) != trusted.end()) {
            found.zip = path;
            found.zh = zh.value;
            return found;
        }
    }
    drop("has checksum " + zh.value + ", which matches no trusted checksum");
    return found;
}

fs::path DownloadCache::temporary_dir(const providers::Provider& provider) const {
    const auto base = type_dir(provider);
    if (base.empty()) return {};
    auto dir = base / kSidecar / "tmp";
    if (!make_private_directories(dir).empty()) return {};
    return dir;
}

std::size_t DownloadCache::remove_stale_temporaries(std::chrono::seconds age) const {
    std::size_t removed = 0;
    const auto now = fs::file_time_type::clock::now();
    std::error_code ec;
    // <root>/<host>/<namespace>/<type>/.tfsift/tmp/<entry>, nothing followed
    // through a symlink.
    const auto subdirectories = [](const fs::path& dir) {
        std::vector<fs::path> out;
        std::error_code list_ec;
        for (fs::directory_iterator it(dir, list_ec), end; !list_ec && it != end; it.increment(list_ec)) {
            std::error_code type_ec;
            if (it->symlink_status(type_ec).type() == fs::file_type::directory) out.push_back(it->path());
        }
        return out;
    };
    for (const auto& host : subdirectories(root_)) {
        for (const auto& ns : subdirectories(host)) {
            for (const auto& type : subdirectories(ns)) {
                const auto tmp = type / kSidecar / "tmp";
                if (fs::symlink_status(tmp, ec).type() != fs::file_type::directory) continue;
                for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
                    std::error_code time_ec;
                    const auto modified = fs::symlink_status(it->path(), time_ec).type() == fs::file_type::symlink
                                              ? fs::file_time_type::min()
                                              : fs::last_write_time(it->path(), time_ec);
                    if (time_ec || now - modified < age) continue;
                    std::error_code remove_ec;
                    if (fs::remove_all(it->path(), remove_ec) > 0 && !remove_ec) ++removed;
                }
                ec.clear();
            }
        }
    }
    return removed;
}

DownloadCache::DownloadFile DownloadCache::new_download_file(const providers::Provider& provider) const {
    DownloadFile file;
    const auto dir = temporary_dir(provider);
    if (dir.empty()) {
        file.error =
            "cannot create a temporary directory for " + provider.to_string() + " in the cache " + root_.string();
        return file;
    }
    std::string name = (dir / "download-XXXXXX").string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0) {
        file.error = errno_text("cannot create a temporary file in", dir, errno);
        return file;
    }
    ::close(fd);
    file.path = name;
    return file;
}

CacheResult DownloadCache::store_package(const providers::Provider& provider, std::string_view version,
                                         const providers::Platform& platform, const fs::path& downloaded) const {
    const auto target = package_path(provider, version, platform);
    if (target.empty()) {
        return {"provider " + provider.to_string() + " " + std::string(version) + " " + platform.to_string() +
                " cannot name a cache file"};
    }
    const auto dir = target.parent_path();
    if (auto error = make_private_directories(dir); !error.empty()) return {error};
    if (auto error = sync_file(downloaded); !error.empty()) return {error};
    if (::rename(downloaded.c_str(), target.c_str()) != 0) {
        if (errno != EXDEV) return {errno_text("cannot move the download to", target, errno)};
        // Another file system: copy beside the target, then rename.
        const auto tmp_dir = dir / kSidecar / "tmp";
        if (auto error = make_private_directories(tmp_dir); !error.empty()) return {error};
        fs::path copy;
        if (auto error = copy_to_temporary(downloaded, tmp_dir, copy); !error.empty()) return {error};
        if (::rename(copy.c_str(), target.c_str()) != 0) {
            const int err = errno;
            ::unlink(copy.c_str());
            return {errno_text("cannot move the download to", target, err)};
        }
        ::unlink(downloaded.c_str());
    }
    sync_directory(dir);
    return {};
}

CacheResult DownloadCache::store_document(const providers::Provider& provider, std::string_view version,
                                          std::string_view name, std::string_view bytes) const {
    const auto dir = version_dir(provider, version);
    if (dir.empty() || !safe_component(name)) {
        return {"cannot keep \"" + std::string(name) + "\" of " + provider.to_string() + " " + std::string(version) +
                " in the cache"};
    }
    if (auto error = make_private_directories(dir); !error.empty()) return {error};
    auto written = atomic_write_file(dir / std::string(name), bytes, kPrivateFile);
    return {written.error};
}

std::optional<std::string> DownloadCache::load_document(const providers::Provider& provider, std::string_view version,
                                                        std::string_view name) const {
    const auto dir = version_dir(provider, version);
    if (dir.empty() || !safe_component(name)) return std::nullopt;
    return read_small_file(dir / std::string(name));
}

CacheResult DownloadCache::remember_h1(const providers::Provider& provider, std::string_view version,
                                       std::string_view zh, std::string_view h1) const {
    const auto digits = zh_digits(zh);
    const auto dir = version_dir(provider, version);
    if (!digits || dir.empty() || !h1.starts_with("h1:") || h1.size() != kH1Length) {
        return {"cannot remember h1 " + std::string(h1) + " for " + std::string(zh)};
    }
    // One file per zip hash: parallel downloads of one version's platforms
    // never write the same file.
    const auto h1_dir = dir / "h1";
    if (auto error = make_private_directories(h1_dir); !error.empty()) return {error};
    auto written = atomic_write_file(h1_dir / *digits, std::string(h1) + "\n", kPrivateFile);
    return {written.error};
}

std::optional<std::string> DownloadCache::recall_h1(const providers::Provider& provider, std::string_view version,
                                                    std::string_view zh) const {
    const auto digits = zh_digits(zh);
    const auto dir = version_dir(provider, version);
    if (!digits || dir.empty()) return std::nullopt;
    auto text = read_small_file(dir / "h1" / *digits);
    if (!text) return std::nullopt;
    if (!text->empty() && text->back() == '\n') text->pop_back();
    if (!text->starts_with("h1:") || text->size() != kH1Length) return std::nullopt;
    return text;
}

PackageH1 h1_of_verified_zip(const fs::path& zip, std::uint64_t max_package_size, const fs::path& scratch) {
    PackageH1 result;
    std::error_code ec;
    fs::path base = scratch.empty() ? fs::temp_directory_path(ec) : scratch;
    if (ec) base = "/tmp";
    std::string name = (base / "tfsift-unpack-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) {
        result.error = errno_text("cannot create a temporary directory in", base, errno);
        return result;
    }
    const fs::path dir = name;
    providers::UnpackLimits limits;
    limits.max_total_bytes = max_package_size;
    limits.max_entry_bytes = std::min(limits.max_entry_bytes, max_package_size);
    if (auto unpacked = providers::unpack_zip(zip, dir, limits); !unpacked.ok()) {
        result.error = unpacked.error;
    } else if (auto hash = providers::h1_of_directory(dir); !hash.ok()) {
        result.error = hash.error;
    } else {
        result.h1 = hash.value;
    }
    fs::remove_all(dir, ec);  // never follows symlinks out of the directory
    return result;
}

}  // namespace tfsift::online
