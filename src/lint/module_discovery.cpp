#include "tfsift/lint/module_discovery.hpp"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <set>
#include <system_error>

#include "tfsift/config/module_files.hpp"
#include "tfsift/file_read.hpp"

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

struct DirCloser {
    void operator()(DIR* d) const { ::closedir(d); }
};

// Calls `visit(name, type)` for each entry of `dir` but "." and "..", in the
// order the directory lists them, with the type readdir tells (DT_UNKNOWN
// when the file system does not). std::filesystem's iterator builds a path
// object per entry, which costs more than reading the directory. An error
// opening or reading the directory is returned.
template <typename Visit>
std::error_code list_entries(const std::string& dir, Visit&& visit) {
    std::unique_ptr<DIR, DirCloser> handle(::opendir(dir.c_str()));
    if (!handle) return {errno, std::generic_category()};
    for (;;) {
        errno = 0;
        const dirent* entry = ::readdir(handle.get());
        if (entry == nullptr) {
            if (errno != 0) return {errno, std::generic_category()};
            return {};
        }
        const std::string_view name(entry->d_name);
        if (name == "." || name == "..") continue;
        visit(name, entry->d_type);
    }
}

enum class EntryKind : std::uint8_t { directory, regular_file, other };

// A directory that is not a symlink, a regular file (through a symlink too),
// or something else, as directory_entry's is_directory and is_symlink, and
// is_regular_file tell them.
EntryKind entry_kind(const std::string& path, unsigned char type) {
    if (type == DT_DIR) return EntryKind::directory;
    if (type == DT_REG) return EntryKind::regular_file;
    struct stat st {};
    if (type == DT_UNKNOWN) {
        if (::lstat(path.c_str(), &st) != 0) return EntryKind::other;
        if (S_ISDIR(st.st_mode)) return EntryKind::directory;
        if (S_ISREG(st.st_mode)) return EntryKind::regular_file;
        if (!S_ISLNK(st.st_mode)) return EntryKind::other;
    } else if (type != DT_LNK) {
        return EntryKind::other;
    }
    // A symlink: never a directory to descend into, a file when it leads to one.
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? EntryKind::regular_file : EntryKind::other;
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
                                          std::vector<std::string>& problems) {
    // An explicit stack rather than recursion or recursive_directory_iterator:
    // the depth is the repository's to choose, and a directory that cannot
    // be listed must be reported, not skipped. Each directory is kept as
    // named (below `root`) and in absolute form, which settings match.
    struct Dir {
        std::string named;
        std::string absolute;
    };
    std::vector<std::string> out;
    std::vector<Dir> todo{{root, absolute_normal_path(root)}};
    while (!todo.empty()) {
        const Dir dir = std::move(todo.back());
        todo.pop_back();
        std::vector<std::string> names;
        const std::error_code ec = list_entries(dir.named, [&](std::string_view name, unsigned char type) {
            const std::string path = join(dir.named, name);
            switch (entry_kind(path, type)) {
                case EntryKind::directory:
                    if (name[0] != '.') {
                        std::string abs = absolute_child(dir.absolute, name);
                        if (!settings.excluded(abs)) todo.push_back({path, std::move(abs)});
                    }
                    break;
                case EntryKind::regular_file: names.emplace_back(name); break;
                case EntryKind::other: break;
            }
        });
        if (ec) {
            problems.push_back(fmt::format("{}: cannot read the directory: {}", dir.named, ec.message()));
            continue;
        }
        for (const auto& f : config::select_config_files(std::move(names), Engine::opentofu)) {
            if (!settings.excluded(absolute_child(dir.absolute, f.name))) {
                out.push_back(dir.named);
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
    bool tofu_files = false;
    (void)list_entries(dir, [&](std::string_view name, unsigned char) {
        if (!tofu_files && !ignored_name(name) && (has_suffix(name, ".tofu") || has_suffix(name, ".tofu.json"))) {
            tofu_files = true;
        }
    });
    if (tofu_files) return Engine::opentofu;
    // Only the first line counts; a lock file that cannot be read is
    // reported by the lock rules, not here.
    FileContent lock = read_regular_file(join(dir, ".terraform.lock.hcl"), ReadPolicy{});
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
