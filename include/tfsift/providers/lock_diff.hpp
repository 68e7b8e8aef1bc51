// What changed between two versions of a dependency lock file, provider by
// provider, for `tfsift lock diff` (docs/lock-review.md): which providers
// came, went, moved up or down, or kept their version with other hashes;
// their `constraints` before and after; the hashes added and removed. Pure:
// the caller reads both files (git, --base-file) and verifies the added
// hashes (online/lock_review_verification.hpp); this only compares.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/providers/address.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::providers {

enum class LockChange : std::uint8_t {
    added,        // only in the new file
    removed,      // only in the old file
    upgraded,     // a higher version
    downgraded,   // a lower version
    hashes,       // the same version, other hashes
    constraints,  // the same version and hashes, other `constraints`
};

// "added", "removed", "upgraded", "downgraded", "hashes", "constraints".
[[nodiscard]] std::string_view to_string(LockChange change);

// One provider whose entry differs.
struct ProviderLockChange {
    Provider provider;
    LockChange change = LockChange::hashes;
    std::optional<Version> from;  // none for an added provider
    std::optional<Version> to;    // none for a removed one
    // The `constraints` strings as Terraform renders them; none where the
    // entry is absent, "" where it has no constraints.
    std::optional<std::string> constraints_from;
    std::optional<std::string> constraints_to;
    std::vector<std::string> added_hashes;    // in the new entry only, sorted
    std::vector<std::string> removed_hashes;  // in the old entry only, sorted
    std::vector<std::string> kept_hashes;     // in both, sorted
    // An added provider that took the place of a removed one of the same
    // type on another host or namespace (a fork, a registry move): the
    // removed one's address.
    std::optional<Provider> moved_from;
};

struct LockDiff {
    std::vector<ProviderLockChange> providers;  // by address; unchanged providers are left out
    [[nodiscard]] bool empty() const { return providers.empty(); }
};

// Compares `before` with `after`. An absent file is an empty LockFile: a
// new lock file shows every provider added, a deleted one every provider
// removed.
[[nodiscard]] LockDiff diff_lock_files(const LockFile& before, const LockFile& after);

// The platforms of `before` that `after` does not cover, both sorted
// "os_arch" names.
[[nodiscard]] std::vector<std::string> platforms_lost(const std::vector<std::string>& before,
                                                      const std::vector<std::string>& after);

}  // namespace tfsift::providers
