// The entries of one directory, read with one readdir pass: the name and
// what kind of entry it is, without building a std::filesystem::path per
// entry. The lint lists every directory of a repository several times (the
// module-role scan, module discovery, the loader), and the path objects
// std::filesystem::directory_iterator makes were a visible part of a
// whole-corpus run.
#pragma once

#include <string>
#include <vector>

namespace tfsift {

struct DirectoryEntry {
    std::string name;
    bool symlink = false;       // the entry itself is a symbolic link
    bool directory = false;     // a directory, following a symbolic link
    bool regular_file = false;  // a regular file, following a symbolic link
};

// The entries of `dir` other than "." and "..", in the order the file system
// returns them. False when `dir` cannot be opened as a directory (missing,
// not a directory, no permission); `entries` is then left empty. An entry
// whose kind cannot be found out (a dangling link, a race with a deletion)
// is listed as neither a directory nor a regular file. Throws
// std::bad_alloc when the system has no memory to open it.
bool list_directory_entries(const std::string& dir, std::vector<DirectoryEntry>& entries);

}  // namespace tfsift
