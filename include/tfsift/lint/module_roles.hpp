// Whether a module is a root module or a shared (called) one, decided for
// the whole repository rather than for what one run happens to scan: the
// same file gets the same findings from `lint -r .`, from `lint DIR` and from
// a pre-commit hook that passes single files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "tfsift/directory_listing.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/directory_probe.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

// The local module calls (`source = "./x"` or `"../x"`) of every module in a
// repository.
struct RepositoryModuleCalls {
    std::string root;              // the repository root, absolute
    std::set<std::string> called;  // absolute, lexically normal directories some module calls
    std::size_t files_read = 0;    // configuration files that mention a module and were decoded
};

// Reads every configuration file below `repository_root` (hidden directories
// such as .git and .terraform and symlinked directories left out, files that
// resolve outside the root not read) and collects the directories that their
// `module` blocks call by a local path. Only the `source` of `module` blocks
// matters, so a file in which no line starts with `module` and a label is
// not parsed (config/module_call_hint.hpp). Broken files are skipped: the
// lint reports them. `overlays` stand in for files on disk (an editor's
// unsaved buffers).
RepositoryModuleCalls scan_repository_module_calls(const std::string& repository_root,
                                                   std::shared_ptr<const FileOverlays> overlays = nullptr);

// The role of `module_dir` (absolute, lexically normal): `roots` of the
// settings first, then `shared`, then whether a module of the repository
// calls it.
ModuleRole decide_module_role(const std::string& module_dir, const Settings& settings,
                              const RepositoryModuleCalls& calls);

// Scans each repository once and answers for any module in it; thread-safe.
// Whoever runs lints owns one: a lint session makes its own unless the
// request brings one (LintRequest::module_roles), so each `tfsift lint`
// process scans once; the language server keeps one for its whole life and
// tells it what changed (refresh_directory), so a module's role follows the
// files and the editor's unsaved buffers.
class ModuleRoleCache {
public:
    // `refreshed`: refresh_directory will be called (a language server), so
    // each scan remembers what every file that mentions a module called and
    // a fingerprint of its text, and a refresh parses only what changed. A
    // single run leaves it false and keeps nothing per file.
    explicit ModuleRoleCache(bool refreshed = false);
    ~ModuleRoleCache();
    ModuleRoleCache(const ModuleRoleCache&) = delete;
    ModuleRoleCache& operator=(const ModuleRoleCache&) = delete;

    // The role of `module_dir` (as the user named it) in its repository
    // (lint::find_repository_root), under the settings that apply to it.
    // Without `.git` or `root = true` above it, the repository is
    // `fallback_root` (the directory named on the command line): only a
    // marked repository gives the same answer in every scope. A repository
    // not scanned yet is scanned with `overlays` standing in for files.
    // A scan reads the files of `jobs` directories at once. `probe`, when
    // given, finds the repository root with what the caller's run already
    // knows of the directories above (one thread at a time). A scan takes
    // the listings of `listings` (when given) instead of listing again.
    ModuleRole role_of(const std::string& module_dir, const Settings& settings, const std::string& fallback_root = {},
                       const std::shared_ptr<const FileOverlays>& overlays = nullptr, unsigned jobs = 1,
                       DirectoryProbe* probe = nullptr, const ScanListings* listings = nullptr);

    // The directories (absolute, lexically normal) that the `module` blocks
    // of `module_dir`'s own files call by a local path, as the scan of a
    // repository that holds it last read them; empty when no scan so far
    // holds it.
    std::vector<std::string> local_calls(const std::string& module_dir);

    // The bytes of the configuration files directly inside `module_dir`
    // (absolute, lexically normal), as the scan of a repository that holds
    // it last read them; 0 when no scan so far read a file there. What
    // loading the directory costs, roughly: a lint starts with the largest
    // trees (lint/session.cpp).
    std::uint64_t text_bytes(const std::string& module_dir);

    // The directories (absolute, lexically normal) whose `module` blocks
    // call `module_dir` by a local path, directly or through other modules,
    // in the scans so far that hold it: the modules a change to it can
    // break. Empty when no scan so far holds it.
    std::set<std::string> callers_of(const std::string& module_dir);

    // Reads the configuration files directly inside `dir` again (a file
    // saved, created or deleted there, or an unsaved buffer changed), with
    // `overlays` standing in for files, in every repository scanned so far
    // that holds it. Returns the module directories (absolute, lexically
    // normal) that gained their first local caller or lost their last: the
    // modules whose role may have changed. A file whose text is unchanged
    // since it was last read is not parsed again.
    std::set<std::string> refresh_directory(const std::string& dir,
                                            const std::shared_ptr<const FileOverlays>& overlays = nullptr);

    // Forgets every scan (a settings file that marks a repository root may
    // have come or gone): the next question scans again.
    void clear();

    struct Repository;  // what is known of one repository (module_roles.cpp)

private:
    bool refreshed_;
    std::mutex mutex_;
    std::map<std::string, std::unique_ptr<Repository>> by_root_;
};

}  // namespace tfsift::lint
