#include "tfsift/lint/module_discovery.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "tfsift/config/module_files.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {
namespace {

bool ignored_name(const std::string& name) {
    return name.empty() || name[0] == '.' || name.back() == '~' || (name.front() == '#' && name.back() == '#');
}

bool has_suffix(const std::string& s, std::string_view suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<std::string> module_config_files(const std::string& dir, Engine engine, const Settings& settings) {
    std::error_code ec;
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec)) names.push_back(it->path().filename().string());
    }
    std::vector<std::string> out;
    for (const auto& f : config::select_config_files(std::move(names), engine)) {
        std::string path = (fs::path(dir) / f.name).string();
        if (!settings.excluded(absolute_normal_path(path))) out.push_back(std::move(path));
    }
    return out;
}

std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings) {
    std::vector<std::string> out;
    std::error_code ec;
    if (!module_config_files(root, Engine::opentofu, settings).empty()) out.push_back(root);
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
        std::string name = it->path().filename().string();
        std::string path = it->path().string();
        if (name.empty() || name[0] == '.' || settings.excluded(absolute_normal_path(path))) {
            it.disable_recursion_pending();
            continue;
        }
        if (!module_config_files(path, Engine::opentofu, settings).empty()) out.push_back(path);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Engine detect_engine(const std::string& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (!ignored_name(name) && (has_suffix(name, ".tofu") || has_suffix(name, ".tofu.json"))) {
            return Engine::opentofu;
        }
    }
    std::ifstream lock(fs::path(dir) / ".terraform.lock.hcl");
    std::string first;
    if (lock && std::getline(lock, first) && first.find("tofu init") != std::string::npos) return Engine::opentofu;
    return Engine::terraform;
}

}  // namespace tfsift::lint
