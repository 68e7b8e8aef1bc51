#include "tfsift/directory_listing.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <new>

namespace tfsift {

namespace {

// Closes the directory stream on every way out.
struct DirCloser {
    DIR* dir;
    explicit DirCloser(DIR* d) : dir(d) {}
    ~DirCloser() { closedir(dir); }
    DirCloser(const DirCloser&) = delete;
    DirCloser& operator=(const DirCloser&) = delete;
};

// Fills the kind of `entry` from a stat of it (following links).
void stat_kind(int dir_fd, DirectoryEntry& entry) {
    struct stat st {};
    if (fstatat(dir_fd, entry.name.c_str(), &st, 0) != 0) return;
    entry.directory = S_ISDIR(st.st_mode);
    entry.regular_file = S_ISREG(st.st_mode);
}

}  // namespace

bool list_directory_entries(const std::string& dir, std::vector<DirectoryEntry>& entries) {
    entries.clear();
    DIR* stream = opendir(dir.empty() ? "." : dir.c_str());
    if (stream == nullptr) {
        // opendir allocates its buffer: out of memory is not "cannot read".
        if (errno == ENOMEM) throw std::bad_alloc();
        return false;
    }
    const DirCloser closer(stream);
    const int fd = dirfd(stream);
    while (const dirent* d = readdir(stream)) {
        const char* name = d->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
        DirectoryEntry entry;
        entry.name = name;
        switch (d->d_type) {
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
        entries.push_back(std::move(entry));
    }
    return true;
}

}  // namespace tfsift
