#include "tfsift/lint/module_roles.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iterator>
#include <mutex>
#include <string_view>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/load_counters.hpp"
#include "tfsift/config/module_call_hint.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/config/override_merger.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/config/static_evaluation.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/hcl/block_text.hpp"
#include "tfsift/lint/repository_root.hpp"
#include "tfsift/parallel_walk.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

// What one configuration file called when it was last read, and a
// fingerprint of the text it was read from.
struct FileCalls {
    std::size_t size = 0;
    std::size_t hash = 0;
    std::vector<std::string> called;
    // A module call whose source is an expression (OpenTofu v1.8,
    // Terraform v1.15): what it calls depends on the directory's other
    // files too (calls_of_directory).
    bool worked_out = false;
};

// What a scan of one directory read: the files it decoded (those that
// mention a module) and the bytes of every configuration file it read.
struct ScanTally {
    std::size_t files_read = 0;
    std::uint64_t text_bytes = 0;
};

// One scanned repository: the local calls of each module directory, how
// many directories call each target, and what each file that mentions a
// module called (so that a refresh parses only the files that changed).
struct ModuleRoleCache::Repository {
    RepositoryModuleCalls calls;
    ReadPolicy policy;
    std::map<std::string, std::set<std::string>> calls_of_dir;  // by absolute directory
    std::map<std::string, std::size_t> callers;                 // by called directory
    std::map<std::string, FileCalls> files;                     // by absolute path
    std::map<std::string, std::uint64_t> text_bytes;            // by absolute directory with files

    // Counts `dir`'s calls as `now`; adds the targets that gained their
    // first caller or lost their last to `flipped`.
    void set_calls(const std::string& dir, std::set<std::string> now, std::set<std::string>* flipped) {
        auto it = calls_of_dir.find(dir);
        const std::set<std::string> none;
        const std::set<std::string>& before = it == calls_of_dir.end() ? none : it->second;
        for (const auto& target : before) {
            if (now.count(target)) continue;
            auto c = callers.find(target);
            if (c != callers.end() && --c->second == 0) {
                callers.erase(c);
                calls.called.erase(target);
                if (flipped) flipped->insert(target);
            }
        }
        for (const auto& target : now) {
            if (before.count(target)) continue;
            if (callers[target]++ == 0) {
                calls.called.insert(target);
                if (flipped) flipped->insert(target);
            }
        }
        if (now.empty()) {
            if (it != calls_of_dir.end()) calls_of_dir.erase(it);
        } else {
            calls_of_dir[dir] = std::move(now);
        }
    }
};

namespace {

// The local module directories one configuration file calls; `memo` (may be
// null) remembers them by the file's text.
std::vector<std::string> calls_of_file(const std::string& base, const config::ConfigFileName& name,
                                       DirectoryFileReader& reader, std::map<std::string, FileCalls>* memo,
                                       std::set<std::string>& seen, ScanTally& tally, bool& worked_out) {
    const std::string path = base == "/" ? "/" + name.name : base + "/" + name.name;
    FileContent failure;
    std::shared_ptr<const SourceFile> source = reader.read(name.name, path, failure);
    if (!source) return {};
    const std::string_view text = source->text();
    config::LoadCounters& counters = config::load_counters();
    counters.role_scan_files_read.fetch_add(1, std::memory_order_relaxed);
    counters.role_scan_bytes_read.fetch_add(text.size(), std::memory_order_relaxed);
    tally.text_bytes += text.size();
    // In the native syntax, no module block starts after `last`.
    std::size_t last = std::string_view::npos;
    if (name.syntax == config::FileSyntax::native) {
        last = config::last_module_block_start(text);
        // Only local calls count.
        if (last == std::string_view::npos || !config::may_name_local_source(text)) return {};
    } else if (!config::may_declare_module_calls(text, name.syntax)) {
        return {};
    }
    // The text's fingerprint only for a cache that is refreshed later.
    const std::size_t hash = memo != nullptr ? std::hash<std::string_view>{}(text) : 0;
    if (memo != nullptr) {
        seen.insert(path);
        auto it = memo->find(path);
        if (it != memo->end() && it->second.size == text.size() && it->second.hash == hash) {
            worked_out = worked_out || it->second.worked_out;
            return it->second.called;
        }
    }
    FileCalls out;
    out.size = text.size();
    out.hash = hash;
    if (name.syntax == config::FileSyntax::native) {
        // Only the module blocks' `source` and `version` are parsed, when the
        // file lets them be cut out.
        if (auto blocks = hcl::top_level_blocks_text(text, "module", {"source", "version"}, last)) {
            if (blocks->empty()) {
                if (memo != nullptr) (*memo)[path] = std::move(out);
                return {};
            }
            source = std::make_shared<const SourceFile>(path, *blocks);
        }
    }
    auto parsed = config::parse_config_file(source, name.syntax);
    Diagnostics diags;
    const config::ConfigFile file =
        config::decode_config_file(*parsed, name.role == config::FileRole::override, diags, Engine::opentofu);
    ++tally.files_read;
    for (const auto& [call, declared] : file.module_calls) {
        if (call.dynamic_source) out.worked_out = true;
        if (!call.source || !call.source->value || !config::is_local_module_source(*call.source->value)) continue;
        std::string target = absolute_normal_path(base + "/" + *call.source->value);
        if (target != base) out.called.push_back(std::move(target));
    }
    worked_out = worked_out || out.worked_out;
    if (memo == nullptr) return std::move(out.called);
    FileCalls& kept = (*memo)[path];
    kept = std::move(out);
    return kept.called;
}

// The configuration files directly inside `dir`, as a scan selects them
// (both engines' file names: a `.tofu` file shadows its `.tf` twin), and
// its subdirectories a scan descends into (absolute, lexically normal, as
// `dir` is). `opened` is left open on `dir` for reading the files, unless
// `listings` held its listing: then it is opened only if it has files.
void list_directory(const std::string& dir, OpenDirectory& opened, std::vector<config::ConfigFileName>& files,
                    std::vector<std::string>* subdirs, const ScanListings* listings = nullptr) {
    std::vector<DirectoryEntry> own;
    ScanListings::Entries listed = listings != nullptr ? listings->find(dir) : nullptr;
    // The lint reports what it cannot read.
    if (!listed && (!opened.open(dir) || !opened.list(own))) return;
    std::vector<std::string> names;
    for (const auto& entry : listed ? *listed : own) {
        if (entry.name[0] == '.') continue;
        if (entry.directory && !entry.symlink) {
            if (subdirs != nullptr) subdirs->push_back(dir == "/" ? "/" + entry.name : dir + "/" + entry.name);
        } else if (entry.regular_file) {
            names.push_back(entry.name);
        }
    }
    files = config::select_config_files(std::move(names), Engine::opentofu);
    if (listed && !files.empty()) (void)opened.open(dir);  // else the files are read by path
}

// The local module directories that the calls of `base` whose sources are
// expressions call, worked out as `init` works them out for a root module
// (config/static_evaluation.hpp): from the directory's variable defaults,
// local values and `path.module`, with OpenTofu's rules, under which every
// variable Terraform knows (`const = true`) is known too. The directory's
// files are read whole for it; few directories have such calls.
std::vector<std::string> worked_out_calls(const std::string& base, const std::vector<config::ConfigFileName>& files,
                                          DirectoryFileReader& reader, ScanTally& tally) {
    std::vector<std::unique_ptr<config::ParsedFile>> parsed;  // what the module points into
    std::vector<config::ConfigFile> decoded;
    for (const auto& name : files) {
        const std::string path = base == "/" ? "/" + name.name : base + "/" + name.name;
        FileContent failure;
        std::shared_ptr<const SourceFile> source = reader.read(name.name, path, failure);
        if (!source) continue;
        ++tally.files_read;
        config::load_counters().role_scan_files_read.fetch_add(1, std::memory_order_relaxed);
        config::load_counters().role_scan_bytes_read.fetch_add(source->text().size(), std::memory_order_relaxed);
        parsed.push_back(config::parse_config_file(source, name.syntax));
        Diagnostics diags;
        decoded.push_back(config::decode_config_file(*parsed.back(), name.role == config::FileRole::override, diags,
                                                     Engine::opentofu));
    }
    config::OverrideMerger merger;
    for (const auto& file : decoded) {
        if (!file.is_override) merger.add_primary(file);
    }
    for (const auto& file : decoded) {
        if (file.is_override) merger.apply_override(file);
    }
    const config::Module module = merger.finish();
    config::StaticScope scope;
    scope.module = &module;
    scope.engine = Engine::opentofu;
    std::vector<std::string> out;
    for (const auto& [name, call] : module.module_calls) {
        if (!call.dynamic_source) continue;
        const config::StaticResult value = config::evaluate_static(call.dynamic_source->expr, scope);
        if (!value.value || !value.value->type().is_primitive()) continue;
        const auto text = cty::convert(*value.value, cty::Type::string());
        if (!text.ok() || text.value.is_null() || !text.value.is_known()) continue;
        const std::string source = text.value.as_string();
        if (!config::is_local_module_source(source)) continue;
        std::string target = absolute_normal_path(base + "/" + source);
        if (target != base) out.push_back(std::move(target));
    }
    return out;
}

// The local module directories the configuration files directly inside
// `base` (absolute, lexically normal) call; forgets what `memo` held of
// files that are gone.
std::set<std::string> calls_of_directory(const std::string& base, const OpenDirectory& opened,
                                         const std::vector<config::ConfigFileName>& files, const ReadPolicy& policy,
                                         std::map<std::string, FileCalls>* memo, ScanTally& tally) {
    std::set<std::string> out;
    std::set<std::string> seen;
    // The scan walks from a real path and follows no link, so a directory
    // it reaches inside the root is its own real path: not asked again.
    DirectoryFileReader reader(opened, policy,
                               real_path_inside(base, policy.root) ? std::optional<std::string>(base) : std::nullopt);
    bool worked_out = false;
    for (const auto& name : files) {
        for (auto& target : calls_of_file(base, name, reader, memo, seen, tally, worked_out)) {
            out.insert(std::move(target));
        }
    }
    if (worked_out) {
        for (auto& target : worked_out_calls(base, files, reader, tally)) out.insert(std::move(target));
    }
    if (memo != nullptr) {
        const std::string prefix = base == "/" ? base : base + "/";
        for (auto it = memo->lower_bound(prefix); it != memo->end() && it->first.starts_with(prefix);) {
            const bool direct = it->first.find('/', prefix.size()) == std::string::npos;
            it = direct && !seen.count(it->first) ? memo->erase(it) : std::next(it);
        }
    }
    return out;
}

// Walks the repository's directories, listing and reading `jobs` of them at
// once (the depth is the repository's to choose: no recursion); what each
// directory calls is counted in one thread afterwards, in the order of the
// directories' names, so the result does not depend on the order of the
// work.
void scan_into(const std::string& repository_root, std::shared_ptr<const FileOverlays> overlays,
               ModuleRoleCache::Repository& repo, bool remember_files, unsigned jobs,
               const ScanListings* listings = nullptr) {
    repo.calls.root = absolute_normal_path(repository_root);
    repo.policy = ReadPolicy{trusted_root_of(repo.calls.root), false, default_max_file_size, std::move(overlays)};
    struct Directory {
        std::string base;
        std::vector<config::ConfigFileName> files;
        std::set<std::string> calls;
        std::map<std::string, FileCalls> memo;
        ScanTally tally;
    };
    std::mutex mutex;  // guards `dirs`
    std::vector<Directory> dirs;
    parallel_walk(
        std::vector<std::string>{repo.calls.root}, jobs, [&](std::string& base, std::vector<std::string>& below) {
            Directory d;
            d.base = std::move(base);
            OpenDirectory opened;
            list_directory(d.base, opened, d.files, &below, listings);
            if (d.files.empty()) return;
            d.calls =
                calls_of_directory(d.base, opened, d.files, repo.policy, remember_files ? &d.memo : nullptr, d.tally);
            std::lock_guard<std::mutex> lock(mutex);
            dirs.push_back(std::move(d));
        });
    std::sort(dirs.begin(), dirs.end(), [](const Directory& a, const Directory& b) { return a.base < b.base; });
    for (auto& d : dirs) {
        repo.files.merge(d.memo);
        repo.calls.files_read += d.tally.files_read;
        repo.text_bytes.emplace(d.base, d.tally.text_bytes);
        repo.set_calls(d.base, std::move(d.calls), nullptr);
    }
}

// Whether a scan from `root` reaches `dir` (inside it): no hidden or
// symlinked directory on the way.
bool scan_reaches(const std::string& root, const std::string& dir) {
    fs::path at(root);
    for (const auto& part : fs::path(dir.substr(root.size()))) {
        const std::string name = part.string();
        if (name.empty() || name == "/") continue;
        if (name[0] == '.') return false;
        at /= part;
        std::error_code ec;
        if (fs::is_symlink(at, ec)) return false;
    }
    return true;
}

// A role glob names module directories; "." names the settings file's own.
bool names_dir(const AnchoredGlob& g, const std::string& dir) {
    if (dir == g.base_dir) return g.glob.pattern() == "." || g.glob.pattern() == "./";
    return g.matches(dir);
}

}  // namespace

RepositoryModuleCalls scan_repository_module_calls(const std::string& repository_root,
                                                   std::shared_ptr<const FileOverlays> overlays) {
    ModuleRoleCache::Repository repo;
    scan_into(repository_root, std::move(overlays), repo, false, 1);
    return std::move(repo.calls);
}

ModuleRole decide_module_role(const std::string& module_dir, const Settings& settings,
                              const RepositoryModuleCalls& calls) {
    for (const auto& g : settings.root_modules) {
        if (names_dir(g, module_dir)) return ModuleRole::root;
    }
    for (const auto& g : settings.shared_modules) {
        if (names_dir(g, module_dir)) return ModuleRole::called;
    }
    return calls.called.count(module_dir) ? ModuleRole::called : ModuleRole::root;
}

ModuleRoleCache::ModuleRoleCache(bool refreshed) : refreshed_(refreshed) {}
ModuleRoleCache::~ModuleRoleCache() = default;

ModuleRole ModuleRoleCache::role_of(const std::string& module_dir, const Settings& settings,
                                    const std::string& fallback_root,
                                    const std::shared_ptr<const FileOverlays>& overlays, unsigned jobs,
                                    DirectoryProbe* probe, const ScanListings* listings) {
    const std::string named = absolute_normal_path(module_dir);
    const std::string root =
        probe != nullptr ? probe->repository_root(named, fallback_root) : find_repository_root(named, fallback_root);
    // The scan walks the root, a real path, and records calls below it.
    const std::string dir = in_terms_of_root(named, root);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_root_.find(root);
    if (it == by_root_.end()) {
        auto repo = std::make_unique<Repository>();
        scan_into(root, overlays, *repo, refreshed_, jobs, listings);
        it = by_root_.emplace(root, std::move(repo)).first;
    }
    return decide_module_role(dir, settings, it->second->calls);
}

std::vector<std::string> ModuleRoleCache::local_calls(const std::string& module_dir) {
    const std::string dir = absolute_normal_path(module_dir);
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [root, repo] : by_root_) {
        auto it = repo->calls_of_dir.find(dir);
        if (it != repo->calls_of_dir.end()) return {it->second.begin(), it->second.end()};
    }
    return {};
}

std::uint64_t ModuleRoleCache::text_bytes(const std::string& module_dir) {
    const std::string dir = absolute_normal_path(module_dir);
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [root, repo] : by_root_) {
        auto it = repo->text_bytes.find(dir);
        if (it != repo->text_bytes.end()) return it->second;
    }
    return 0;
}

std::set<std::string> ModuleRoleCache::callers_of(const std::string& module_dir) {
    const std::string dir = absolute_normal_path(module_dir);
    std::set<std::string> found;
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [root, repo] : by_root_) {
        if (!repo->callers.count(dir)) continue;
        // Breadth first over the calls read backwards; `found` stops a cycle.
        std::vector<std::string> queue{dir};
        for (std::size_t next = 0; next < queue.size(); ++next) {
            for (const auto& [caller, targets] : repo->calls_of_dir) {
                if (targets.count(queue[next]) && found.insert(caller).second) queue.push_back(caller);
            }
        }
    }
    found.erase(dir);
    return found;
}

std::set<std::string> ModuleRoleCache::refresh_directory(const std::string& dir,
                                                         const std::shared_ptr<const FileOverlays>& overlays) {
    const std::string base = absolute_normal_path(dir);
    std::set<std::string> flipped;
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [root, repo] : by_root_) {
        const bool inside = base == root || (base.starts_with(root) && (root == "/" || base[root.size()] == '/'));
        if (!inside || !scan_reaches(root, base)) continue;
        ReadPolicy policy = repo->policy;
        policy.overlays = overlays;
        std::vector<config::ConfigFileName> files;
        OpenDirectory opened;
        list_directory(base, opened, files, nullptr);
        ScanTally tally;
        repo->set_calls(base, calls_of_directory(base, opened, files, policy, &repo->files, tally), &flipped);
        repo->calls.files_read += tally.files_read;
        if (files.empty()) {
            repo->text_bytes.erase(base);
        } else {
            repo->text_bytes[base] = tally.text_bytes;
        }
    }
    return flipped;
}

void ModuleRoleCache::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    by_root_.clear();
}

}  // namespace tfsift::lint
