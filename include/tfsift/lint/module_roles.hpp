// Whether a module is a root module or a shared (called) one, decided for
// the whole repository rather than for what one run happens to scan: the
// same file gets the same findings from `lint -r .`, from `lint DIR` and from
// a pre-commit hook that passes single files.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "tfsift/lint/context.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

// The local module calls (`source = "./x"` or `"../x"`) of every module in a
// repository.
struct RepositoryModuleCalls {
    std::string root;                  // the repository root, absolute
    std::set<std::string> called;      // absolute, lexically normal directories some module calls
    std::size_t files_read = 0;        // configuration files that mention a module and were decoded
};

// Reads every configuration file below `repository_root` (hidden directories
// such as .git and .terraform and symlinked directories left out, files that
// resolve outside the root not read) and collects the directories that their
// `module` blocks call by a local path. Only the `source` of `module` blocks
// matters, so a file that does not mention `module` is not parsed. Broken
// files are skipped: the lint reports them.
RepositoryModuleCalls scan_repository_module_calls(const std::string& repository_root);

// The role of `module_dir` (absolute, lexically normal): `roots` of the
// settings first, then `shared`, then whether a module of the repository
// calls it.
ModuleRole decide_module_role(const std::string& module_dir, const Settings& settings,
                              const RepositoryModuleCalls& calls);

// Scans each repository once (thread-safe) and answers for any module in it.
class ModuleRoleCache {
public:
    // The role of `module_dir` (as the user named it) in its repository
    // (lint::find_repository_root), under the settings that apply to it.
    // Without `.git` or `root = true` above it, the repository is
    // `fallback_root` (the directory named on the command line): only a
    // marked repository gives the same answer in every scope.
    ModuleRole role_of(const std::string& module_dir, const Settings& settings, const std::string& fallback_root = {});

private:
    std::mutex mutex_;
    std::map<std::string, RepositoryModuleCalls> by_root_;
};

// One cache for the whole process (a process is one run).
ModuleRole repository_module_role(const std::string& module_dir, const Settings& settings,
                                  const std::string& fallback_root = {});

}  // namespace tfsift::lint
