#include "tfsift/lint/module_discovery.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "tfsift/config/module_files.hpp"
#include "tfsift/file_read.hpp"

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

std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings,
                                          std::vector<std::string>& problems) {
    // An explicit stack rather than recursion or recursive_directory_iterator:
    // the depth is the repository's to choose, and a directory that cannot
    // be listed must be reported, not skipped.
    std::vector<std::string> out;
    std::vector<fs::path> todo{fs::path(root)};
    while (!todo.empty()) {
        fs::path dir = std::move(todo.back());
        todo.pop_back();
        std::error_code ec;
        fs::directory_iterator it(dir, ec);
        if (ec) {
            problems.push_back(fmt::format("{}: cannot read the directory: {}", dir.string(), ec.message()));
            continue;
        }
        std::vector<std::string> names;
        for (fs::directory_iterator end; it != end; it.increment(ec)) {
            std::error_code entry_ec;
            const fs::directory_entry& entry = *it;
            std::string name = entry.path().filename().string();
            if (entry.is_directory(entry_ec) && !entry.is_symlink(entry_ec)) {
                if (!name.empty() && name[0] != '.' &&
                    !settings.excluded(absolute_normal_path(entry.path().string()))) {
                    todo.push_back(entry.path());
                }
            } else if (entry.is_regular_file(entry_ec)) {
                names.push_back(std::move(name));
            }
        }
        if (ec) {
            problems.push_back(fmt::format("{}: cannot read the directory: {}", dir.string(), ec.message()));
            continue;
        }
        for (const auto& f : config::select_config_files(std::move(names), Engine::opentofu)) {
            if (!settings.excluded(absolute_normal_path((dir / f.name).string()))) {
                out.push_back(dir.string());
                break;
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings) {
    std::vector<std::string> problems;
    return find_module_dirs(root, settings, problems);
}

bool needs_recursive_hint(const std::string& dir, const Settings& settings) {
    if (!module_config_files(dir, Engine::opentofu, settings).empty()) return false;
    return !find_module_dirs(dir, settings).empty();
}

Engine detect_engine(const std::string& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (!ignored_name(name) && (has_suffix(name, ".tofu") || has_suffix(name, ".tofu.json"))) {
            return Engine::opentofu;
        }
    }
    // Only the first line counts; a lock file that cannot be read is
    // reported by the lock rules, not here.
    FileContent lock = read_regular_file((fs::path(dir) / ".terraform.lock.hcl").string(), ReadPolicy{});
    std::string_view first(lock.bytes);
    first = first.substr(0, first.find('\n'));
    if (lock.ok() && first.find("tofu init") != std::string_view::npos) return Engine::opentofu;
    return Engine::terraform;
}

Engine resolve_engine(std::optional<Engine> asked, const Settings& settings, const std::string& dir) {
    if (asked) return *asked;
    if (settings.engine) return *settings.engine;
    return detect_engine(dir);
}

}  // namespace tfsift::lint
