// Reading files as they are at a git revision, through the user's own `git`
// (its configuration, safe.directory and object stores apply), without
// touching the working tree: `git rev-parse`, `git ls-tree`, `git show`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tfsift::lint {

struct GitAnswer {
    std::string error;  // git could not be run or refused: its message, with the command
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Whether `ref` names a commit of the repository that holds `dir`. A ref
// that starts with "-" is refused (it would be read as an option).
[[nodiscard]] GitAnswer check_revision(const std::filesystem::path& dir, const std::string& ref);

// The paths, relative to `dir` and '/'-separated, of the files named
// `file_name` at `ref` in `dir` or below it.
struct GitFileList : GitAnswer {
    std::vector<std::string> paths;
};
[[nodiscard]] GitFileList files_at_revision(const std::filesystem::path& dir, const std::string& ref,
                                            const std::string& file_name);

// The content of `relative` (to `dir`) at `ref`; `exists` false when the
// revision has no such file.
struct GitFile : GitAnswer {
    bool exists = false;
    std::string text;
};
[[nodiscard]] GitFile file_at_revision(const std::filesystem::path& dir, const std::string& ref,
                                       const std::string& relative);

}  // namespace tfsift::lint
