// Where each part of a lock file's `provider` blocks is written, so findings
// can point at the `version`, `constraints` or a single hash of an entry.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tfsift/source.hpp"

namespace tfsift::providers {

struct LockEntryLocation {
    Range definition;                                       // `provider "LABEL"`
    std::optional<Range> version;                           // the `version` argument
    std::optional<Range> constraints;                       // the `constraints` argument
    std::optional<Range> hashes;                            // the `hashes` argument
    std::vector<std::pair<std::string, Range>> hash_items;  // each literal hash
};

// By label as written (the canonical address in a valid file); the first
// block of a repeated label wins.
using LockLocations = std::map<std::string, LockEntryLocation>;

[[nodiscard]] LockLocations locate_lock_entries(const std::shared_ptr<const SourceFile>& source);

}  // namespace tfsift::providers
