#include "tfsift/config/module_files.hpp"

#include <algorithm>

namespace tfsift::config {

namespace {
bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

std::string_view config_extension(std::string_view name, Engine engine) {
    // Longest first: "x.tf.json" must not be read as a ".json" oddity of "x.tf".
    if (ends_with(name, ".tf.json")) return ".tf.json";
    if (ends_with(name, ".tf")) return ".tf";
    if (engine == Engine::opentofu) {
        if (ends_with(name, ".tofu.json")) return ".tofu.json";
        if (ends_with(name, ".tofu")) return ".tofu";
    }
    return {};
}

bool is_ignored_file_name(std::string_view name) {
    if (name.empty()) return true;
    if (name.front() == '.') return true;
    if (name.back() == '~') return true;
    return name.size() >= 2 && name.front() == '#' && name.back() == '#';
}

bool classify_file_name(std::string_view name, Engine engine, ConfigFileName& out) {
    if (is_ignored_file_name(name)) return false;
    std::string_view ext = config_extension(name, engine);
    if (ext.empty()) return false;
    std::string_view base = name.substr(0, name.size() - ext.size());
    out.name = std::string(name);
    out.syntax = ends_with(ext, ".json") ? FileSyntax::json : FileSyntax::native;
    out.role = (base == "override" || ends_with(base, "_override")) ? FileRole::override : FileRole::primary;
    return true;
}

std::vector<ConfigFileName> select_config_files(std::vector<std::string> names, Engine engine) {
    std::sort(names.begin(), names.end());  // std::string compares bytes as unsigned char
    // The twins OpenTofu prefers are looked up in the sorted names themselves.
    auto present = [&names](const std::string& name) { return std::binary_search(names.begin(), names.end(), name); };
    std::vector<ConfigFileName> out;
    for (const auto& name : names) {
        ConfigFileName f;
        if (!classify_file_name(name, engine, f)) continue;
        if (engine == Engine::opentofu) {
            std::string_view ext = config_extension(name, engine);
            std::string base = name.substr(0, name.size() - ext.size());
            if (ext == ".tf" && present(base + ".tofu")) continue;
            if (ext == ".tf.json" && present(base + ".tofu.json")) continue;
        }
        out.push_back(std::move(f));
    }
    return out;
}

bool is_test_file_name(std::string_view name) {
    if (is_ignored_file_name(name)) return false;
    for (std::string_view ext : {".tftest.hcl", ".tftest.json", ".tofutest.hcl", ".tofutest.json"}) {
        if (name.size() > ext.size() && name.ends_with(ext)) return true;
    }
    return false;
}

std::vector<ConfigFileName> select_test_files(std::vector<std::string> names, Engine engine) {
    std::sort(names.begin(), names.end());
    std::vector<ConfigFileName> out;
    for (const auto& name : names) {
        if (is_ignored_file_name(name)) continue;
        for (std::string_view ext : {".tftest.hcl", ".tftest.json", ".tofutest.hcl", ".tofutest.json"}) {
            if (!ends_with(name, ext)) continue;
            const bool tofu_ext = ext.starts_with(".tofutest");
            if (tofu_ext && engine != Engine::opentofu) break;
            const std::string base = name.substr(0, name.size() - ext.size());
            if (engine == Engine::opentofu && !tofu_ext) {
                const std::string twin = base + (ext == ".tftest.hcl" ? ".tofutest.hcl" : ".tofutest.json");
                if (std::binary_search(names.begin(), names.end(), twin)) break;  // sorted above
            }
            out.push_back(ConfigFileName{name, ends_with(ext, ".json") ? FileSyntax::json : FileSyntax::native,
                                         FileRole::primary});
            break;
        }
    }
    return out;
}

namespace {
// The names with one of the two extensions (native first), sorted, hidden
// and backup files left out.
std::vector<ConfigFileName> select_by_extension(std::vector<std::string> names, std::string_view native,
                                                std::string_view json) {
    std::sort(names.begin(), names.end());
    std::vector<ConfigFileName> out;
    for (auto& name : names) {
        if (is_ignored_file_name(name)) continue;
        if (ends_with(name, native)) {
            out.push_back(ConfigFileName{std::move(name), FileSyntax::native, FileRole::primary});
        } else if (ends_with(name, json)) {
            out.push_back(ConfigFileName{std::move(name), FileSyntax::json, FileRole::primary});
        }
    }
    return out;
}
}  // namespace

std::vector<ConfigFileName> select_query_files(std::vector<std::string> names, Engine engine) {
    if (engine != Engine::terraform) return {};
    return select_by_extension(std::move(names), ".tfquery.hcl", ".tfquery.json");
}

std::vector<ConfigFileName> select_migration_files(std::vector<std::string> names, Engine engine) {
    if (engine != Engine::terraform) return {};
    std::sort(names.begin(), names.end());
    std::vector<ConfigFileName> out;
    for (auto& name : names) {
        if (is_ignored_file_name(name) || !ends_with(name, ".tfmigrate.hcl")) continue;
        out.push_back(ConfigFileName{std::move(name), FileSyntax::native, FileRole::primary});
    }
    return out;
}

std::vector<ConfigFileName> select_mock_data_files(std::vector<std::string> names) {
    return select_by_extension(std::move(names), ".tfmock.hcl", ".tfmock.json");
}

}  // namespace tfsift::config
