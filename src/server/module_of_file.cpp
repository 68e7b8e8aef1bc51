#include "tfsift/server/module_of_file.hpp"

#include <filesystem>
#include <system_error>

#include "tfsift/config/mock_data_module.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/config/test_directory.hpp"
#include "tfsift/lint/settings.hpp"

namespace fs = std::filesystem;

namespace tfsift::server {

std::string module_dir_of(const std::string& path) {
    const fs::path p(path);
    const fs::path parent = p.parent_path();
    const std::string name = p.filename().string();
    if (config::is_test_file_name(name)) {
        const std::string dir = parent.string();
        if (auto module = config::module_dir_above_test_directory(dir, lint::test_directory_of(dir))) return *module;
    }
    if (!config::select_mock_data_files({name}).empty()) {
        if (auto module = config::module_dir_of_mock_data(parent.string())) return *module;
    }
    return parent.string();
}

}  // namespace tfsift::server
