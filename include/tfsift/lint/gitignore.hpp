// `.gitignore` rules for `lint --recursive`: directories git ignores (build
// output, vendored copies, generated code) are not linted unless
// `--no-gitignore` says otherwise.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tfsift/directory_listing.hpp"

namespace tfsift::lint {

// The patterns of one .gitignore file (the rules of gitignore(5) that concern
// directories: `#` comments, `!` negation, a leading or inner `/` anchoring
// the pattern to the file's directory, a trailing `/` for directories only,
// `*`, `?`, `[...]` and `**`).
class GitignoreFile {
public:
    explicit GitignoreFile(std::string_view text);

    // The verdict of this file for `relative` (a directory path relative to the
    // file's directory, '/'-separated): 1 ignored, -1 re-included by `!`,
    // 0 no pattern matches.
    [[nodiscard]] int verdict(std::string_view relative) const;

private:
    struct Pattern {
        std::string glob;
        bool negated = false;
        bool anchored = false;
    };
    std::vector<Pattern> patterns_;
};

// Answers for directories of one repository, reading each .gitignore once.
// A directory that `listings` (may be null) holds the listing of is known to
// have no .gitignore without asking the file system again.
class GitignoreFilter {
public:
    explicit GitignoreFilter(std::string repository_root, const ScanListings* listings = nullptr);

    // Whether git ignores the directory `dir` (absolute, lexically normal,
    // below the root): the deepest .gitignore with a verdict decides, from the
    // root down to the directory's parent; a directory inside an ignored one
    // is ignored.
    bool ignored(const std::string& dir);

    // The .gitignore files that exist but could not be read (a FIFO, no
    // permission, larger than max_file_size), each naming the file and why:
    // their patterns do not apply, which the run must say.
    [[nodiscard]] const std::vector<std::string>& unreadable() const { return unreadable_; }

private:
    const GitignoreFile* file_in(const std::string& dir);
    std::string root_;
    const ScanListings* listings_;
    std::map<std::string, GitignoreFile> files_;
    std::map<std::string, bool> has_file_;
    std::vector<std::string> unreadable_;
};

// `dirs` (as find_module_dirs gives them) without the ones git ignores in the
// repository at `repository_root`; `listings` as for GitignoreFilter.
// `unreadable`, when given, receives GitignoreFilter::unreadable().
std::vector<std::string> drop_gitignored(const std::vector<std::string>& dirs, const std::string& repository_root,
                                         const ScanListings* listings = nullptr,
                                         std::vector<std::string>* unreadable = nullptr);

}  // namespace tfsift::lint
