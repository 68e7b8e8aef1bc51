// hashicorp/go-version constraints: the first syntax pass over every
// provider `version` string in configuration, and the whole semantics of
// `required_version` (which differ from provider constraints: `~> 1` has no
// upper bound, a "v" prefix and any number of segments are accepted).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfsift::providers {

// A go-version version: any number of numeric segments (at least three
// after padding), optional prerelease and metadata.
struct CoreVersion {
    std::vector<std::int64_t> segments;  // padded with zeros to at least 3
    std::size_t written_segments = 0;    // how many the text gave
    std::string prerelease;
    std::string metadata;
};

[[nodiscard]] std::optional<CoreVersion> parse_core_version(std::string_view text);

struct CoreConstraint {
    std::string op;  // "", "=", "!=", ">", "<", ">=", "<=", "~>"
    CoreVersion version;
    std::string text;  // the piece as written, trimmed
};

// version.NewConstraint: split on ",", each piece `op version` with any
// whitespace around. nullopt when any piece is malformed.
[[nodiscard]] std::optional<std::vector<CoreConstraint>> parse_core_constraints(std::string_view text);

// Constraint.Check for every piece.
[[nodiscard]] bool core_constraints_allow(const std::vector<CoreConstraint>& constraints, const CoreVersion& version);

}  // namespace tfsift::providers
