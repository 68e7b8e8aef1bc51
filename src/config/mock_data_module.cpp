#include "tfsift/config/mock_data_module.hpp"

#include <filesystem>
#include <system_error>

#include "tfsift/config/module_files.hpp"

namespace fs = std::filesystem;

namespace tfsift::config {

namespace {

// Whether the directory `dir` holds a configuration file of either engine.
bool holds_configuration(const fs::path& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end; it.increment(ec)) {
        ConfigFileName name;
        const std::string file = it->path().filename().string();
        if (classify_file_name(file, Engine::terraform, name) || classify_file_name(file, Engine::opentofu, name)) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::optional<std::string> module_dir_of_mock_data(const std::string& dir) {
    fs::path at = fs::path(dir == "." ? std::string() : dir).lexically_normal();
    if (at.filename().empty() && at.has_parent_path() && at != at.root_path()) at = at.parent_path();  // "a/b/"
    while (true) {
        if (at == ".") at.clear();
        if (holds_configuration(at)) return at.empty() ? std::string(".") : at.string();
        // Up one level, as named: a relative path stops at the current
        // directory, an absolute one at the root.
        if (at.empty() || at == at.root_path() || (at.is_relative() && at.filename() == "..")) return std::nullopt;
        at = at.parent_path();
    }
}

}  // namespace tfsift::config
