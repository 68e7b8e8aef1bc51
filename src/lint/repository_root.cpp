#include "tfsift/lint/repository_root.hpp"

#include <toml++/toml.h>

#include <filesystem>

#include "tfsift/file_read.hpp"
#include "tfsift/lint/directory_probe.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/lint/toml_key_depth.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

bool settings_file_marks_root(const std::string& path) {
    // Read like every settings file: a regular file within the default size.
    const FileContent content = read_regular_file(path, ReadPolicy{});
    if (!content.ok()) return false;
    // A key too deep for toml++ (the settings reader reports it).
    if (deepest_toml_key(content.bytes).parts > max_toml_key_parts) return false;
    try {
        const toml::table table = toml::parse(content.bytes, path);
        const auto* flag = table.get_as<bool>("root");
        return flag != nullptr && flag->get();
    } catch (const toml::parse_error&) {
        return false;
    }
}

std::optional<std::string> find_marked_repository_root(const std::string& start) {
    DirectoryProbe probe;
    return probe.marked_repository_root(start);
}

std::string trusted_repository_root(const std::string& start) {
    if (auto marked = find_marked_repository_root(start)) return resolved_real_path(*marked).value_or(*marked);
    const std::string own = trusted_root_of(start);  // no `.git` above: the directory of `start`, resolved
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    if (ec) return own;
    const auto working = resolved_real_path(cwd.string());
    if (working && real_path_inside(own, *working)) return *working;
    return own;
}

std::string find_repository_root(const std::string& start, const std::string& fallback) {
    DirectoryProbe probe;
    return probe.repository_root(start, fallback);
}

}  // namespace tfsift::lint
