#include "tfsift/lint/directory_probe.hpp"

#include <sys/stat.h>

#include <vector>

#include "tfsift/lint/repository_root.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {
namespace {

// Paths here are absolute and lexically normal, so the parent and a child
// are string operations (std::filesystem::path splits the whole path into
// components for each).
std::optional<std::string> parent_of(const std::string& dir) {
    const std::size_t slash = dir.rfind('/');
    if (dir == "/" || slash == std::string::npos) return std::nullopt;
    return slash == 0 ? std::string("/") : dir.substr(0, slash);
}

std::string child_of(const std::string& dir, std::string_view name) {
    std::string out = dir;
    if (out.empty() || out.back() != '/') out += '/';
    out += name;
    return out;
}

bool exists_followed(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

bool exists_not_followed(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

std::int8_t known(bool b) { return b ? 1 : 0; }

}  // namespace

bool DirectoryProbe::is_directory(const std::string& dir) {
    Facts& f = facts(dir);
    if (f.is_directory < 0) {
        struct stat st {};
        f.is_directory = known(listed(dir) || (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)));
    }
    return f.is_directory == 1;
}

bool DirectoryProbe::has_git(const std::string& dir) {
    Facts& f = facts(dir);
    if (f.has_git < 0) {
        const ScanListings::Entries entries = listed(dir);
        const DirectoryEntry* git = entries ? find_entry(*entries, ".git") : nullptr;
        if (entries && git == nullptr) {
            f.has_git = 0;
        } else if (git != nullptr && !git->symlink) {
            f.has_git = 1;
        } else {
            // Not listed, or a link that may dangle.
            f.has_git = known(exists_followed(child_of(dir, ".git")));
        }
    }
    return f.has_git == 1;
}

bool DirectoryProbe::has_settings(const std::string& dir) {
    Facts& f = facts(dir);
    // Anything by that name is the settings file, so that a FIFO, a device
    // or a dangling link there is reported, not skipped.
    if (f.has_settings < 0) {
        const ScanListings::Entries entries = listed(dir);
        f.has_settings = known(entries ? lists_entry(*entries, settings_file_name)
                                       : exists_not_followed(child_of(dir, settings_file_name)));
    }
    return f.has_settings == 1;
}

bool DirectoryProbe::marks_root(const std::string& dir) {
    Facts& f = facts(dir);
    if (f.marks_root < 0) {
        const std::string path = child_of(dir, settings_file_name);
        f.marks_root = known(has_settings(dir) && exists_followed(path) && settings_file_marks_root(path));
    }
    return f.marks_root == 1;
}

std::string DirectoryProbe::start_directory(const std::string& start) {
    std::string dir = absolute_normal_path(start);
    if (!is_directory(dir)) {
        if (auto parent = parent_of(dir)) dir = std::move(*parent);
    }
    return dir;
}

std::string DirectoryProbe::settings_file(const std::string& start) {
    // Up from the start to the first directory whose answer is known or
    // decided by itself; then every directory on the way gets that answer.
    std::vector<std::string> pending;
    std::optional<std::string> dir = start_directory(start);
    std::string answer;
    while (dir) {
        Facts& f = facts(*dir);
        if (f.settings_known == 1) {
            answer = f.settings_file;
            break;
        }
        pending.push_back(*dir);
        if (has_settings(*dir)) {
            answer = child_of(*dir, settings_file_name);
            break;
        }
        if (has_git(*dir)) break;  // the repository root: look no further
        dir = parent_of(*dir);
    }
    for (const auto& d : pending) {
        Facts& f = facts(d);
        f.settings_known = 1;
        f.settings_file = answer;
    }
    return answer;
}

std::optional<std::string> DirectoryProbe::marked_repository_root(const std::string& start) {
    std::vector<std::string> pending;
    std::optional<std::string> dir = start_directory(start);
    std::optional<std::string> answer;
    while (dir) {
        Facts& f = facts(*dir);
        if (f.marked_known == 1) {
            answer = f.marked_root;
            break;
        }
        pending.push_back(*dir);
        if (has_git(*dir) || marks_root(*dir)) {
            answer = *dir;
            break;
        }
        dir = parent_of(*dir);
    }
    for (const auto& d : pending) {
        Facts& f = facts(d);
        f.marked_known = 1;
        f.marked_root = answer;
    }
    return answer;
}

std::string DirectoryProbe::repository_root(const std::string& start, const std::string& fallback) {
    if (auto root = marked_repository_root(start)) return *root;
    if (!fallback.empty()) return absolute_normal_path(fallback);
    return start_directory(start);
}

}  // namespace tfsift::lint
