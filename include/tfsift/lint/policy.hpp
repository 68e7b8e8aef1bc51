// Custom policies: the [[policy]] tables of .tfsift.toml, reported like
// built-in rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/lint/pattern.hpp"
#include "tfsift/lint/rule.hpp"

namespace tfsift::lint {

enum class PolicyKind : std::uint8_t {
    naming,               // names of resource/data/variable/output/module/local match `pattern`
    required_attributes,  // resources whose type matches `resource-types` set every one of `attributes`
    forbidden_attribute,  // `attributes` absent, or (with `value`) their literal value does not match
    provider_source,      // every required_providers source matches one of `allowed`
    module_source,        // every module call's source matches one of `allowed`
};

std::string_view to_string(PolicyKind k);

// What a naming policy applies to.
enum class NameTarget : std::uint8_t { resource, data, variable, output, module, local };

std::string_view to_string(NameTarget t);

struct Policy {
    std::string id;
    PolicyKind kind = PolicyKind::naming;
    Severity severity = Severity::warning;
    std::string message;      // shown before the specifics of each finding
    std::string description;  // optional longer text for the rule documentation
    std::string defined_in;   // the .tfsift.toml that declared it
    std::uint32_t line = 0;   // of the [[policy]] header

    std::vector<NameTarget> targets;              // naming
    std::optional<PolicyPattern> pattern;         // naming: the name must match
    std::optional<PolicyPattern> resource_types;  // required/forbidden: which resource types (all when absent)
    std::vector<std::string> attributes;          // required/forbidden
    std::optional<PolicyPattern> value;           // forbidden: only these literal values are forbidden
    std::vector<PolicyPattern> allowed;           // provider/module sources
};

// The policy as a rule: id, severity, generated documentation and a check
// over the raw syntax trees of the module's files.
Rule policy_rule(const Policy& policy);

}  // namespace tfsift::lint
