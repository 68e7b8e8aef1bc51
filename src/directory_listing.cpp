#include "tfsift/directory_listing.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>
#include <utility>

#include "tfsift/file_read.hpp"

namespace tfsift {

namespace {

// Fills the kind of `entry` from a stat of it (following links).
void stat_kind(int dir_fd, DirectoryEntry& entry) {
    struct stat st {};
    if (fstatat(dir_fd, entry.name.c_str(), &st, 0) != 0) return;
    entry.directory = S_ISDIR(st.st_mode);
    entry.regular_file = S_ISREG(st.st_mode);
}

// The entry a directory record describes, its kind asked of the file
// system only when the record does not say it or the entry is a link.
DirectoryEntry entry_of(int fd, const char* name, unsigned char type) {
    DirectoryEntry entry;
    entry.name = name;
    switch (type) {
        case DT_DIR: entry.directory = true; break;
        case DT_REG: entry.regular_file = true; break;
        case DT_LNK:
            entry.symlink = true;
            stat_kind(fd, entry);
            break;
        case DT_UNKNOWN: {
            // File systems that do not fill d_type: ask for the entry itself.
            struct stat st {};
            if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) break;
            entry.symlink = S_ISLNK(st.st_mode);
            if (entry.symlink) {
                stat_kind(fd, entry);
            } else {
                entry.directory = S_ISDIR(st.st_mode);
                entry.regular_file = S_ISREG(st.st_mode);
            }
            break;
        }
        default: break;  // sockets, devices, FIFOs
    }
    return entry;
}

}  // namespace

OpenDirectory::OpenDirectory(OpenDirectory&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), listed_(other.listed_) {}

OpenDirectory& OpenDirectory::operator=(OpenDirectory&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = std::exchange(other.fd_, -1);
        listed_ = other.listed_;
    }
    return *this;
}

OpenDirectory::~OpenDirectory() { close(); }

void OpenDirectory::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

bool OpenDirectory::open(const std::string& path) {
    close();
    // O_NONBLOCK: should the name lead to a FIFO, opening it must not wait
    // (O_DIRECTORY then refuses it).
    const int fd = ::open(path.empty() ? "." : path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOMEM) throw std::bad_alloc();
        return false;
    }
    fd_ = fd;
    listed_ = false;
    return true;
}

std::optional<std::string> OpenDirectory::real_path() const {
    if (fd_ < 0) return std::nullopt;
    return path_of_descriptor(fd_);
}

bool OpenDirectory::list(std::vector<DirectoryEntry>& entries) const {
    entries.clear();
    if (fd_ < 0) return false;
    if (listed_ && ::lseek(fd_, 0, SEEK_SET) != 0) return false;
    listed_ = true;
    // The records of getdents64, read straight into a buffer per thread:
    // no DIR stream to allocate, no stat of the directory for it.
    alignas(dirent64) thread_local std::array<char, std::size_t{32} << 10> buffer;
    for (;;) {
        const ssize_t n = ::getdents64(fd_, buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == ENOMEM) throw std::bad_alloc();
            entries.clear();
            return false;
        }
        if (n == 0) return true;
        for (ssize_t at = 0; at < n;) {
            dirent64 record{};
            // Records are packed; copy the fixed part out rather than
            // reading it in place.
            std::memcpy(&record, buffer.data() + at, offsetof(dirent64, d_name));
            const char* name = buffer.data() + at + offsetof(dirent64, d_name);
            at += record.d_reclen;
            if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
            entries.push_back(entry_of(fd_, name, record.d_type));
        }
    }
}

std::optional<FileStamp> OpenDirectory::stamp(const std::string& name) const {
    struct stat st {};
    if (fd_ < 0 || ::fstatat(fd_, name.c_str(), &st, 0) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return file_stamp(st);
}

FileStamp file_stamp(const struct stat& st) {
    return FileStamp{static_cast<std::uint64_t>(st.st_size),
                     static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

void ScanListings::add(const std::string& dir, std::vector<DirectoryEntry> entries) {
    auto kept = std::make_shared<const std::vector<DirectoryEntry>>(std::move(entries));
    const std::lock_guard<std::mutex> lock(mutex_);
    by_dir_[dir] = std::move(kept);
}

void ScanListings::add(const std::string& dir, const std::string& real_dir, std::vector<DirectoryEntry> entries) {
    auto kept = std::make_shared<const std::vector<DirectoryEntry>>(std::move(entries));
    const std::lock_guard<std::mutex> lock(mutex_);
    by_dir_[dir] = kept;
    real_of_[dir] = real_dir;
    if (real_dir != dir) {
        by_dir_[real_dir] = std::move(kept);
        real_of_[real_dir] = real_dir;
    }
}

ScanListings::Entries ScanListings::find(const std::string& dir) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_dir_.find(dir);
    return it == by_dir_.end() ? nullptr : it->second;
}

std::optional<std::string> ScanListings::real_path_of(std::string_view dir) const {
    if (dir.empty() || dir.front() != '/') return std::nullopt;
    std::string at;  // the steps so far, "" for "/"
    const std::lock_guard<std::mutex> lock(mutex_);
    while (!dir.empty()) {
        const std::size_t skip = dir.find_first_not_of('/');
        if (skip == std::string_view::npos) break;
        dir.remove_prefix(skip);
        const std::size_t end = std::min(dir.find('/'), dir.size());
        const std::string_view step = dir.substr(0, end);
        dir.remove_prefix(end);
        if (step == ".") continue;
        if (step != "..") {
            at.append("/").append(step);
            continue;
        }
        // Up from `at`: only where its parent lists it as a directory.
        const std::size_t slash = at.rfind('/');
        if (slash == std::string::npos || at.empty()) return std::nullopt;
        const std::string parent = slash == 0 ? std::string("/") : at.substr(0, slash);
        auto listed = by_dir_.find(parent);
        if (listed == by_dir_.end() || by_dir_.find(at) == by_dir_.end()) return std::nullopt;
        const std::string_view name = std::string_view(at).substr(slash + 1);
        const auto& entries = *listed->second;
        const bool directory = std::any_of(entries.begin(), entries.end(), [&](const DirectoryEntry& e) {
            return e.name == name && e.directory && !e.symlink;
        });
        if (!directory) return std::nullopt;
        at.resize(slash);
    }
    auto it = real_of_.find(at.empty() ? std::string("/") : at);
    if (it == real_of_.end()) return std::nullopt;
    return it->second;
}

const DirectoryEntry* find_entry(const std::vector<DirectoryEntry>& entries, std::string_view name) {
    auto it = std::find_if(entries.begin(), entries.end(), [&](const DirectoryEntry& e) { return e.name == name; });
    return it == entries.end() ? nullptr : &*it;
}

bool lists_entry(const std::vector<DirectoryEntry>& entries, std::string_view name) {
    return find_entry(entries, name) != nullptr;
}

bool list_directory_entries(const std::string& dir, std::vector<DirectoryEntry>& entries) {
    entries.clear();
    OpenDirectory opened;
    if (!opened.open(dir)) return false;
    return opened.list(entries);
}

}  // namespace tfsift
