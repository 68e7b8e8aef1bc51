// Repairing a dependency lock file offline, the way `terraform init` and
// `terraform providers lock` update it (spec 3.6-3.7, 9.3), without
// guessing: stale entries go, missing ones are added with the newest version
// meeting every constraint among the packages at hand, a locked version the
// constraints still accept is kept with all its hashes, `constraints` is
// brought up to date, and the `h1:` hash of every wanted platform whose
// package is available is added. A package contradicting the recorded
// hashes is never trusted.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/tree_requirements.hpp"

namespace tfsift::providers {

struct RepairOptions {
    Engine engine = Engine::terraform;
    std::vector<Platform> platforms;     // platforms to record hashes for
    bool keep_unrequired = false;        // keep entries nothing requires (`providers lock`)
    // The requirements are a lower bound (modules not loaded): entries nothing
    // known requires stay, and a kept entry keeps its recorded constraints.
    bool requirements_partial = false;
    std::filesystem::path installed_dir; // the working directory's .terraform/providers
    bool all_or_nothing = false;         // write nothing when anything could not be repaired
    // Hashes a source vouched for, by provider and version string: a
    // registry's signed `zh:` lines, added to the entry of that version.
    std::map<std::pair<Provider, std::string>, std::vector<std::string>> vouched_hashes;
};

struct RepairResult {
    LockFile locks;
    std::vector<std::string> changes;   // one line per change, init-style ("- Removed ...")
    std::vector<std::string> problems;  // what could not be repaired and why
};

[[nodiscard]] RepairResult repair_lock(const LockFile& old, const TreeRequirements& requirements,
                                       const std::vector<LocalPackage>& packages, const RepairOptions& options);

// Rewrites the lock file of a root module directory from `requirements`.
struct LockUpdate {
    std::filesystem::path path;
    bool written = false;
    std::string error;                  // unreadable lock file, failed write: nothing was written
    std::vector<std::string> changes;
    std::vector<std::string> problems;
};

// Reads `dir/.terraform.lock.hcl` (refusing one with errors), repairs it and
// writes it atomically when the bytes change (a new file only when it would
// hold an entry). The header follows the existing file's engine, else
// `options.engine`. With `always_write` the file is written even unchanged.
[[nodiscard]] LockUpdate update_lock_file(const std::filesystem::path& dir, const TreeRequirements& requirements,
                                          const std::vector<LocalPackage>& packages, const RepairOptions& options,
                                          bool always_write = false);

}  // namespace tfsift::providers
