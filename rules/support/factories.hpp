// The factories of the built-in rules, one per file in rules/: what the
// catalogue (rules/support/catalogue.cpp) lists. Private to rules/; the
// rest of the program sees the catalogue only (tfsift/rules/catalogue.hpp).
// Every rule file includes this header, so its factory's signature is
// checked against the declaration.
#pragma once

#include "tfsift/lint/rule.hpp"

namespace tfsift::lint::rules {

Rule syntax_error();
Rule invalid_configuration();
Rule unused_ignore();
Rule duplicate_block();
Rule override_missing_base();
Rule override_depends_on();
Rule override_variable_type();
Rule override_invalid_result();
Rule override_undocumented();
Rule module_provider_config();
Rule module_provider_config_meta();
Rule provider_alias_undeclared();
Rule module_alias_not_passed();
Rule module_not_loaded();
Rule module_providers_unknown();
Rule module_providers_incomplete();
// Lifecycle meta-argument (seed 002).
Rule lifecycle_non_literal();
Rule lifecycle_unknown_argument();
Rule ignore_changes_meta_argument();
Rule ignore_changes_wildcard();
Rule replace_triggered_by_invalid();
Rule create_before_destroy_conflict();
Rule create_before_destroy_provisioner();
Rule condition_constant();
Rule module_required_providers();
Rule required_providers_placement();
Rule provider_local_name_duplicate();
Rule provider_source_invalid();
Rule provider_source_missing();
Rule provider_version_missing();
Rule provider_version_invalid();
Rule provider_local_name();
Rule resource_provider_unresolved();
Rule shared_module_max_version();
Rule root_module_unbounded_version();
Rule provider_legacy_terraform();
Rule provider_config_removed();
Rule lock_syntax();
Rule lock_missing();
Rule lock_missing_provider();
Rule lock_stale_provider();
Rule lock_version_mismatch();
Rule lock_constraints_drift();
Rule lock_hash_mismatch();
Rule lock_platforms_incomplete();
Rule lock_missing_hashes();
Rule lock_in_shared_module();
Rule module_version_unpinned();
Rule required_version_conflict();
// References, module call arguments and functions (terraform validate).
Rule reference_undeclared();
Rule reference_invalid();
Rule terraform_workspace_remote();
Rule function_call_invalid();
Rule module_arguments_invalid();

// TFLint's recommended preset, under tfsift ids (docs/migrating-from-tflint.md).
Rule unused_declaration();
Rule unused_required_provider();
Rule deprecated_interpolation();
Rule deprecated_index();
Rule deprecated_lookup();
Rule duplicate_map_key();
Rule module_source_unpinned();
Rule required_version_missing();
Rule variable_type_missing();
Rule count_for_each_invalid();
Rule expression_invalid();
Rule connection_host_missing();
Rule test_reference_invalid();

}  // namespace tfsift::lint::rules
