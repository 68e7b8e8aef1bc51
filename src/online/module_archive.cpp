// Module package archives through libarchive, defensively.
#include "tfsift/online/module_archive.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tfsift/lazy/archive.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace tfsift::online {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kBuffer = std::size_t{64} * 1024;

// The path components of an entry name, or an error for "..".
bool split_name(std::string_view name, std::vector<std::string>& parts, std::string& error) {
    parts.clear();
    std::size_t start = 0;
    while (start <= name.size()) {
        const auto slash = name.find('/', start);
        const auto end = slash == std::string_view::npos ? name.size() : slash;
        const std::string_view part = name.substr(start, end - start);
        if (part == "..") {
            error = fmt::format("entry contains '..': {}", name);
            return false;
        }
        if (!part.empty() && part != ".") parts.emplace_back(part);
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return true;
}

// Creates the first `count` components below `root`, refusing anything on
// the way that is not a real directory.
bool make_dirs(const fs::path& root, const std::vector<std::string>& parts, std::size_t count, std::string& error) {
    fs::path current = root;
    for (std::size_t i = 0; i < count; ++i) {
        current /= parts[i];
        struct stat st {};
        if (::lstat(current.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                error = fmt::format("entry path passes through a non-directory: {}", parts[i]);
                return false;
            }
            continue;
        }
        if (::mkdir(current.c_str(), 0755) != 0 && errno != EEXIST) {
            error = fmt::format("cannot create directory {}: {}", current.string(), std::strerror(errno));
            return false;
        }
    }
    return true;
}

std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) {
        if (!out.empty()) out += '/';
        out += p;
    }
    return out;
}

struct PendingLink {
    std::vector<std::string> parts;
    std::string target;
};

}  // namespace

ModuleArchiveResult unpack_module_archive(const fs::path& archive_path, const fs::path& target,
                                          const ModuleArchiveLimits& limits) {
    ModuleArchiveResult result;
    std::error_code ec;
    fs::create_directories(target, ec);
    struct stat root_st {};
    if (ec || ::lstat(target.c_str(), &root_st) != 0 || !S_ISDIR(root_st.st_mode)) {
        result.error = fmt::format("cannot create directory {}", target.string());
        return result;
    }
    std::unique_ptr<archive, void (*)(archive*)> reader(libarchive::read_new(),
                                                        [](archive* a) { libarchive::read_free(a); });
    if (!reader) {
        result.error = "libarchive could not start";
        return result;
    }
    archive* a = reader.get();
    libarchive::read_support_format_zip_seekable(a);
    libarchive::read_support_format_tar(a);
    libarchive::read_support_filter_gzip(a);
    libarchive::read_support_filter_bzip2(a);
    libarchive::read_support_filter_xz(a);
    if (libarchive::read_open_filename(a, archive_path.c_str(), kBuffer) != ARCHIVE_OK) {
        result.error =
            fmt::format("not a zip or tar archive: {}",
                        libarchive::error_string(a) != nullptr ? libarchive::error_string(a) : "unknown format");
        return result;
    }
    std::vector<PendingLink> links;
    std::vector<std::string> parts;
    std::array<char, kBuffer> buffer{};
    std::uint64_t entries = 0;
    archive_entry* entry = nullptr;
    while (true) {
        const int rc = libarchive::read_next_header(a, &entry);
        if (rc == ARCHIVE_EOF) break;
        if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
            result.error =
                fmt::format("cannot read the archive: {}",
                            libarchive::error_string(a) != nullptr ? libarchive::error_string(a) : "corrupt");
            return result;
        }
        if (++entries > limits.max_entries) {
            result.error = fmt::format("the archive has more than {} entries", limits.max_entries);
            return result;
        }
        const char* raw = libarchive::entry_pathname(entry);
        std::string name = raw != nullptr ? raw : "";
        if (name.empty() || name.find('\0') != std::string::npos) {
            result.error = "an entry has no usable name";
            return result;
        }
        if (!split_name(name, parts, result.error)) return result;
        if (libarchive::entry_hardlink(entry) != nullptr) {
            result.error = fmt::format("hard link entries are not allowed: {}", name);
            return result;
        }
        const auto type = libarchive::entry_filetype(entry);
        if (parts.empty()) {
            if (type == AE_IFDIR) continue;  // "./" itself
            result.error = fmt::format("an entry has no usable name: {}", name);
            return result;
        }
        if (type == AE_IFDIR) {
            if (!make_dirs(target, parts, parts.size(), result.error)) return result;
            continue;
        }
        if (type == AE_IFLNK) {
            const char* link = libarchive::entry_symlink(entry);
            std::string link_target = link != nullptr ? link : "";
            if (link_target.empty() || link_target.front() == '/') {
                result.error = fmt::format("symbolic link {} points outside the package: {}", name, link_target);
                return result;
            }
            // Resolve the link text lexically from the link's own directory.
            std::vector<std::string> resolved(parts.begin(), parts.end() - 1);
            std::size_t start = 0;
            bool escapes = false;
            while (start <= link_target.size()) {
                const auto slash = link_target.find('/', start);
                const auto end = slash == std::string::npos ? link_target.size() : slash;
                const std::string part = link_target.substr(start, end - start);
                if (part == "..") {
                    if (resolved.empty()) {
                        escapes = true;
                        break;
                    }
                    resolved.pop_back();
                } else if (!part.empty() && part != ".") {
                    resolved.push_back(part);
                }
                if (slash == std::string::npos) break;
                start = slash + 1;
            }
            if (escapes) {
                result.error = fmt::format("symbolic link {} points outside the package: {}", name, link_target);
                return result;
            }
            links.push_back({parts, link_target});
            continue;
        }
        if (type != AE_IFREG) {
            result.error = fmt::format("entry {} is not a file, directory or symbolic link", name);
            return result;
        }
        if (!make_dirs(target, parts, parts.size() - 1, result.error)) return result;
        const fs::path file = target / join(parts);
        const mode_t mode = (libarchive::entry_perm(entry) & 0111) != 0 ? 0755 : 0644;
        struct stat existing {};
        if (::lstat(file.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
            result.error = fmt::format("entry {} would replace a directory or link", name);
            return result;
        }
        const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0) {
            result.error = fmt::format("cannot write {}: {}", file.string(), std::strerror(errno));
            return result;
        }
        std::uint64_t written = 0;
        while (true) {
            const la_ssize_t n = libarchive::read_data(a, buffer.data(), buffer.size());
            if (n == 0) break;
            if (n < 0) {
                ::close(fd);
                result.error =
                    fmt::format("cannot read entry {}: {}", name,
                                libarchive::error_string(a) != nullptr ? libarchive::error_string(a) : "corrupt");
                return result;
            }
            written += static_cast<std::uint64_t>(n);
            result.bytes += static_cast<std::uint64_t>(n);
            if (written > limits.max_entry_bytes) {
                ::close(fd);
                result.error = fmt::format("entry {} decompresses to more than {} bytes, the limit for one file", name,
                                           limits.max_entry_bytes);
                return result;
            }
            if (result.bytes > limits.max_total_bytes) {
                ::close(fd);
                result.error = fmt::format(
                    "the archive decompresses to more than {} bytes, the limit for a module "
                    "package (a decompression bomb?)",
                    limits.max_total_bytes);
                return result;
            }
            std::size_t off = 0;
            while (off < static_cast<std::size_t>(n)) {
                const auto w = ::write(fd, buffer.data() + off, static_cast<std::size_t>(n) - off);
                if (w < 0) {
                    if (errno == EINTR) continue;
                    ::close(fd);
                    result.error = fmt::format("cannot write {}: {}", file.string(), std::strerror(errno));
                    return result;
                }
                off += static_cast<std::size_t>(w);
            }
        }
        ::close(fd);
        ++result.files;
    }
    // A link whose target passes through another link could leave the
    // package although each text stays inside on its own ("a/b" -> "..",
    // "c" -> "a/b/.."): refuse targets that walk through a link.
    std::vector<std::string> link_paths;
    link_paths.reserve(links.size());
    for (const auto& link : links) link_paths.push_back(join(link.parts));
    for (const auto& link : links) {
        std::vector<std::string> walked(link.parts.begin(), link.parts.end() - 1);
        std::size_t start = 0;
        const std::string& text = link.target;
        while (start <= text.size()) {
            const auto slash = text.find('/', start);
            const auto end = slash == std::string::npos ? text.size() : slash;
            const std::string part = text.substr(start, end - start);
            const bool last = slash == std::string::npos;
            if (part == "..") {
                if (!walked.empty()) walked.pop_back();
            } else if (!part.empty() && part != ".") {
                walked.push_back(part);
                if (!last && std::find(link_paths.begin(), link_paths.end(), join(walked)) != link_paths.end()) {
                    result.error =
                        fmt::format("symbolic link {} points through another link: {}", join(link.parts), text);
                    return result;
                }
            }
            if (last) break;
            start = slash + 1;
        }
    }
    // Links last, so that no entry of the archive is written through one.
    for (const auto& link : links) {
        if (!make_dirs(target, link.parts, link.parts.size() - 1, result.error)) return result;
        const fs::path path = target / join(link.parts);
        ::unlink(path.c_str());
        if (::symlink(link.target.c_str(), path.c_str()) != 0) {
            result.error = fmt::format("cannot create symbolic link {}: {}", join(link.parts), std::strerror(errno));
            return result;
        }
        ++result.files;
    }
    if (entries == 0) result.error = "empty archive";
    return result;
}

}  // namespace tfsift::online
