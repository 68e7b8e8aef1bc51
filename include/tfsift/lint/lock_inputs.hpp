// What the dependency lock file rules share: the root module's lock file,
// read and located, the providers the module tree requires, the state file
// and the provider packages that can be seen offline.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tfsift/config/tree_requirements.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/rule.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/lock_locations.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/state_file.hpp"

namespace tfsift::lint {

struct LockRepair;

// `DIR/.terraform.lock.hcl` named as the module's files are named.
[[nodiscard]] std::string lock_file_display_path(const std::string& module_dir);

struct LockInputs {
    std::string path;  // as findings name it
    bool exists = false;
    providers::LockFileRead read;  // empty when there is no file
    providers::LockLocations locations;
    // What requirements() collects from: the module tree linted, and its engine.
    const config::LoadedModule* module = nullptr;
    Engine engine = Engine::terraform;
    // The repair of the lock file, once lock_fix.hpp's lock_repair computed it.
    mutable std::shared_ptr<const LockRepair> repair;

    // The providers the module tree requires (configuration only), collected
    // on first use: most roots without a lock file never ask.
    [[nodiscard]] const config::TreeRequirements& requirements() const;
    // Lockable requirements only (built-in and legacy providers need no entry).
    [[nodiscard]] std::vector<const config::TreeRequirement*> lockable(Engine engine) const;
    // The file as a finding's target (an empty file when it does not exist).
    [[nodiscard]] std::shared_ptr<const SourceFile> source() const;
    // The range of an entry's part, falling back to its `provider` label,
    // then to the start of the file.
    [[nodiscard]] Range entry_range(const providers::Provider& provider,
                                    std::optional<Range> providers::LockEntryLocation::*part) const;

private:
    mutable std::optional<config::TreeRequirements> requirements_;
};

// The lock inputs of the context. Several rules ask for them in one lint of
// a module: while a LockInputsCache lives on the calling thread, each context
// is answered once and the answer lives as long as the cache; otherwise the
// answer lives until the next call on the thread.
[[nodiscard]] const LockInputs& load_lock_inputs(const LintContext& ctx);

// Scopes the answers of load_lock_inputs (lint_module holds one while the
// rules of one module run). Not copyable; one per thread at a time.
class LockInputsCache {
public:
    LockInputsCache();
    ~LockInputsCache();
    LockInputsCache(const LockInputsCache&) = delete;
    LockInputsCache& operator=(const LockInputsCache&) = delete;
    LockInputsCache(LockInputsCache&&) = delete;
    LockInputsCache& operator=(LockInputsCache&&) = delete;

private:
    friend const LockInputs& load_lock_inputs(const LintContext& ctx);
    LockInputsCache* outer_;
    std::vector<std::pair<const LintContext*, std::unique_ptr<LockInputs>>> answers_;
};

// The state file of the context, when there is one.
[[nodiscard]] std::optional<providers::StateFile> load_state(const LintContext& ctx);

// Findings for the diagnostics of reading the state file.
void report_state_diagnostics(const providers::StateFile& state, const std::string& rule_id, Severity severity,
                              FindingSink& sink);

// Where a requirement shows in the root module: the site itself when the root
// module writes it, else the root module's call that leads to it.
struct SiteLocation {
    std::shared_ptr<const SourceFile> file;
    Range range;
    std::optional<RelatedLocation> related;  // the site in the child module
};
[[nodiscard]] std::optional<SiteLocation> locate_site(const LintContext& ctx, const config::RequirementSite& site);

// The packages visible offline from the module directory (installed, cache,
// CLI-configured and implied mirrors).
[[nodiscard]] providers::LocalPackages visible_packages(const LintContext& ctx);

}  // namespace tfsift::lint
