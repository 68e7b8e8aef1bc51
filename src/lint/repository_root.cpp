#include "tfsift/lint/repository_root.hpp"

#include <filesystem>
#include <toml++/toml.h>

#include "tfsift/file_read.hpp"
#include "tfsift/lint/settings.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

bool settings_file_marks_root(const std::string& path) {
    // Read like every settings file: a regular file within the default size.
    const FileContent content = read_regular_file(path, ReadPolicy{});
    if (!content.ok()) return false;
    try {
        const toml::table table = toml::parse(content.bytes, path);
        const auto* flag = table.get_as<bool>("root");
        return flag != nullptr && flag->get();
    } catch (const toml::parse_error&) {
        return false;
    }
}

std::optional<std::string> find_marked_repository_root(const std::string& start) {
    std::error_code ec;
    fs::path dir(absolute_normal_path(start));
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    for (fs::path d = dir;; d = d.parent_path()) {
        if (fs::exists(d / ".git", ec)) return d.generic_string();
        const fs::path settings = d / std::string(settings_file_name);
        if (fs::exists(settings, ec) && settings_file_marks_root(settings.string())) return d.generic_string();
        if (d.parent_path() == d || d.empty()) break;
    }
    return std::nullopt;
}

std::string find_repository_root(const std::string& start, const std::string& fallback) {
    if (auto root = find_marked_repository_root(start)) return *root;
    if (!fallback.empty()) return absolute_normal_path(fallback);
    std::error_code ec;
    fs::path dir(absolute_normal_path(start));
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    return dir.generic_string();
}

}  // namespace tfsift::lint
