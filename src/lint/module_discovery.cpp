#include "tfsift/lint/module_discovery.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>

#include "tfsift/config/module_files.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/parallel_walk.hpp"
#include "tfsift/providers/lock_file.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {
namespace {

bool ignored_name(std::string_view name) {
    return name.empty() || name[0] == '.' || name.back() == '~' || (name.front() == '#' && name.back() == '#');
}

bool has_suffix(std::string_view s, std::string_view suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// `name` inside `dir`, as std::filesystem's `dir / name` writes it.
std::string join(const std::string& dir, std::string_view name) {
    std::string out = dir;
    if (!out.empty() && out.back() != '/') out += '/';
    out += name;
    return out;
}

// `abs` (absolute, lexically normal) with `name` appended: still normal.
std::string absolute_child(const std::string& abs, std::string_view name) {
    std::string out = abs;
    if (out != "/") out += '/';
    out += name;
    return out;
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
                                          std::vector<std::string>& problems, ScanListings* listings, unsigned jobs) {
    // Each directory is kept as named (below `root`) and in absolute form,
    // which settings match. A directory that cannot be listed is reported,
    // not skipped.
    struct Dir {
        std::string named;
        std::string absolute;
    };
    std::mutex mutex;  // guards `out` and `failed`
    std::vector<std::string> out;
    std::vector<std::pair<std::string, std::string>> failed;  // (directory, message)
    // The walk follows no symbolic link below the root, so a directory's real
    // path is the root's and the names below it: listings are found by it
    // too (the loader and the module-role scan ask by real path), also when
    // the root is named through a link (`../shared`, a linked home).
    const std::string top = absolute_normal_path(root);
    std::string real_top = top;
    if (listings != nullptr) real_top = resolved_real_path(top).value_or(top);
    auto real_of = [&](const std::string& absolute) {
        if (real_top == top) return absolute;
        const std::string_view below = std::string_view(absolute).substr(top == "/" ? 0 : top.size());
        if (real_top == "/") return below.empty() ? real_top : std::string(below);
        return real_top + std::string(below);
    };
    parallel_walk(std::vector<Dir>{{root, top}}, jobs, [&](Dir& dir, std::vector<Dir>& below) {
        std::vector<DirectoryEntry> entries;
        OpenDirectory opened;
        if (!opened.open(dir.named) || !opened.list(entries)) {
            const std::error_code ec(errno, std::generic_category());
            std::lock_guard<std::mutex> lock(mutex);
            failed.emplace_back(dir.named, fmt::format("{}: cannot read the directory: {}", dir.named, ec.message()));
            return;
        }
        opened.close();
        std::vector<std::string> names;
        for (const auto& entry : entries) {
            if (entry.directory && !entry.symlink) {
                // Symbolic links to directories are not followed.
                if (entry.name[0] != '.') {
                    std::string abs = absolute_child(dir.absolute, entry.name);
                    if (!settings.excluded(abs)) below.push_back({join(dir.named, entry.name), std::move(abs)});
                }
            } else if (entry.regular_file) {
                names.push_back(entry.name);
            }
        }
        if (listings != nullptr) listings->add(dir.absolute, real_of(dir.absolute), std::move(entries));
        for (const auto& f : config::select_config_files(std::move(names), Engine::opentofu)) {
            if (!settings.excluded(absolute_child(dir.absolute, f.name))) {
                std::lock_guard<std::mutex> lock(mutex);
                out.push_back(dir.named);
                break;
            }
        }
    });
    std::sort(out.begin(), out.end());
    std::sort(failed.begin(), failed.end());
    for (auto& [named, message] : failed) problems.push_back(std::move(message));
    return out;
}

std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings) {
    std::vector<std::string> problems;
    return find_module_dirs(root, settings, problems);
}

bool is_lintable_file_name(std::string_view name) {
    if (!config::config_extension(name, Engine::opentofu).empty()) return true;
    if (!config::select_test_files({std::string(name)}, Engine::opentofu).empty()) return true;
    if (!config::select_query_files({std::string(name)}, Engine::terraform).empty()) return true;
    if (!config::select_mock_data_files({std::string(name)}).empty()) return true;
    if (!config::select_migration_files({std::string(name)}, Engine::terraform).empty()) return true;
    return name == providers::kLockFileName || name == settings_file_name || name == "terraform.tfstate";
}

std::string not_lintable_message(std::string_view path) {
    return fmt::format(
        "{}: not a Terraform or OpenTofu file (tfsift reads .tf, .tf.json, .tofu and .tofu.json files, test "
        "files, mock data files, query files, state migration files, .terraform.lock.hcl, .tfsift.toml and terraform.tfstate); name a "
        "directory to lint its module",
        path);
}

bool needs_recursive_hint(const std::string& dir, const Settings& settings) {
    if (!module_config_files(dir, Engine::opentofu, settings).empty()) return false;
    return !find_module_dirs(dir, settings).empty();
}

Engine detect_engine(const std::string& dir, const ScanListings* listings) {
    ScanListings::Entries listed = listings != nullptr ? listings->find(absolute_normal_path(dir)) : nullptr;
    std::vector<DirectoryEntry> own;
    if (!listed) (void)list_directory_entries(dir, own);
    const std::vector<DirectoryEntry>& entries = listed ? *listed : own;
    for (const auto& entry : entries) {
        const std::string_view name = entry.name;
        if (!ignored_name(name) && (has_suffix(name, ".tofu") || has_suffix(name, ".tofu.json"))) {
            return Engine::opentofu;
        }
    }
    // A listing of the scan that shows no lock file spares the read.
    if (listed && !lists_entry(entries, providers::kLockFileName)) return Engine::terraform;
    // Only the first line counts; a lock file that cannot be read is
    // reported by the lock rules, not here.
    FileContent lock = read_regular_file(join(dir, providers::kLockFileName), ReadPolicy{});
    std::string_view first(lock.bytes);
    first = first.substr(0, first.find('\n'));
    if (lock.ok() && first.find("tofu init") != std::string_view::npos) return Engine::opentofu;
    return Engine::terraform;
}

Engine resolve_engine(std::optional<Engine> asked, const Settings& settings, const std::string& dir,
                      const ScanListings* listings) {
    if (asked) return *asked;
    if (settings.engine) return *settings.engine;
    return detect_engine(dir, listings);
}

}  // namespace tfsift::lint
