// What a lint run asks of the directories above its modules: which one is
// the repository root, where the nearest settings file is. Every module of a
// repository asks about the same parent directories, so a probe answers each
// question once per directory and remembers it.
//
// A probe belongs to one run (a session): files change between runs (the
// language server runs many), so nothing is remembered beyond the probe's
// life. Not thread-safe: one thread at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "tfsift/directory_listing.hpp"

namespace tfsift::lint {

class DirectoryProbe {
public:
    // The nearest .tfsift.toml from `start` (a file or directory) upward,
    // stopping at the repository root: see find_settings_file.
    std::string settings_file(const std::string& start);

    // The nearest directory upward holding `.git` or a settings file that
    // says `root = true`: see find_marked_repository_root.
    std::optional<std::string> marked_repository_root(const std::string& start);

    // The same, else `fallback` when given, else the directory of `start`:
    // see find_repository_root.
    std::string repository_root(const std::string& start, const std::string& fallback = {});

    // Directory listings the run took (may be null; kept by the caller while
    // the probe is used): a directory listed there is known to exist, and to
    // hold neither `.git` nor a settings file when its listing names none,
    // without asking the file system again.
    void use_listings(const ScanListings* listings) { listings_ = listings; }

private:
    // What is known of one directory (absolute, lexically normal); -1: not
    // asked yet.
    struct Facts {
        std::int8_t is_directory = -1;
        std::int8_t has_git = -1;         // `.git` exists (followed)
        std::int8_t has_settings = -1;    // anything is named `.tfsift.toml` (not followed)
        std::int8_t marks_root = -1;      // `.tfsift.toml` exists (followed) and sets `root = true`
        std::int8_t settings_known = -1;  // `settings_file` is this directory's answer
        std::int8_t marked_known = -1;    // `marked_root` is this directory's answer
        std::string settings_file;
        std::optional<std::string> marked_root;
    };

    Facts& facts(const std::string& dir) { return facts_[dir]; }
    bool is_directory(const std::string& dir);
    bool has_git(const std::string& dir);
    bool has_settings(const std::string& dir);
    bool marks_root(const std::string& dir);
    // `start` made absolute and normal, then its directory when it is not one.
    std::string start_directory(const std::string& start);

    // The listing of `dir` the run took, or null.
    [[nodiscard]] ScanListings::Entries listed(const std::string& dir) const {
        return listings_ != nullptr ? listings_->find(dir) : nullptr;
    }

    std::unordered_map<std::string, Facts> facts_;
    const ScanListings* listings_ = nullptr;
};

}  // namespace tfsift::lint
