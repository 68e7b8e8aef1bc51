// Provider versions and version constraints with the semantics of
// apparentlymart/go-versions as current Terraform uses it: parsing,
// precedence, matching, selection and the lock file's canonical
// `constraints` string.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tfsift::providers {

struct Version {
    std::uint64_t major = 0;
    std::uint64_t minor = 0;
    std::uint64_t patch = 0;
    std::string prerelease;  // without the "-"
    std::string metadata;    // without the "+"

    // Canonical form: M.m.p[-pre][+meta].
    [[nodiscard]] std::string to_string() const;
    // Exact equality, metadata included (what "is this the locked version" uses).
    friend bool operator==(const Version&, const Version&) = default;
};

// Precedence (<0, 0, >0). Metadata is ignored. Prereleases with fewer
// dot-separated parts sort first, before any identifier is compared.
[[nodiscard]] int compare_precedence(const Version& a, const Version& b);

struct ParsedVersion {
    std::optional<Version> version;
    std::string error;  // go-versions' wording, e.g. `a "v" prefix should not be used`
};

// go-versions ParseVersion: one exact version; missing parts are zero.
[[nodiscard]] ParsedVersion parse_version(std::string_view text);

enum class ConstraintOperator : std::uint8_t {
    greater,            // >
    greater_equal,      // >=
    equal,              // = or no operator
    pessimistic_patch,  // ~> with three numbers: >= X.Y.Z, < X.(Y+1).0
    pessimistic_minor,  // ~> with one or two numbers: >= X.Y.0, < (X+1).0.0
    less_equal,         // <=
    less,               // <
    not_equal,          // !=
};

// One selection: an operator and its boundary, missing parts already zero.
struct VersionConstraint {
    ConstraintOperator op = ConstraintOperator::equal;
    Version boundary;
    friend bool operator==(const VersionConstraint&, const VersionConstraint&) = default;
};

// An intersection: every constraint must hold. Empty means "any version".
using VersionConstraints = std::vector<VersionConstraint>;

struct ParsedConstraints {
    std::optional<VersionConstraints> constraints;
    std::string error;  // e.g. `invalid specification ">=  1.0": only one space ...`
};

// go-versions ParseRubyStyleMulti: comma-separated constraints. Numbers
// above 2^64-1 are an error (Terraform itself panics on them).
[[nodiscard]] ParsedConstraints parse_constraints(std::string_view text);

// VersionConstraintsString: deduplicated, sorted, joined with ", ".
[[nodiscard]] std::string render_constraints(const VersionConstraints& constraints);

// Whether `version` is acceptable: inside every constraint, never 0.0.0,
// and a prerelease only when an equality constraint names it exactly.
[[nodiscard]] bool constraints_allow(const VersionConstraints& constraints, const Version& version);

// The newest acceptable version of `available` (stable by precedence, so of
// versions differing only in metadata the one listed last wins), if any.
[[nodiscard]] std::optional<Version> select_newest(const VersionConstraints& constraints,
                                                   std::span<const Version> available);

}  // namespace tfsift::providers

namespace tfsift::providers {

// A provider `version` argument of configuration, checked as Terraform's
// config loader does: first by hashicorp/go-version's syntax (summary
// "Invalid version constraint", detail "This string does not use correct
// version constraint syntax."), then by go-versions ("Incorrect version
// constraint syntax: <error>.").
struct ConfigConstraints {
    std::optional<VersionConstraints> constraints;
    std::string summary;  // empty when valid
    std::string detail;
};

[[nodiscard]] ConfigConstraints parse_config_constraints(std::string_view text);

}  // namespace tfsift::providers
