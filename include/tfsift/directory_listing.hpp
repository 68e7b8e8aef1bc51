// The entries of one directory, read with one pass over the directory: the
// name and what kind of entry it is, without building a
// std::filesystem::path per entry. The lint lists every directory of a
// repository several times (the module-role scan, module discovery, the
// loader), and the path objects std::filesystem::directory_iterator makes
// were a visible part of a whole-corpus run.
//
// A directory can also be held open (OpenDirectory): listed, and its files
// examined and opened by name relative to it, so that the kernel walks the
// directory's path once rather than once per file.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tfsift {

struct DirectoryEntry {
    std::string name;
    bool symlink = false;       // the entry itself is a symbolic link
    bool directory = false;     // a directory, following a symbolic link
    bool regular_file = false;  // a regular file, following a symbolic link
};

// A file's size and modification time (nanoseconds since the epoch), to
// notice that it changed.
struct FileStamp {
    std::uint64_t size = 0;
    std::int64_t modified_ns = 0;
    friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

// The stamp of the file `st` describes.
FileStamp file_stamp(const struct stat& st);

// A directory opened for reading: a descriptor that keeps naming the same
// directory whatever happens to its path afterwards. Move-only; closes the
// descriptor when it goes.
class OpenDirectory {
public:
    OpenDirectory() = default;
    OpenDirectory(const OpenDirectory&) = delete;
    OpenDirectory& operator=(const OpenDirectory&) = delete;
    OpenDirectory(OpenDirectory&& other) noexcept;
    OpenDirectory& operator=(OpenDirectory&& other) noexcept;
    ~OpenDirectory();

    // Opens `path` ("" is the working directory). False, with errno set,
    // when it is missing, not a directory or cannot be read; throws
    // std::bad_alloc when the system has no memory for it.
    bool open(const std::string& path);

    [[nodiscard]] bool is_open() const { return fd_ >= 0; }
    [[nodiscard]] int descriptor() const { return fd_; }

    // Where the directory is, every symbolic link resolved, as the kernel
    // knows the open directory (nullopt when it cannot tell).
    [[nodiscard]] std::optional<std::string> real_path() const;

    // The entries other than "." and "..", in the order the file system
    // returns them; see list_directory_entries. Lists from the start each
    // time. False when reading the directory fails.
    bool list(std::vector<DirectoryEntry>& entries) const;

    // The stamp of the regular file `name` directly inside (links
    // followed); nullopt when it is missing or not a regular file.
    [[nodiscard]] std::optional<FileStamp> stamp(const std::string& name) const;

    void close();

private:
    int fd_ = -1;
    // Whether the descriptor has been read from: listing again starts over.
    mutable bool listed_ = false;
};

// The listings one scan has made, by absolute, lexically normal directory
// path, for its later steps to take instead of listing again: files do not
// change during one scan (a fix is applied between two), so a scan that
// writes anything starts with new listings. Safe to use from several
// threads.
class ScanListings {
public:
    using Entries = std::shared_ptr<const std::vector<DirectoryEntry>>;
    void add(const std::string& dir, std::vector<DirectoryEntry> entries);
    // The listing of `dir`, found by `dir` and by `real_dir` (its real path,
    // when that differs), which is how the loader asks.
    void add(const std::string& dir, const std::string& real_dir, std::vector<DirectoryEntry> entries);
    // The listing of `dir`, or null when the scan has not listed it.
    [[nodiscard]] Entries find(const std::string& dir) const;

    // The real path of `dir` (absolute; "." and ".." steps allowed) worked
    // out from the listings alone, without a system call, when the scan
    // listed it with its real path. A ".." step is taken only from a
    // directory whose parent's listing names it as a directory, not a link,
    // so that the step leads where the file system would. nullopt when the
    // listings cannot tell.
    [[nodiscard]] std::optional<std::string> real_path_of(std::string_view dir) const;

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Entries> by_dir_;
    std::unordered_map<std::string, std::string> real_of_;  // by both names of a directory added with its real path
};

// The entry of `entries` (one directory's listing) named `name`, or null.
const DirectoryEntry* find_entry(const std::vector<DirectoryEntry>& entries, std::string_view name);
// Whether `entries` holds one named `name`.
bool lists_entry(const std::vector<DirectoryEntry>& entries, std::string_view name);

// The entries of `dir` other than "." and "..", in the order the file system
// returns them. False when `dir` cannot be opened as a directory (missing,
// not a directory, no permission); `entries` is then left empty. An entry
// whose kind cannot be found out (a dangling link, a race with a deletion)
// is listed as neither a directory nor a regular file. Throws
// std::bad_alloc when the system has no memory to open it.
bool list_directory_entries(const std::string& dir, std::vector<DirectoryEntry>& entries);

}  // namespace tfsift
