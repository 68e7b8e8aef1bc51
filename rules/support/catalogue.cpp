// The list of built-in rules. Adding a rule (scripts/new-rule.sh does all of
// it): write rules/<id>.cpp with its factory, declare the factory in
// rules/support/factories.hpp and add it to this list. A rule of `tfsift lock
// diff` is declared in review_factories.hpp and listed in both lists.
#include "tfsift/rules/catalogue.hpp"

#include <vector>

#include "factories.hpp"
#include "review_factories.hpp"
#include "tfsift/rules/review_catalogue.hpp"

namespace tfsift::lint {

std::span<const ReviewRule> builtin_review_rules() {
    static const std::vector<ReviewRule> all = {
        rules::lock_hash_unsigned(),  rules::lock_signing_key_changed(), rules::lock_version_downgraded(),
        rules::lock_platforms_lost(), rules::lock_source_moved(),
    };
    return all;
}

std::span<const Rule> builtin_rules() {
    static const std::vector<Rule> all = {
        rules::syntax_error(),
        rules::invalid_configuration(),
        rules::unused_ignore(),
        rules::duplicate_block(),
        rules::override_missing_base(),
        rules::override_depends_on(),
        rules::override_variable_type(),
        rules::override_invalid_result(),
        rules::override_undocumented(),
        rules::module_provider_config(),
        rules::module_provider_config_meta(),
        rules::provider_alias_undeclared(),
        rules::module_alias_not_passed(),
        rules::module_not_loaded(),
        rules::module_providers_unknown(),
        rules::module_providers_incomplete(),
        rules::lifecycle_non_literal(),
        rules::lifecycle_unknown_argument(),
        rules::ignore_changes_meta_argument(),
        rules::ignore_changes_wildcard(),
        rules::replace_triggered_by_invalid(),
        rules::create_before_destroy_conflict(),
        rules::create_before_destroy_provisioner(),
        rules::condition_constant(),
        rules::module_required_providers(),
        rules::required_providers_placement(),
        rules::provider_local_name_duplicate(),
        rules::provider_source_invalid(),
        rules::provider_source_missing(),
        rules::provider_version_missing(),
        rules::provider_version_invalid(),
        rules::provider_local_name(),
        rules::resource_provider_unresolved(),
        rules::shared_module_max_version(),
        rules::root_module_unbounded_version(),
        rules::provider_legacy_terraform(),
        rules::provider_config_removed(),
        rules::lock_syntax(),
        rules::lock_missing(),
        rules::lock_missing_provider(),
        rules::lock_stale_provider(),
        rules::lock_version_mismatch(),
        rules::lock_constraints_drift(),
        rules::lock_hash_mismatch(),
        rules::lock_platforms_incomplete(),
        rules::lock_missing_hashes(),
        rules::lock_in_shared_module(),
        // `tfsift lock diff` (builtin_review_rules() has their checks).
        builtin_review_rules()[0].rule,
        builtin_review_rules()[1].rule,
        builtin_review_rules()[2].rule,
        builtin_review_rules()[3].rule,
        builtin_review_rules()[4].rule,
        rules::module_version_unpinned(),
        rules::required_version_conflict(),
        rules::reference_undeclared(),
        rules::reference_invalid(),
        rules::terraform_workspace_remote(),
        rules::function_call_invalid(),
        rules::module_arguments_invalid(),
        rules::count_for_each_invalid(),
        rules::expression_invalid(),
        rules::connection_host_missing(),

        rules::unused_declaration(),
        rules::unused_required_provider(),
        rules::deprecated_interpolation(),
        rules::deprecated_index(),
        rules::deprecated_lookup(),
        rules::duplicate_map_key(),
        rules::module_source_unpinned(),
        rules::required_version_missing(),
        rules::variable_type_missing(),
        rules::test_reference_invalid(),
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
