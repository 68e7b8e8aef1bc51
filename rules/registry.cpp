// The list of built-in rules. Adding a rule: write rules/<id>.cpp with its
// factory, declare the factory in include/tfsift/lint/registry.hpp and add
// it to this list.
#include "tfsift/lint/registry.hpp"

#include <vector>

namespace tfsift::lint {

std::span<const Rule> builtin_rules() {
    static const std::vector<Rule> all = {
        rules::syntax_error(),
        rules::invalid_configuration(),
        rules::unused_ignore(),
        rules::provider_config_removed(),
        rules::lock_syntax(),
        rules::lock_missing(),
        rules::lock_missing_provider(),
        rules::lock_stale_provider(),
        rules::lock_version_mismatch(),
        rules::lock_constraints_drift(),
        rules::lock_hash_mismatch(),
        rules::lock_platforms_incomplete(),
        rules::lock_in_shared_module(),
        rules::module_version_unpinned(),
        rules::required_version_conflict(),
    };
    return all;
}

const Rule* find_builtin_rule(std::string_view id) {
    for (const Rule& r : builtin_rules()) {
        if (r.id == id) return &r;
    }
    return nullptr;
}

}  // namespace tfsift::lint
