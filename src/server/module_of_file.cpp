#include "tfsift/server/module_of_file.hpp"

#include <filesystem>
#include <system_error>

#include "tfsift/config/module_files.hpp"
#include "tfsift/config/test_directory.hpp"
#include "tfsift/lint/settings.hpp"

namespace fs = std::filesystem;

namespace tfsift::server {

namespace {

// Whether the directory `dir` holds a configuration file of either engine.
bool holds_configuration(const fs::path& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        config::ConfigFileName name;
        const std::string file = it->path().filename().string();
        if (config::classify_file_name(file, Engine::terraform, name) ||
            config::classify_file_name(file, Engine::opentofu, name)) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::string module_dir_of(const std::string& path) {
    const fs::path p(path);
    const fs::path parent = p.parent_path();
    const std::string name = p.filename().string();
    if (config::is_test_file_name(name)) {
        const std::string dir = parent.string();
        if (auto module = config::module_dir_above_test_directory(dir, lint::test_directory_of(dir))) return *module;
    }
    if (!config::select_mock_data_files({name}).empty()) {
        for (fs::path dir = parent; dir.has_relative_path(); dir = dir.parent_path()) {
            if (holds_configuration(dir)) return dir.string();
        }
    }
    return parent.string();
}

}  // namespace tfsift::server
