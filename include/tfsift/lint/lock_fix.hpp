// The lock file part of `tfsift lint --fix`: repairing a root module's
// .terraform.lock.hcl from the packages on disk first, then from the
// registries (see providers/lock_repair.hpp and online/online_lock.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tfsift/config/module_tree.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

enum class LockFixOutcome : std::uint8_t {
    done,          // repaired, or nothing to repair
    not_repaired,  // the lock file has errors, or a settings value is wrong: its findings say why
    failed,        // writing it failed, or a provider could not be fetched
};

// Whether a rule whose findings the lock repair fixes is enabled.
[[nodiscard]] bool lock_repair_selected(const std::vector<ActiveRule>& rules);

// Repairs the lock file of the root module `dir`, loaded as `tree`. What
// changed and what could not be repaired is said through `say`, one line at
// a time. Offline sources are tried first; what they cannot repair is fetched
// from the registries unless `offline`.
LockFixOutcome repair_module_lock_file(const std::string& dir, const config::LoadedTree& tree, Engine engine,
                                       const Settings& settings, const std::string& state_file, bool offline,
                                       const std::function<void(std::string)>& say);

}  // namespace tfsift::lint
