#include "tfsift/config/module_tree.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <system_error>
#include <unordered_map>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/load_cache.hpp"
#include "tfsift/config/load_counters.hpp"
#include "tfsift/config/migration_checks.hpp"
#include "tfsift/config/mock_data_checks.hpp"
#include "tfsift/config/module_checks.hpp"
#include "tfsift/config/override_merger.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/config/query_checks.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/config/static_evaluation.hpp"
#include "tfsift/config/test_checks.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/read_budget.hpp"

namespace tfsift::config {

namespace fs = std::filesystem;

bool LoadedTree::has_errors() const {
    for (const auto& d : diagnostics) {
        if (d.diagnostic.severity == Severity::error) return true;
    }
    return false;
}

std::shared_ptr<const SourceFile> LoadedTree::shared_source(const SourceFile* file) const {
    if (auto it = source_index.find(file);
        it != source_index.end() && it->second < files.size() && files[it->second]->source.get() == file) {
        return files[it->second]->source;
    }
    for (const auto& f : files) {
        if (f->source.get() == file) return f->source;
    }
    return nullptr;
}

namespace {

std::string file_path(const std::string& dir, const std::string& name) { return dir == "." ? name : dir + "/" + name; }

using Clock = std::chrono::steady_clock;

std::uint64_t nanoseconds_since(Clock::time_point start) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

// A diagnostic of loading a module directory. `limited`: counted toward
// max_diagnostics_per_kind, which each tree applies (read failures are
// not). A `left_out` above zero makes it the first of that many of its kind
// that decoding left out already (config/diagnostic_limit.hpp), which the
// tree counts without reporting any.
// The error of a module file the loader could not read (or let go), named
// `filename`, at its line 1, column 1.
Diagnostic failed_to_read(std::string filename, std::string detail) {
    Diagnostic d;
    d.code = code::failed_to_read_file;
    d.summary = "Failed to read file";
    d.detail = std::move(detail);
    d.filename = std::move(filename);
    return d;
}

struct DirectoryDiagnostic {
    LoadDiagnostic diagnostic;
    bool limited = true;
    std::size_t left_out = 0;
};

// One module directory read, parsed, decoded and merged, with the
// diagnostics of doing so in the order they arose. Never changed after
// loading: it serves every caller in the tree, and every tree that reaches
// the same directory under the same file names while any of them is alive
// (see TreeLoader::directory_for).
struct LoadedDirectory {
    std::vector<std::shared_ptr<const ParsedFile>> parsed;  // shared with TreeOptions::cache
    std::vector<std::string> names;                         // file names within the directory
    std::vector<bool> is_override;
    std::vector<std::shared_ptr<const ConfigFile>> decoded;
    Module module;
    std::vector<DirectoryDiagnostic> diagnostics;
    std::vector<std::string> read_failures;
    // What the files were when read, to notice a change (a --fix between
    // two scans, a test rewriting a file): the selected names, and each
    // file's size and modification time.
    std::vector<std::string> selected;
    std::vector<FileStamp> stamps;
    // The last scan (TreeOptions::scan_id) that found the files unchanged.
    mutable std::atomic<std::uint64_t> checked_in_scan{0};
};

// The shared directories of this process, by key. Weak: a directory goes
// with the last tree (or finding) that holds it. While one thread loads a
// directory, another that wants the same one waits for it rather than
// loading it too (parallel lints reach a shared module from several trees
// at once).
class DirectoryRegistry {
public:
    static DirectoryRegistry& instance() {
        static DirectoryRegistry registry;
        return registry;
    }

    // The live directory of `key`; or, when there is none and no thread is
    // loading it, nothing, with `claimed` set: the caller loads it and must
    // release the claim (Claim). Waits while another thread loads it.
    std::shared_ptr<LoadedDirectory> find_or_claim(const std::string& key, bool& claimed) {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            auto it = entries_.find(key);
            if (it != entries_.end()) {
                if (auto found = it->second.lock()) {
                    claimed = false;
                    return found;
                }
            }
            if (loading_.insert(key).second) {
                claimed = true;
                return nullptr;
            }
            loaded_.wait(lock);
        }
    }

    // The live directory of `key`, if any, without claiming or waiting.
    std::shared_ptr<LoadedDirectory> find(const std::string& key) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = entries_.find(key);
        return it == entries_.end() ? nullptr : it->second.lock();
    }

    void add(const std::string& key, const std::shared_ptr<LoadedDirectory>& directory) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (++adds_ % 4096 == 0) {
            std::erase_if(entries_, [](const auto& entry) { return entry.second.expired(); });
        }
        entries_[key] = directory;
    }

    // Ends a claim of find_or_claim, whether or not a directory was added.
    void release(const std::string& key) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            loading_.erase(key);
        }
        loaded_.notify_all();
    }

    // Releases a claim on every way out of loading (a failed read, an
    // exception).
    class Claim {
    public:
        Claim(DirectoryRegistry& registry, const std::string& key, bool held)
            : registry_(registry), key_(key), held_(held) {}
        ~Claim() {
            if (held_) registry_.release(key_);
        }
        Claim(const Claim&) = delete;
        Claim& operator=(const Claim&) = delete;

    private:
        DirectoryRegistry& registry_;
        const std::string& key_;
        bool held_;
    };

private:
    std::mutex mutex_;
    std::condition_variable loaded_;
    std::map<std::string, std::weak_ptr<LoadedDirectory>> entries_;
    std::set<std::string> loading_;
    std::size_t adds_ = 0;
};

// The stamp of each file of the open directory `dir`, or nullopt when one
// is not a regular file or cannot be examined: one stat per file, by name
// within the directory.
std::optional<std::vector<FileStamp>> stamps_of(const OpenDirectory& dir, const std::vector<std::string>& names) {
    std::vector<FileStamp> out;
    out.reserve(names.size());
    for (const auto& name : names) {
        auto stamp = dir.stamp(name);
        if (!stamp) return std::nullopt;
        out.push_back(*stamp);
    }
    return out;
}

// Whether `name` is a variable file a test run reads: `terraform.tfvars`,
// `*.auto.tfvars`, and their JSON forms.
bool is_test_variable_file(const std::string& name) {
    return name == "terraform.tfvars" || name.ends_with(".auto.tfvars") || name == "terraform.tfvars.json" ||
           name.ends_with(".auto.tfvars.json");
}

// Whether a directory holding `names` has files a test run reads: test
// files, or variable files.
bool reads_test_inputs(const std::vector<std::string>& names) {
    if (std::any_of(names.begin(), names.end(), is_test_variable_file)) return true;
    return !select_test_files(names, Engine::opentofu).empty() || !select_test_files(names, Engine::terraform).empty();
}

// The real paths of the directories the loader has resolved during one
// scan (TreeOptions::scan_id), by the path it named them by. Directories do
// not change within a scan, so a module directory that many trees call is
// opened and resolved once per scan rather than once per call. Holds one
// scan at a time: a newer scan starts it afresh.
class ScanRealPaths {
public:
    static ScanRealPaths& instance() {
        static ScanRealPaths memo;
        return memo;
    }

    std::optional<std::string> find(std::uint64_t scan, const std::string& path) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (scan == 0 || scan != scan_) return std::nullopt;
        auto it = by_path_.find(path);
        if (it == by_path_.end()) return std::nullopt;
        return it->second;
    }

    void add(std::uint64_t scan, const std::string& path, const std::string& real) {
        if (scan == 0) return;
        std::lock_guard<std::mutex> lock(mutex_);
        if (scan != scan_) {
            by_path_.clear();
            scan_ = scan;
        }
        by_path_.emplace(path, real);
    }

private:
    std::mutex mutex_;
    std::uint64_t scan_ = 0;
    std::unordered_map<std::string, std::string> by_path_;
};

// What the loader knows of a module directory before loading it.
struct DirectoryLook {
    std::string opened;                // the path it is opened by (TreeLoader::under_root)
    OpenDirectory handle;              // open while the loader lists and reads
    std::optional<std::string> where;  // the real path; nullopt when it cannot be resolved
    std::string prefix;                // see TreeLoader::names_prefix
    std::string key;                   // the sharing key; empty when the directory is not shared
    // Loaded and found unchanged earlier in this scan: taken as it is.
    std::shared_ptr<LoadedDirectory> checked;
    std::vector<std::string> names;  // the file names, when listed
    ReadPolicy policy;               // how its files are read
};

// What is known statically in one module of the tree while its calls are
// installed (config/static_evaluation.hpp), worked out when one of its calls,
// or of the modules it calls, first needs it: most trees never do.
struct StaticFrame {
    StaticFrame* caller = nullptr;     // null for the root module
    const ModuleCall* call = nullptr;  // the caller's call of this module
    const LoadedModule* module = nullptr;
    std::optional<StaticScope> scope;
};

class TreeLoader {
public:
    TreeLoader(std::string root_dir, const TreeOptions& options, LoadedTree& out)
        : root_dir_(std::move(root_dir)), options_(options), out_(out) {}

    // `rel` under the root directory, as std::filesystem::path's `/` joins
    // them (an absolute `rel` stands alone), without a path object: the
    // loader asks this for every directory and file it opens.
    [[nodiscard]] std::string under_root(const std::string& rel) const {
        if (root_dir_.empty() || (!rel.empty() && rel.front() == '/')) return rel;
        std::string out;
        out.reserve(root_dir_.size() + 1 + rel.size());
        out.append(root_dir_);
        if (out.back() != '/') out.push_back('/');
        out.append(rel);
        return out;
    }

    // The names of a listing's entries that are not directories.
    static void file_names(const std::vector<DirectoryEntry>& entries, std::vector<std::string>& names) {
        for (const auto& entry : entries) {
            if (!entry.directory) names.push_back(entry.name);
        }
    }

    // `look`: what look_at found of `dir`, when the caller has looked.
    // `m.remote` is set beforehand for a module of a remote package.
    void load(LoadedModule& m, const std::string& dir, const std::string& address, int depth,
              std::vector<std::string>& ancestors, DirectoryLook* look = nullptr, StaticFrame* caller = nullptr,
              const ModuleCall* via = nullptr) {
        StaticFrame frame{caller, via, &m, std::nullopt};
        m.address = address;
        m.dir = dir;
        DirectoryLook own;
        if (look == nullptr) {
            look_at(dir, own, policy_for(m.remote));
            look = &own;
        }
        std::shared_ptr<LoadedDirectory> directory = directory_for(dir, *look);
        look->handle.close();  // not held open while the calls below load
        // Every caller and tree shares the directory's parses, decoded files
        // and merged module, which keep it alive (aliasing handles): nothing
        // is copied, whether the directory serves this tree alone or many.
        for (std::size_t i = 0; i < directory->parsed.size(); ++i) {
            std::shared_ptr<const ParsedFile> parsed(directory, directory->parsed[i].get());
            (directory->is_override[i] ? m.override_files : m.primary_files)
                .push_back(file_path(dir, directory->names[i]));
            m.files.push_back(ModuleFile{parsed.get(),
                                         std::shared_ptr<const ConfigFile>(directory, directory->decoded[i].get()),
                                         directory->is_override[i]});
            if (sources_.emplace(parsed->source.get(), parsed->source).second) out_.files.push_back(std::move(parsed));
        }
        m.module = std::shared_ptr<const Module>(directory, &directory->module);
        for (const auto& [d, limited, left_out] : directory->diagnostics) {
            if (left_out > 0) {
                count_left_out(d, left_out);
            } else if (limited) {
                keep(d);
            } else {
                out_.diagnostics.push_back(d);
            }
        }
        out_.read_failures.insert(out_.read_failures.end(), directory->read_failures.begin(),
                                  directory->read_failures.end());

        if (!address.empty()) {
            for (auto& p : check_called_module(*m.module, options_.engine)) {
                tree_diag(p.severity, p.code, std::move(p.summary), std::move(p.detail), p.at);
            }
        }

        if (depth + 1 > options_.max_depth) return;
        for (const auto& [name, written] : m.module->module_calls) {
            // A source or version written with references: the call as it
            // is once they are worked out, or not followed.
            std::optional<ModuleCall> evaluated;
            if (written.dynamic_source || written.dynamic_version) {
                evaluated = evaluate_call(name, written, frame, address);
                if (!evaluated) continue;
            }
            const ModuleCall& call = evaluated ? *evaluated : written;
            if (!call.source || !call.source->value) continue;
            const std::string& src = *call.source->value;
            std::string child_address;
            child_address.reserve(address.size() + name.size() + 8);
            if (!address.empty()) child_address.append(address).append(1, '.');
            child_address.append("module.").append(name);
            std::string child_dir;
            // A module of a remote package, and the local modules inside
            // that package, are someone else's code (LoadedModule::remote).
            std::optional<ResolvedModule> child_remote = m.remote;
            if (is_local_module_source(src) || src == "./.." || src == "..") {
                child_dir = join_path(dir, src);
                if (m.remote && !inside_package(child_dir, m.remote->package_dir)) {
                    tree_diag(Severity::error, code::local_module_path_escapes_module_package,
                              "Local module path escapes module package",
                              fmt::format("The given source directory for {} would be outside of its containing "
                                          "package \"{}\". Local source addresses starting with \"../\" must stay "
                                          "within the same package that the calling module belongs to.",
                                          child_address, m.remote->package_dir),
                              call.source->origin);
                    continue;
                }
                if (child_remote) child_remote->dir = child_dir;
            } else if (options_.module_resolver) {
                const ModuleRequest request = request_for(call, dir, child_address);
                ModuleResolution resolution = options_.module_resolver->resolve(request);
                if (!resolution.resolved()) {
                    not_loaded(request, resolution.unavailable, call, m.remote.has_value());
                    continue;
                }
                child_dir = resolution.module->dir;
                child_remote = std::move(resolution.module);
            } else {
                continue;
            }
            const ReadPolicy& child_policy = policy_for(child_remote);
            DirectoryLook look;
            if (!look_at(child_dir, look, child_policy)) {
                struct stat st {};
                if (::stat(under_root(child_dir).c_str(), &st) != 0 && errno == ELOOP) {
                    // Not a missing directory: a link that leads back to
                    // itself, which no loader can follow. An I/O error.
                    out_.read_failures.push_back(
                        fmt::format("the module directory {}: a loop of symbolic links",
                                    (fs::path(root_dir_) / child_dir).lexically_normal().string()));
                    tree_diag(Severity::error, code::failed_to_read_module_directory, "Failed to read module directory",
                              fmt::format("Module directory {} is a loop of symbolic links (too many levels of "
                                          "symbolic links); it cannot be read.",
                                          fs::path(child_dir).string()),
                              call.origin);
                    continue;
                }
                tree_diag(
                    Severity::error, code::failed_to_read_module_directory, "Failed to read module directory",
                    fmt::format("Module directory {} does not exist or cannot be read.", fs::path(child_dir).string()),
                    call.origin);
                continue;
            }
            if (leaves_root(look.where, child_policy)) {
                out_.read_failures.push_back(
                    fmt::format("the module directory {}: resolves outside the repository root {}",
                                (fs::path(root_dir_) / child_dir).lexically_normal().string(), child_policy.root));
                tree_diag(
                    Severity::error, code::module_directory_outside_the_repository,
                    "Module directory outside the repository",
                    fmt::format("Module directory {} resolves to a place outside the repository root {}; it is "
                                "not read (the setting follow_external_symlinks = true, in a settings file given with "
                                "--config, allows it).",
                                fs::path(child_dir).string(), child_policy.root),
                    call.origin);
                continue;
            }
            // Ancestors by real path: a `self -> .` link is a cycle too.
            bool cycle = false;
            for (const auto& a : ancestors) cycle = cycle || a == *look.where;
            if (cycle) {
                // Terraform's loader follows a cycle until its depth limit,
                // which a module calling itself three times turns into 3^16
                // modules, and `init` cannot install such a tree: an error.
                // The call that closes the cycle is not followed.
                tree_diag(Severity::error, code::module_call_cycle, "Module call cycle",
                          fmt::format("The module directory {} is already being loaded as a caller of this module, "
                                      "directly or through other modules, so `init` cannot install this module "
                                      "tree; this call is not followed.",
                                      child_dir),
                          call.origin);
                continue;
            }
            if (modules_loaded_ >= options_.max_modules) {
                if (!warned_too_many_) {
                    warned_too_many_ = true;
                    tree_diag(Severity::error, code::too_many_modules, "Too many modules",
                              fmt::format("The module tree has more than {} modules; this call and every later one "
                                          "are not loaded.",
                                          options_.max_modules),
                              call.origin);
                }
                continue;
            }
            ++modules_loaded_;
            LoadedModule child;
            child.remote = std::move(child_remote);
            ancestors.push_back(*look.where);
            load(child, child_dir, child_address, depth + 1, ancestors, &look, &frame, &written);
            ancestors.pop_back();
            check_provider_passing(m, call, child);
            m.children.emplace(name, std::move(child));
        }
    }

    // What this scan has listed of `dir` (relative to the root) already:
    // its entries, their file names in `names` and its real path in
    // `where`, so that the loader sees whether it holds test or query files
    // without opening it again. Null when the run has no listing of it.
    ScanListings::Entries listing_of(const std::string& dir, std::vector<std::string>& names,
                                     std::optional<std::string>& where) const {
        where = ScanRealPaths::instance().find(options_.scan_id, under_root(dir));
        ScanListings::Entries listed = where && options_.listings ? options_.listings->find(*where) : nullptr;
        if (listed) file_names(*listed, names);
        return listed;
    }

    // Opens `dir` to read its test or query files; lists it into `names`
    // unless the run's listing gave them, and finds its real path unless
    // known. False when it cannot be opened or listed.
    bool open_side_directory(const std::string& dir, bool listed, OpenDirectory& handle,
                             std::vector<std::string>& names, std::optional<std::string>& where) const {
        if (!handle.open(under_root(dir))) return false;
        if (!listed) {
            std::vector<DirectoryEntry> entries;
            if (!handle.list(entries)) return false;
            file_names(entries, names);
        }
        if (!where) where = handle.real_path();
        return true;
    }

    // The root module's test files, from its directory and its test
    // directory (`tests` unless the options name another), each parsed and decoded on its own; then the local modules
    // their runs execute, and the checks Terraform makes of a test file
    // against the configuration under test.
    void load_tests(const LoadedModule& root) {
        const std::string& test_dir = options_.test_directory;
        // The entry of the module directory the test directory starts with.
        const std::string test_dir_entry = test_dir.substr(0, test_dir.find('/'));
        for (const std::string& dir : {std::string("."), test_dir}) {
            std::vector<std::string> names;
            std::optional<std::string> where;
            const ScanListings::Entries listed = listing_of(dir, names, where);
            if (listed && !reads_test_inputs(names)) {
                if (dir == "." && !lists_entry(*listed, test_dir_entry)) break;  // no test directory either
                continue;
            }
            OpenDirectory handle;
            if (!open_side_directory(dir, listed != nullptr, handle, names, where)) continue;
            if (dir != "." && leaves_root(where, options_.read_policy)) continue;
            DirectoryFileReader reader(handle, options_.read_policy, where);
            const std::string prefix =
                dir == "." ? options_.source_name_prefix : options_.source_name_prefix + dir + "/";
            // Variable files `terraform test` reads from both directories: the
            // names they set are variables a test file may refer to.
            for (const auto& name : names) {
                if (!is_test_variable_file(name)) continue;
                const bool json = name.ends_with(".tfvars.json");
                FileContent failure;
                auto src = reader.read(name, under_root(file_path(dir, name)), failure, prefix + name);
                if (!src) continue;
                auto parsed = parse_config_file(src, json ? FileSyntax::json : FileSyntax::native);
                if (parsed->native) {
                    for (const auto& a : parsed->native->body->attributes) {
                        out_.test_variable_file_names.insert(std::string(a.name));
                    }
                } else if (parsed->json && parsed->json->root.is_object()) {
                    for (const auto& m : parsed->json->root.members) out_.test_variable_file_names.emplace(m.name);
                }
            }
            for (const auto& f : select_test_files(std::move(names), options_.engine)) {
                const std::string rel = file_path(dir, f.name);
                if (options_.exclude_file && options_.exclude_file(rel)) continue;
                FileContent failure;
                std::shared_ptr<const SourceFile> src = reader.read(f.name, under_root(rel), failure, prefix + f.name);
                count_read(src);
                if (!src) {
                    Diagnostic d =
                        failed_to_read(prefix + f.name,
                                       fmt::format("The test file \"{}\" could not be read: {}", rel, failure.message));
                    out_.read_failures.push_back(failure.message);
                    out_.diagnostics.push_back(LoadDiagnostic{std::move(d), LoadPhase::parse, nullptr});
                    continue;
                }
                std::shared_ptr<ParsedFile> parsed = parse_config_file(src, f.syntax);
                for (const auto& d : parsed->parse_diagnostics) keep(LoadDiagnostic{d, LoadPhase::parse, src});
                Diagnostics decode_diags;
                auto decoded =
                    std::make_shared<const TestFile>(decode_test_file(*parsed, decode_diags, options_.engine));
                for (auto& d : decode_diags) keep(LoadDiagnostic{std::move(d), LoadPhase::load, src});
                sources_.emplace(src.get(), src);
                out_.files.push_back(parsed);
                out_.test_files.push_back(LoadedTestFile{std::move(parsed), std::move(decoded), rel});
            }
        }
        for (const auto& tf : out_.test_files) {
            for (const auto& run : tf.decoded->runs) {
                if (!run.module || !run.module->local || !run.module->source) continue;
                const std::string& source = *run.module->source;
                if (out_.test_modules.count(source) != 0) continue;
                const std::string dir = join_path(".", source);
                DirectoryLook look;
                if (!look_at(dir, look, options_.read_policy) || leaves_root(look.where, options_.read_policy)) {
                    out_.test_modules.emplace(source, nullptr);
                    tree_diag(Severity::error, code::failed_to_read_module_directory, "Failed to read module directory",
                              fmt::format("Module directory {} does not exist or cannot be read.", source),
                              run.module->source_origin);
                    continue;
                }
                std::shared_ptr<LoadedDirectory> directory = directory_for(dir, look);
                out_.test_modules.emplace(source, std::shared_ptr<const Module>(directory, &directory->module));
            }
        }
        for (const auto& tf : out_.test_files) {
            for (auto& p : check_test_file(*tf.decoded, tf.name, root, out_.test_modules, options_.engine)) {
                tree_diag(p.severity, p.code, std::move(p.summary), std::move(p.detail), p.at);
            }
        }
        load_mock_data();
    }

    // The mock data directories of the test files' mock providers
    // (Terraform's `source`), named relative to the module directory as
    // `terraform test` resolves them from where it runs: each directory is
    // read once, its `.tfmock.hcl` and `.tfmock.json` files decoded and
    // combined. A directory that cannot be read is an error at each mock
    // provider that names it.
    void load_mock_data() {
        std::set<std::string> loaded;
        for (const auto& tf : out_.test_files) {
            for (const auto& p : tf.decoded->providers) {
                if (!p.mock || !p.source || p.source->empty()) continue;
                const std::string dir = join_path(".", *p.source);
                if (loaded.count(dir) != 0) continue;
                if (!load_mock_data_directory(dir)) {
                    tree_diag(Severity::error, code::failed_to_read_mock_data_directory,
                              "Failed to read mock data directory",
                              fmt::format("Mock data directory {} does not exist or cannot be read.", *p.source),
                              Origin{tf.decoded->source, p.def_range.start});
                    continue;
                }
                loaded.insert(dir);
            }
        }
    }

    // Reads, decodes and combines the mock data files of `dir`; false when
    // the directory cannot be read or lies outside the root.
    bool load_mock_data_directory(const std::string& dir) {
        OpenDirectory handle;
        if (!handle.open(under_root(dir))) return false;
        std::vector<DirectoryEntry> entries;
        if (!handle.list(entries)) return false;
        const std::optional<std::string> where = handle.real_path();
        if (leaves_root(where, options_.read_policy)) return false;
        std::vector<std::string> names;
        file_names(entries, names);
        DirectoryFileReader reader(handle, options_.read_policy, where);
        std::vector<const MockDataFile*> files;
        for (const auto& f : select_mock_data_files(std::move(names))) {
            auto parsed = read_side_file(reader, dir, f, "mock data");
            if (!parsed) continue;
            Diagnostics diags;
            auto decoded = std::make_shared<const MockDataFile>(decode_mock_data_file(*parsed, diags));
            for (auto& d : diags) keep(LoadDiagnostic{std::move(d), LoadPhase::load, parsed->source});
            files.push_back(decoded.get());
            out_.mock_data_files.push_back(
                LoadedMockDataFile{std::move(parsed), std::move(decoded), file_path(dir, f.name)});
        }
        for (auto& p : merge_mock_data_files(files)) {
            tree_diag(p.severity, p.code, std::move(p.summary), std::move(p.detail), p.at);
        }
        return true;
    }

    // The root module's query files (Terraform v1.14) and state migration
    // files (v1.16), read from its directory as `terraform query` and
    // `terraform state migrate` read them, from one listing of it.
    void load_side_files(const LoadedModule& root) {
        if (options_.engine != Engine::terraform) return;
        std::vector<std::string> names;
        std::optional<std::string> where;
        const bool listed = listing_of(".", names, where) != nullptr;
        if (listed && select_query_files(names, options_.engine).empty() &&
            select_migration_files(names, options_.engine).empty()) {
            return;
        }
        OpenDirectory handle;
        if (!open_side_directory(".", listed, handle, names, where)) return;
        DirectoryFileReader reader(handle, options_.read_policy, where);
        load_queries(root, reader, names);
        load_migrations(reader, std::move(names));
    }

    // The query files, decoded on their own and then checked against the
    // merged module they belong to.
    void load_queries(const LoadedModule& root, DirectoryFileReader& reader, const std::vector<std::string>& names) {
        std::vector<const QueryFile*> files;
        for (const auto& f : select_query_files(names, options_.engine)) {
            if (options_.exclude_file && options_.exclude_file(f.name)) continue;
            auto parsed = read_side_file(reader, ".", f, "query");
            if (!parsed) continue;
            Diagnostics diags;
            auto decoded = std::make_shared<const QueryFile>(decode_query_file(*parsed, diags));
            for (auto& d : diags) keep(LoadDiagnostic{std::move(d), LoadPhase::load, parsed->source});
            files.push_back(decoded.get());
            out_.query_files.push_back(LoadedQueryFile{std::move(parsed), std::move(decoded), f.name});
        }
        if (files.empty()) return;
        for (auto& p : check_query_files(files, *root.module)) {
            tree_diag(p.severity, p.code, std::move(p.summary), std::move(p.detail), p.at);
        }
    }

    // The state migration files, each decoded on its own, then combined.
    // As in Terraform, an error in any of them (a syntax error included)
    // leaves the combination unchecked: it would report the same mistake
    // again. Unlike Terraform, errors in the module's configuration files do
    // not: they have nothing to do with the migration files.
    void load_migrations(DirectoryFileReader& reader, std::vector<std::string> names) {
        std::vector<const MigrationFile*> files;
        bool errors = false;
        for (const auto& f : select_migration_files(std::move(names), options_.engine)) {
            if (options_.exclude_file && options_.exclude_file(f.name)) continue;
            auto parsed = read_side_file(reader, ".", f, "state migration");
            if (!parsed) {
                errors = true;
                continue;
            }
            Diagnostics diags;
            auto decoded = std::make_shared<const MigrationFile>(decode_migration_file(*parsed, diags));
            errors = errors || parsed->has_parse_errors() || has_errors(diags);
            for (auto& d : diags) keep(LoadDiagnostic{std::move(d), LoadPhase::load, parsed->source});
            files.push_back(decoded.get());
            out_.migration_files.push_back(LoadedMigrationFile{std::move(parsed), std::move(decoded), f.name});
        }
        if (files.empty() || errors) return;
        for (auto& p : check_migration_files(files)) {
            tree_diag(p.severity, p.code, std::move(p.summary), std::move(p.detail), p.at);
        }
    }

    // Counts a test, query, mock data or state migration file read (null:
    // not read) with the configuration files the loaders read
    // (config/load_counters.hpp), since they are linted too.
    static void count_read(const std::shared_ptr<const SourceFile>& src) {
        if (!src) return;
        LoadCounters& counters = load_counters();
        counters.files_read.fetch_add(1, std::memory_order_relaxed);
        counters.bytes_read.fetch_add(src->text().size(), std::memory_order_relaxed);
    }

    // Reads and parses the file `f` of `dir` (open in `reader`), a file of
    // the module that is not configuration (`what`: "query", "mock data",
    // "state migration"),
    // keeping it and its parse diagnostics in the tree; null, with a
    // diagnostic, when it cannot be read.
    std::shared_ptr<ParsedFile> read_side_file(DirectoryFileReader& reader, const std::string& dir,
                                               const ConfigFileName& f, std::string_view what) {
        const std::string rel = file_path(dir, f.name);
        const std::string shown = rel.starts_with("/") ? rel : options_.source_name_prefix + rel;
        FileContent failure;
        std::shared_ptr<const SourceFile> src = reader.read(f.name, under_root(rel), failure, shown);
        count_read(src);
        if (!src) {
            Diagnostic d = failed_to_read(
                shown, fmt::format("The {} file \"{}\" could not be read: {}", what, rel, failure.message));
            out_.read_failures.push_back(failure.message);
            out_.diagnostics.push_back(LoadDiagnostic{std::move(d), LoadPhase::parse, nullptr});
            return nullptr;
        }
        std::shared_ptr<ParsedFile> parsed = parse_config_file(src, f.syntax);
        for (const auto& d : parsed->parse_diagnostics) keep(LoadDiagnostic{d, LoadPhase::parse, src});
        sources_.emplace(src.get(), src);
        out_.files.push_back(parsed);
        return parsed;
    }

    // After loading: one diagnostic for each file and kind that went over
    // the limit, saying how many were left out.
    void report_left_out() {
        for (auto& [key, over] : left_out_) {
            if (over.count == 0) continue;
            LoadDiagnostic d = std::move(over.first);
            d.diagnostic.detail = fmt::format(
                "{} more \"{}\" diagnostic{} in this file {} not shown: tfsift reports at most {} of one kind per file.",
                over.count, key.second, over.count == 1 ? "" : "s", over.count == 1 ? "is" : "are",
                max_diagnostics_per_kind);
            d.diagnostic.code = code::too_many_diagnostics;
            d.diagnostic.summary = "Too many diagnostics";
            d.diagnostic.context.reset();
            out_.diagnostics.push_back(std::move(d));
        }
    }

private:
    // The name prefix of the files of the module in `dir`: the root's prefix
    // and `dir`, but for a directory above the root named through it
    // ("env/prod/../../modules/vpc/") the lexically normal form
    // ("modules/vpc/") when that is the same directory, so that every caller
    // names the module's files alike and can share them. `where` is the
    // real path of `dir`.
    [[nodiscard]] std::string names_prefix(const std::string& dir, const std::string& where) const {
        // A directory a resolver placed outside the root (a cache entry) is
        // named by its absolute path.
        if (!dir.empty() && dir.front() == '/') return dir + "/";
        std::string raw = dir == "." ? options_.source_name_prefix : options_.source_name_prefix + dir + "/";
        if (options_.source_name_prefix.empty() || !(dir == ".." || dir.starts_with("../"))) return raw;
        // Go's path.Clean gives lexically_normal's answer here (a relative
        // path, its trailing slash dropped) without a path object.
        std::string out = clean_path(options_.source_name_prefix + dir);
        const std::string name = out.empty() ? std::string(".") : out;
        auto named = ScanRealPaths::instance().find(options_.scan_id, name);
        if (!named) {
            named = resolved_real_path(name);
            if (named) ScanRealPaths::instance().add(options_.scan_id, name, *named);
        }
        if (!named || where != *named) return raw;
        return out.empty() || out == "." ? std::string() : out + "/";
    }

    // The key a directory is shared under: everything that decides what
    // loading it gives, one per line (asked for every module of every tree,
    // so joined by hand rather than formatted).
    [[nodiscard]] std::string sharing_key(const std::string& where, const std::string& prefix,
                                          const ReadPolicy& policy) const {
        const std::string_view engine = to_string(options_.engine);
        const std::string max_size = std::to_string(policy.max_size);
        std::string key;
        key.reserve(where.size() + prefix.size() + engine.size() + policy.root.size() + max_size.size() + 10);
        key.append(where).append(1, '\n').append(prefix).append(1, '\n').append(engine).append(1, '\n');
        key.append(policy.root).append(1, '\n').append(policy.follow_external ? "true" : "false").append(1, '\n');
        key.append(max_size);
        return key;
    }

public:
    // What can be known of the module directory `dir` before loading it;
    // false when it cannot be read as a directory. A directory loaded and
    // found unchanged earlier in the scan is taken without opening or
    // listing it again.
    // `policy`: how the directory's files are read (policy_for).
    bool look_at(const std::string& dir, DirectoryLook& look, const ReadPolicy& policy) {
        look.policy = policy;
        look.opened = under_root(dir);
        look.where = ScanRealPaths::instance().find(options_.scan_id, look.opened);
        if (!look.where && options_.listings != nullptr) {
            // A directory the scan listed: its real path without asking.
            const std::string cwd = look.opened.starts_with('/') ? std::string() : working_directory();
            look.where = options_.listings->real_path_of(cwd.empty() ? look.opened : cwd + "/" + look.opened);
            if (look.where) ScanRealPaths::instance().add(options_.scan_id, look.opened, *look.where);
        }
        if (!look.where) {
            if (!look.handle.open(look.opened)) return false;
            look.where = look.handle.real_path();
            if (!look.where) look.where = resolved_real_path(look.opened);
            if (!look.where) return false;
            ScanRealPaths::instance().add(options_.scan_id, look.opened, *look.where);
        }
        look.prefix = names_prefix(dir, *look.where);
        if (!options_.exclude_file && !overlays_directory(policy, *look.where)) {
            look.key = sharing_key(*look.where, look.prefix, policy);
            if (options_.scan_id != 0) {
                auto found = DirectoryRegistry::instance().find(look.key);
                if (found && found->checked_in_scan.load(std::memory_order_relaxed) == options_.scan_id) {
                    look.checked = std::move(found);
                    return true;
                }
            }
        }
        if (!look.handle.is_open() && !look.handle.open(look.opened)) return false;
        if (ScanListings::Entries listed = options_.listings ? options_.listings->find(*look.where) : nullptr) {
            file_names(*listed, look.names);
        } else {
            std::vector<DirectoryEntry> entries;
            if (!look.handle.list(entries)) return false;
            file_names(entries, look.names);
        }
        // An editor's buffers for files not saved yet belong to the module too.
        for (auto& name : overlaid_names(policy, *look.where)) {
            if (std::find(look.names.begin(), look.names.end(), name) == look.names.end()) {
                look.names.push_back(std::move(name));
            }
        }
        return true;
    }

private:
    // The module directory `dir`: shared when a tree of this process holds
    // it loaded from the same place, under the same file names and options,
    // and its files are unchanged; loaded otherwise. Directories with
    // unreadable files or excludes are loaded for each tree.
    std::shared_ptr<LoadedDirectory> directory_for(const std::string& dir, DirectoryLook& look) {
        if (look.checked) {
            load_counters().modules_reused.fetch_add(1, std::memory_order_relaxed);
            return look.checked;
        }
        auto selected = select_config_files(std::move(look.names), options_.engine);
        const std::string& prefix = look.prefix;
        if (look.key.empty()) return load_directory(dir, look.handle, look.where, look.policy, selected, prefix);
        std::vector<std::string> selected_names;
        selected_names.reserve(selected.size());
        for (const auto& f : selected) selected_names.push_back(f.name);
        const std::string& key = look.key;
        auto& registry = DirectoryRegistry::instance();
        bool claimed = false;
        const std::shared_ptr<LoadedDirectory> found = registry.find_or_claim(key, claimed);
        const DirectoryRegistry::Claim claim(registry, key, claimed);
        if (found && found->selected == selected_names) {
            const std::uint64_t scan = options_.scan_id;
            bool unchanged = scan != 0 && found->checked_in_scan.load(std::memory_order_relaxed) == scan;
            if (!unchanged) {
                auto stamps = stamps_of(look.handle, selected_names);
                unchanged = stamps && *stamps == found->stamps;
                if (unchanged && scan != 0) found->checked_in_scan.store(scan, std::memory_order_relaxed);
            }
            if (unchanged) {
                load_counters().modules_reused.fetch_add(1, std::memory_order_relaxed);
                return found;
            }
        }
        auto loaded = load_directory(dir, look.handle, look.where, look.policy, selected, prefix);
        if (!loaded->read_failures.empty() || loaded->parsed.size() != selected_names.size() ||
            loaded->stamps.size() != selected_names.size()) {
            return loaded;
        }
        loaded->selected = std::move(selected_names);
        loaded->checked_in_scan.store(options_.scan_id, std::memory_order_relaxed);
        registry.add(key, loaded);
        if (options_.cache) options_.cache->keep_directory(*look.where, key, loaded);
        return loaded;
    }

    // Reads, parses and decodes the `selected` files of `dir` (open as
    // `handle`, its real path `where`) and merges them, naming each file
    // `prefix` + its name. The stamps are those of the files read, as long
    // as every one had one.
    std::shared_ptr<LoadedDirectory> load_directory(const std::string& dir, const OpenDirectory& handle,
                                                    const std::optional<std::string>& where, const ReadPolicy& policy,
                                                    const std::vector<ConfigFileName>& selected,
                                                    const std::string& prefix) {
        auto out = std::make_shared<LoadedDirectory>();
        LoadCounters& counters = load_counters();
        counters.modules_loaded.fetch_add(1, std::memory_order_relaxed);
        std::map<const SourceFile*, std::shared_ptr<const SourceFile>> sources;
        std::map<std::string, std::shared_ptr<const SourceFile>, std::less<>> sources_by_path;
        DirectoryFileReader reader(handle, policy, where);
        bool stamped = true;
        for (const auto& f : selected) {
            std::string rel = file_path(dir, f.name);
            if (options_.exclude_file && !rel.starts_with("/") && options_.exclude_file(rel)) continue;
            FileContent failure;
            auto started = Clock::now();
            std::optional<FileStamp> stamp;
            std::shared_ptr<const SourceFile> src =
                reader.read(f.name, under_root(rel), failure, prefix + f.name, &stamp);
            if (src && stamp && stamped) {
                out->stamps.push_back(*stamp);
            } else {
                stamped = false;
            }
            counters.read_ns.fetch_add(nanoseconds_since(started), std::memory_order_relaxed);
            counters.files_read.fetch_add(1, std::memory_order_relaxed);
            if (!src) {
                Diagnostic d = failed_to_read(
                    prefix + f.name,
                    fmt::format("The configuration file \"{}\" could not be read: {}", rel, failure.message));
                out->read_failures.push_back(failure.message);
                out->diagnostics.emplace_back(LoadDiagnostic{std::move(d), LoadPhase::parse, nullptr}, false);
                continue;
            }
            counters.bytes_read.fetch_add(src->text().size(), std::memory_order_relaxed);
            const std::shared_ptr<const CachedFile> file = parse_and_decode(rel, f, src);
            src = file->parsed->source;  // a cached parse points into its own copy of the same text
            for (const auto& d : file->parsed->parse_diagnostics) {
                out->diagnostics.emplace_back(LoadDiagnostic{d, LoadPhase::parse, src}, true);
            }
            for (const auto& d : file->decode_diagnostics)
                out->diagnostics.emplace_back(LoadDiagnostic{d, LoadPhase::load, src}, true);
            for (const auto& left : file->decode_left_out) {
                out->diagnostics.emplace_back(LoadDiagnostic{left.first, LoadPhase::load, src}, true, left.count);
            }
            out->names.push_back(f.name);
            out->is_override.push_back(f.role == FileRole::override);
            out->decoded.push_back(file->decoded);
            sources[src.get()] = src;
            sources_by_path.emplace(src->path(), src);
            out->parsed.push_back(file->parsed);
        }
        if (policy.budget && !out->decoded.empty() && policy.budget->memory_passed()) {
            // Merging copies what the files decoded into, and the rules
            // that follow cost as much again: past the budget of memory
            // the directory's files are let go, each reported as a file
            // that was not loaded.
            const std::string why = memory_budget_reached(*policy.budget);
            for (const auto& name : out->names) {
                const std::string rel = file_path(dir, name);
                const std::string named = under_root(rel);
                Diagnostic d = failed_to_read(
                    prefix + name, fmt::format("The configuration file \"{}\" could not be loaded: {}", rel, why));
                out->read_failures.push_back(fmt::format("{}: not loaded: {}", named, why));
                out->diagnostics.emplace_back(LoadDiagnostic{std::move(d), LoadPhase::parse, nullptr}, false);
            }
            std::erase_if(out->diagnostics,
                          [](const DirectoryDiagnostic& d) { return d.diagnostic.source != nullptr; });
            out->names.clear();
            out->is_override.clear();
            out->decoded.clear();
            out->parsed.clear();
            out->stamps.clear();
            return out;
        }
        const auto started = Clock::now();
        OverrideMerger merger;
        for (std::size_t i = 0; i < out->decoded.size(); ++i) {
            if (!out->is_override[i]) merger.add_primary(*out->decoded[i]);
        }
        for (std::size_t i = 0; i < out->decoded.size(); ++i) {
            if (out->is_override[i]) merger.apply_override(*out->decoded[i]);
        }
        out->module = merger.finish();
        for (const auto& d : merger.diagnostics()) {
            auto it = sources_by_path.find(d.filename);
            out->diagnostics.emplace_back(
                LoadDiagnostic{d, LoadPhase::load, it == sources_by_path.end() ? nullptr : it->second}, true);
        }
        for (auto& p : check_module(out->module, options_.engine)) {
            out->diagnostics.emplace_back(
                tree_diagnostic(p.severity, p.code, std::move(p.summary), std::move(p.detail), p.at, sources), true);
        }
        counters.merge_ns.fetch_add(nanoseconds_since(started), std::memory_order_relaxed);
        return out;
    }

    // Parses and decodes the file `rel` read as `src`, or takes both from
    // TreeOptions::cache when it holds them for this very text.
    std::shared_ptr<const CachedFile> parse_and_decode(const std::string& rel, const ConfigFileName& f,
                                                       const std::shared_ptr<const SourceFile>& src) {
        std::string path;
        std::string variant;
        if (options_.cache) {
            std::error_code ec;
            path = fs::absolute(fs::path(root_dir_) / rel, ec).lexically_normal().string();
            variant = fmt::format("{}\n{}\n{}\n{}", src->path(), f.syntax == FileSyntax::json ? "json" : "native",
                                  f.role == FileRole::override, to_string(options_.engine));
            if (auto hit = options_.cache->find(path, variant, src->text())) return hit;
        }
        LoadCounters& counters = load_counters();
        auto out = std::make_shared<CachedFile>();
        auto started = Clock::now();
        std::shared_ptr<ParsedFile> parsed = parse_config_file(src, f.syntax);
        counters.parse_ns.fetch_add(nanoseconds_since(started), std::memory_order_relaxed);
        started = Clock::now();
        out->decoded = std::make_shared<const ConfigFile>(decode_config_file(
            *parsed, f.role == FileRole::override, out->decode_diagnostics, options_.engine, &out->decode_left_out));
        counters.decode_ns.fetch_add(nanoseconds_since(started), std::memory_order_relaxed);
        out->parsed = std::move(parsed);
        if (options_.cache) options_.cache->store(path, variant, out);
        return out;
    }

    // Whether a module directory whose real path is `where` (nullopt: it
    // cannot be resolved) lies outside the root it must stay in.
    [[nodiscard]] static bool leaves_root(const std::optional<std::string>& where, const ReadPolicy& policy) {
        if (policy.root.empty() || policy.follow_external) return false;
        return !where || !real_path_inside(*where, policy.root);
    }

    // How the files of a module are read: under the tree's policy, except
    // for a package a resolver placed outside the repository (a cache
    // entry), whose files must stay inside the package instead.
    const ReadPolicy& policy_for(const std::optional<ResolvedModule>& remote) {
        if (!remote || remote->provenance == ModuleProvenance::installed) return options_.read_policy;
        auto [it, added] = package_policies_.try_emplace(remote->package_dir);
        if (added) {
            it->second = options_.read_policy;
            it->second.follow_external = false;
            const std::string top = under_root(remote->package_dir);
            it->second.root = resolved_real_path(top).value_or(absolute_normal_path(top));
        }
        return it->second;
    }

    // Whether the module directory `dir` lies in the package `package`
    // (both named the loader's way: relative to the root, or absolute).
    static bool inside_package(const std::string& dir, const std::string& package) {
        if (package.empty() || package == ".") return !(dir == ".." || dir.starts_with("../"));
        return dir == package || (dir.starts_with(package) && dir[package.size()] == '/');
    }

    // What the resolver is asked for the call `call` of the module in
    // `caller_dir`, whose address will be `address`.
    ModuleRequest request_for(const ModuleCall& call, const std::string& caller_dir, const std::string& address) const {
        ModuleRequest r;
        r.root_dir = root_dir_;
        r.caller_dir = caller_dir;
        // "module.a.module.b": the names are every other step.
        std::size_t start = 0;
        bool name = false;
        while (start <= address.size()) {
            std::size_t dot = address.find('.', start);
            if (dot == std::string::npos) dot = address.size();
            if (name) r.path.push_back(address.substr(start, dot - start));
            name = !name;
            start = dot + 1;
        }
        r.source = call.source->as_written;
        // The decoded constraint is its comma-separated pieces.
        if (call.version_constraints) {
            const auto& pieces = call.version_constraints->value;
            if (pieces.is_string()) r.version = pieces.get<std::string>();
            if (pieces.is_array()) {
                for (const auto& piece : pieces) {
                    if (!piece.is_string()) continue;
                    if (!r.version.empty()) r.version += ", ";
                    r.version += piece.get<std::string>();
                }
            }
            r.version_origin = call.version_constraints->origin;
        }
        r.parsed = parse_module_source(r.source, !r.version.empty());
        if (!r.parsed.error.empty() || r.parsed.normalized.empty()) {
            r.parsed.normalized = *call.source->value;
        }
        r.source_origin = call.source->origin;
        return r;
    }

    // The static scope of the module of `f`: its caller's arguments, or for
    // the root module its variable files.
    const StaticScope& static_scope(StaticFrame& f) {
        if (f.scope) return *f.scope;
        StaticScope scope;
        scope.module = f.module->module.get();
        scope.engine = options_.engine;
        scope.module_path = f.module->dir;
        scope.is_root = f.caller == nullptr;
        scope.given = f.caller == nullptr ? root_variable_values(*scope.module)
                                          : static_arguments(*f.call, static_scope(*f.caller));
        f.scope = std::move(scope);
        return *f.scope;
    }

    // The values the root module's variables get while `init` installs its
    // modules, in the order it reads them (config/root_variables.hpp).
    StaticInputs root_variable_values(const Module& module) {
        StaticInputs out;
        auto assign = [&](const std::string& name, std::string_view text, const std::string& shown) {
            const auto declared = module.variables.find(name);
            // A value for an undeclared variable is not the loader's to report.
            if (declared != module.variables.end()) {
                out.insert_or_assign(name, variable_value_from_text(text, declared->second, shown));
            }
        };
        for (const auto& [name, value] : options_.root_variables.environment) {
            assign(name, value, "the environment variable TF_VAR_" + name);
        }
        OpenDirectory handle;
        std::vector<DirectoryEntry> entries;
        if (handle.open(under_root(".")) && handle.list(entries)) {
            std::vector<std::string> names;
            file_names(entries, names);
            // terraform.tfvars, terraform.tfvars.json, then the automatic
            // files of both syntaxes in lexical order.
            std::vector<std::string> files;
            for (const auto& name : names) {
                bool json = false;
                if (is_automatic_variable_file(name, json) && name != "terraform.tfvars" &&
                    name != "terraform.tfvars.json") {
                    files.push_back(name);
                }
            }
            std::sort(files.begin(), files.end());
            for (const char* own : {"terraform.tfvars.json", "terraform.tfvars"}) {
                if (std::find(names.begin(), names.end(), own) != names.end()) files.insert(files.begin(), own);
            }
            DirectoryFileReader reader(handle, options_.read_policy, handle.real_path());
            for (const auto& name : files) {
                bool json = false;
                (void)is_automatic_variable_file(name, json);
                FileContent failure;
                if (auto src = reader.read(name, under_root(name), failure, options_.source_name_prefix + name)) {
                    read_variable_file(src, json, name, out);
                }
            }
        }
        ReadPolicy policy = options_.read_policy;
        policy.root.clear();  // named by the user: it may lie anywhere
        for (const auto& given : options_.root_variables.command_line) {
            if (given.kind == RootVariableInput::Kind::file) {
                FileContent failure;
                if (auto src = read_source_file(given.text, policy, failure)) {
                    read_variable_file(src, given.text.ends_with(".json"), given.text, out);
                }
            } else if (const std::size_t eq = given.text.find('='); eq != std::string::npos) {
                const std::string name = given.text.substr(0, eq);
                assign(name, std::string_view(given.text).substr(eq + 1), "-var " + name);
            }
        }
        return out;
    }

    // `written` with its source and version worked out in the module's
    // static scope, or nullopt when the call cannot be followed: a source
    // not known before planning gets one "Module not loaded" notice (for the
    // root module's calls, as for calls no resolver has), unless the engine
    // refuses what it uses, which check_module reports as an error.
    std::optional<ModuleCall> evaluate_call(const std::string& name, const ModuleCall& written, StaticFrame& frame,
                                            const std::string& address) {
        const StaticScope& scope = static_scope(frame);
        ModuleCall call = written;
        std::optional<std::string> version;
        bool has_version = written.version_constraints.has_value();
        if (written.dynamic_version) {
            StaticResult v = evaluate_static(written.dynamic_version->expr, scope);
            if (!v.value) {
                if (!v.refused)
                    unknown_setting(name, written.dynamic_version->expr, "version", v.unknown_because, address);
                return std::nullopt;
            }
            auto text = cty::convert(*v.value, cty::Type::string());
            if (!text.ok()) return std::nullopt;  // not a string: nothing to install
            if (!text.value.is_null()) {
                version = text.value.as_string();
                call.version_constraints = DecodedValue{*version, written.dynamic_version->expr.origin()};
                has_version = true;
            } else if (options_.engine == Engine::terraform) {
                has_version = true;  // Terraform: a written `version` makes a registry address
            }
        }
        if (written.dynamic_source) {
            const Expression& e = written.dynamic_source->expr;
            StaticResult v = evaluate_static(e, scope);
            if (!v.value) {
                if (!v.refused) unknown_setting(name, e, "source", v.unknown_because, address);
                return std::nullopt;
            }
            auto text = cty::convert(*v.value, cty::Type::string());
            if (!text.ok() || text.value.is_null()) return std::nullopt;
            ModuleSource src;
            src.as_written = text.value.as_string();
            src.origin = e.origin();
            auto parsed = parse_module_source(src.as_written, has_version);
            if (!parsed.error.empty()) {
                // Reported with the root module's calls only, as unknown
                // sources are: a called module's calls may take other values
                // from other callers.
                if (!address.empty()) return std::nullopt;
                tree_diag(
                    Severity::error,
                    has_version && !parsed.maybe_relative ? code::invalid_registry_module_source_address
                                                          : code::invalid_module_source_address,
                    has_version && !parsed.maybe_relative ? "Invalid registry module source address"
                                                          : "Invalid module source address",
                    fmt::format("The source of module.{} evaluates to \"{}\": {}.", name, src.as_written, parsed.error),
                    e.origin());
                return std::nullopt;
            }
            src.value = parsed.normalized;
            call.source = std::move(src);
            call.dynamic_source.reset();
        }
        call.dynamic_version.reset();
        return call;
    }

    void unknown_setting(const std::string& name, const Expression& e, std::string_view what,
                         const std::string& because, const std::string& address) {
        if (!address.empty()) return;  // said when the module that makes the call is linted as a root
        tree_diag(Severity::notice, code::module_not_loaded, "Module not loaded",
                  fmt::format("module.{} is not loaded: its {} ({}) cannot be known before planning, because {}. "
                              "Until it is, these checks are incomplete: the call's arguments and the providers it "
                              "passes, references to module.{} outputs, the module's required_version and the "
                              "providers it requires (lock rules).",
                              name, what, e.text(), because, name),
                  e.origin());
    }

    // A call no resolver had a directory for: listed in the tree, and when
    // the root module makes it, one notice on its `source` naming what it
    // leaves unchecked and how to fetch it (an error when fetching failed).
    void not_loaded(const ModuleRequest& request, const ModuleUnavailable& why, const ModuleCall& call,
                    bool in_remote_module) {
        const std::string address = request.address();
        std::string reason = why.reason;
        if (reason.empty()) {
            reason = why.kind == ModuleUnavailableKind::not_fetched
                         ? "It is neither installed in .terraform/modules nor in the module cache, and this command "
                           "does not use the network."
                         : "It is neither installed in .terraform/modules nor in the module cache.";
        }
        std::string how;
        switch (why.kind) {
            case ModuleUnavailableKind::not_found:
            case ModuleUnavailableKind::not_fetched: how = "`tfsift fetch` (or `terraform init`) fetches it."; break;
            case ModuleUnavailableKind::unsupported:
                how = "tfsift does not fetch this kind of source; `terraform init` installs it.";
                break;
            case ModuleUnavailableKind::failed: break;
        }
        const std::string name = request.path.empty() ? std::string() : request.path.back();
        std::string detail = fmt::format(
            "{} (\"{}\") is not loaded. {} Until it is, these checks are incomplete: the call's arguments and the "
            "providers it passes, references to module.{} outputs, the module's required_version and the "
            "providers it requires (lock rules).",
            address, request.source, reason, name);
        if (!how.empty()) detail += " " + how;
        const Severity severity = why.kind == ModuleUnavailableKind::failed ? Severity::error : Severity::notice;
        out_.unavailable_calls.push_back(
            UnavailableCall{address, request.source, why, call.source->origin, in_remote_module});
        // Only for the root module's own calls: a module it calls says the
        // same of its calls when it is loaded as a root itself, which keeps
        // the answer the same in every scope (whether a call is installed
        // depends on the root that was initialised).
        if (request.path.size() != 1) return;
        tree_diag(severity, code::module_not_loaded, "Module not loaded", std::move(detail), call.source->origin);
    }

    // Keeps a diagnostic unless its file already has the most diagnostics of
    // its kind (summary) that are reported; those are counted instead, so
    // that a hostile or broken file costs bounded time in every later stage.
    void keep(LoadDiagnostic d) {
        auto key = std::make_pair(d.diagnostic.filename, d.diagnostic.summary);
        auto& over = left_out_[std::move(key)];
        if (over.kept < max_diagnostics_per_kind) {
            ++over.kept;
            out_.diagnostics.push_back(std::move(d));
            return;
        }
        if (over.count++ == 0) over.first = std::move(d);
    }

    // Counts `count` diagnostics of the kind of `first` (the first of them)
    // that decoding left out, as keep would have: they came after the
    // max_diagnostics_per_kind of their kind that decoding kept, so none of
    // them is reported.
    void count_left_out(const LoadDiagnostic& first, std::size_t count) {
        auto& over = left_out_[std::make_pair(first.diagnostic.filename, first.diagnostic.summary)];
        if (over.count == 0) over.first = first;
        over.count += count;
    }

    // The provider address a local name stands for in a module.
    static std::string provider_fqn(const Module& m, std::string_view local) {
        auto it = m.terraform.required_providers.find(std::string(local));
        if (it != m.terraform.required_providers.end() && it->second.source) return *it->second.source;
        return default_provider_source(local);
    }

    static std::string display_fqn(const std::string& fqn) {
        constexpr std::string_view registry = "registry.terraform.io/";
        return fqn.starts_with(registry) ? fqn.substr(registry.size()) : fqn;
    }

    // Terraform's validateProviderConfigs for one call: configurations the
    // child requires, configurations it cannot accept, and type mismatches.
    void check_provider_passing(const LoadedModule& parent, const ModuleCall& call, const LoadedModule& child) {
        const Module& cm = *child.module;
        const std::string parent_name = parent.address.empty() ? "the root module" : parent.address;
        auto own_block = [&](const std::string& key) -> const Provider* {
            auto it = cm.providers.find(key);
            return it == cm.providers.end() ? nullptr : &it->second;
        };
        // configuration_aliases entries ("aws.east") with the provider they stand for.
        std::map<std::string, std::string> alias_sources;
        for (const auto& [local, req] : cm.terraform.required_providers) {
            for (const auto& alias : req.configuration_aliases) {
                alias_sources.emplace(alias, req.source.value_or(default_provider_source(local)));
            }
        }
        std::set<std::string> passed;
        for (const auto& p : call.providers) passed.insert(p.child_key);
        for (const auto& [alias, source] : alias_sources) {
            // A configuration the child module writes itself needs nothing
            // from the caller.
            const Provider* own = own_block(alias);
            if (passed.count(alias) != 0 || (own != nullptr && own->configures())) continue;
            tree_diag(Severity::error, code::missing_required_provider_configuration,
                      "Missing required provider configuration",
                      fmt::format("The child module requires an additional configuration for provider {}, with "
                                  "the local name \"{}\".",
                                  display_fqn(source), alias),
                      call.origin);
        }
        for (const auto& p : call.providers) {
            const std::string child_local = p.child_key.substr(0, p.child_key.find('.'));
            const std::string parent_local = p.parent_key.substr(0, p.parent_key.find('.'));
            const Provider* own = own_block(p.child_key);
            if (own != nullptr && own->configures()) {
                tree_diag(Severity::error, code::cannot_override_provider_configuration,
                          "Cannot override provider configuration",
                          fmt::format("The configuration of {} has its own local configuration for {}, and so it "
                                      "cannot accept an overridden configuration provided by the {}.",
                                      child.address, p.child_key, parent_name),
                          p.origin);
            }
            // What the child calls the passed configuration: a local name
            // of its required_providers, one of its configuration_aliases,
            // or the name of an empty proxy block.
            auto req = cm.terraform.required_providers.find(child_local);
            auto alias = alias_sources.find(p.child_key);
            const bool declared = req != cm.terraform.required_providers.end() || alias != alias_sources.end();
            if (!declared && own == nullptr) {
                std::string fqn = display_fqn(default_provider_source(child_local));
                tree_diag(Severity::warning, code::reference_to_undefined_provider, "Reference to undefined provider",
                          fmt::format("There is no explicit declaration for local provider name \"{}\" in {}, so "
                                      "Terraform is assuming you mean to pass a configuration for \"{}\".\n\nIf you "
                                      "also control the child module, add a required_providers entry named \"{}\" "
                                      "with the source address \"{}\".",
                                      child_local, child.address, fqn, child_local, fqn),
                          p.origin);
                continue;
            }
            if (p.parent_keyed) {
                // An instance of a provider configuration with for_each; when
                // there is no such configuration, check_module said so.
                auto conf = parent.module->providers.find(p.parent_key);
                if (conf == parent.module->providers.end() || !conf->second.for_each) continue;
            }
            const std::string child_fqn = alias != alias_sources.end() ? alias->second : provider_fqn(cm, child_local);
            const std::string parent_fqn = provider_fqn(*parent.module, parent_local);
            if (child_fqn != parent_fqn) {
                tree_diag(Severity::error, code::provider_type_mismatch, "Provider type mismatch",
                          fmt::format("The local name \"{}\" in {} represents provider \"{}\", but \"{}\" in {} "
                                      "represents \"{}\".",
                                      parent_local, parent_name, display_fqn(parent_fqn), child_local, child.address,
                                      display_fqn(child_fqn)),
                          p.parent_origin);
            }
        }
    }

    static LoadDiagnostic tree_diagnostic(
        Severity sev, std::string_view code, std::string summary, std::string detail, const Origin& at,
        const std::map<const SourceFile*, std::shared_ptr<const SourceFile>>& sources) {
        std::shared_ptr<const SourceFile> src;
        if (at.file) {
            auto it = sources.find(at.file);
            if (it != sources.end()) src = it->second;
        }
        return config::tree_diagnostic(ModuleProblem{sev, code, std::move(summary), std::move(detail), at},
                                       std::move(src));
    }

    void tree_diag(Severity sev, std::string_view code, std::string summary, std::string detail, const Origin& at) {
        keep(tree_diagnostic(sev, code, std::move(summary), std::move(detail), at, sources_));
    }

    std::string root_dir_;
    TreeOptions options_;
    LoadedTree& out_;
    std::map<std::string, ReadPolicy> package_policies_;  // by package directory
    std::map<const SourceFile*, std::shared_ptr<const SourceFile>> sources_;
    std::size_t modules_loaded_ = 1;  // the root
    bool warned_too_many_ = false;
    struct LeftOut {
        std::size_t kept = 0;   // reported so far
        std::size_t count = 0;  // left out
        LoadDiagnostic first;   // the first one left out: where the summary points
    };
    std::map<std::pair<std::string, std::string>, LeftOut> left_out_;  // by (file, summary)
};

}  // namespace

std::uint64_t new_scan_id() {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

LoadedTree load_module_tree(const std::string& root_dir, const TreeOptions& options) {
    LoadedTree out;
    out.read_policy = options.read_policy;
    // Lock and state files are read under the tree's policy; the budget is
    // for configuration files.
    out.read_policy.budget.reset();
    TreeLoader loader(root_dir, options, out);
    // A root that cannot be read as a directory gives an empty tree. Out of
    // memory is not "cannot read": opening throws it.
    DirectoryLook look;
    if (!loader.look_at(".", look, options.read_policy)) return LoadedTree{};
    out.root = std::make_unique<LoadedModule>();
    std::vector<std::string> ancestors{look.where.value_or(".")};  // real paths
    loader.load(*out.root, ".", "", 0, ancestors, &look);
    loader.load_tests(*out.root);
    loader.load_side_files(*out.root);
    loader.report_left_out();
    out.source_index.reserve(out.files.size());
    for (std::size_t i = 0; i < out.files.size(); ++i) out.source_index.emplace(out.files[i]->source.get(), i);
    return out;
}

}  // namespace tfsift::config
