// The repair of a root module's .terraform.lock.hcl as an ordinary fix: one
// whole-file edit from the lock file as it is to the lock file as `terraform
// init` would leave it (creating the file when there is none), shared by the
// module's lock findings, so that `--fix`, `--diff`, `--show-fixes` and SARIF
// `fixes` see it like any other fix.
//
// The repair is computed from offline sources only (packages installed in
// the working directory, the plugin cache, filesystem mirrors): a lint opens
// no connection. While an OnlineLockRepair lives (`tfsift lint --fix` without
// `--offline`), what those sources cannot repair is fetched from the
// registries (or the CLI configuration's installation methods) first.
//
// Applicability: a repair that only adds what is missing (an entry, hashes,
// the current constraints) or drops entries nothing requires is safe, as
// `terraform init` does the same; one that changes a locked version (as
// `init -upgrade` would) is unsafe.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "tfsift/lint/context.hpp"
#include "tfsift/lint/finding.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint {

// How the lock rules' documentation ends its "fix safety" section.
inline constexpr std::string_view kLockRepairFixSafety =
    " The whole `.terraform.lock.hcl` is repaired at once, as one fix shared by every lock finding of the root "
    "module (`--diff` and `--show-fixes` show it, SARIF lists it under `fixes`). It is safe when it only adds what "
    "is missing (an entry, hashes, the current constraints) or drops entries nothing requires, as `terraform init` "
    "does; it is unsafe, and applied only with `--unsafe-fixes`, when it changes a locked version, as `terraform "
    "init -upgrade` does. A plain lint computes it from packages on disk only (installed, the plugin cache, "
    "filesystem mirrors) and opens no connection; `--fix` without `--offline` fetches from the registries what "
    "those lack.";

struct LockRepair {
    std::optional<Fix> fix;             // none: nothing to repair, or nothing could be repaired
    std::vector<std::string> changes;   // init-style lines ("- Added ..."), what the fix does
    std::vector<std::string> problems;  // what could not be repaired, each starting with the provider
    // The providers some problem names (as Provider::to_string gives them),
    // so that asking about one is a lookup, not a pass over every problem.
    std::unordered_set<std::string> providers_with_problems;
    // Whether the fix repairs what concerns `provider` (no problem names it).
    [[nodiscard]] bool repairs(const providers::Provider& provider) const;
};

// The repair of the lock file of the root module `ctx` (computed once per
// context while a LockInputsCache lives). Never throws for bad input: a lock
// file with errors, or an invalid platform in the settings, gives no fix.
[[nodiscard]] const LockRepair& lock_repair(const LintContext& ctx);

// `finding` with the lock repair attached when it repairs `provider` (or,
// without a provider, when there is a fix at all).
void attach_lock_repair(const LintContext& ctx, Finding& finding,
                        const std::optional<providers::Provider>& provider = std::nullopt);

// While it lives (`tfsift lint --fix`), lock repairs say what they could not
// repair, and with `online` (no `--offline`) fetch from the registries (or
// the CLI configuration's installation methods) what the offline sources
// lack first. One per process at a time. What is said is collected until
// `take_messages`.
class LockRepairSession {
public:
    explicit LockRepairSession(bool online);
    ~LockRepairSession();
    LockRepairSession(const LockRepairSession&) = delete;
    LockRepairSession& operator=(const LockRepairSession&) = delete;
    LockRepairSession(LockRepairSession&&) = delete;
    LockRepairSession& operator=(LockRepairSession&&) = delete;

    // The lines said since the last call, in the order they were said.
    [[nodiscard]] std::vector<std::string> take_messages();
    // A lock file could not be repaired for a reason no finding tells (an
    // invalid platform in the settings).
    [[nodiscard]] bool not_repaired() const;
    // Fetching from the registries failed (those providers stay unrepaired).
    [[nodiscard]] bool fetch_failed() const;

    // What to say once the fixes are written, for each lock file repaired
    // in this session: "PATH: updated the provider dependency selections"
    // and its changes when PATH is among `written`, then what could not be
    // repaired.
    [[nodiscard]] std::vector<std::string> outcome(const std::vector<std::string>& written) const;

    // For lock_repair: whether it may fetch, and recording what it says.
    [[nodiscard]] bool online() const { return online_; }
    void say(const std::string& line, bool fetch_failure);
    void mark_not_repaired();
    void record(const std::string& path, const std::vector<std::string>& changes,
                const std::vector<std::string>& problems);

private:
    bool online_;
    mutable std::mutex mutex_;
    std::vector<std::string> messages_;
    struct Repaired {
        std::string path;
        std::vector<std::string> changes;
        std::vector<std::string> problems;
    };
    std::vector<Repaired> repaired_;
    bool not_repaired_ = false;
    bool fetch_failed_ = false;
};

}  // namespace tfsift::lint
