// The stable codes of the loader's diagnostics (Diagnostic::code): one per
// kind of problem, set where the diagnostic is made, next to its wording.
// The wording follows Terraform and may change; a code does not, so
// programs (the rules that claim diagnostics, tests) match codes, never
// text. A code is kebab-case; its constant here is the same in snake_case.
// Syntax errors of the parsers have no code: they are all `syntax-error`.
#pragma once

#include <array>
#include <string_view>

namespace tfsift::code {

inline constexpr std::string_view alias_required_when_using_for_each = "alias-required-when-using-for-each";
inline constexpr std::string_view ambiguous_attribute_key = "ambiguous-attribute-key";
inline constexpr std::string_view backend_configuration_ignored = "backend-configuration-ignored";
inline constexpr std::string_view both_a_backend_and_terraform_cloud_configuration_are_present =
    "both-a-backend-and-terraform-cloud-configuration-are-present";
inline constexpr std::string_view call_to_unknown_function = "call-to-unknown-function";
inline constexpr std::string_view cannot_override_import_blocks = "cannot-override-import-blocks";
inline constexpr std::string_view cannot_override_moved_blocks = "cannot-override-moved-blocks";
inline constexpr std::string_view cannot_override_provider_configuration = "cannot-override-provider-configuration";
inline constexpr std::string_view cant_override_postcondition_blocks = "cant-override-postcondition-blocks";
inline constexpr std::string_view cant_override_precondition_blocks = "cant-override-precondition-blocks";
inline constexpr std::string_view cant_override_validations = "cant-override-validations";
inline constexpr std::string_view cloud_configuration_ignored = "cloud-configuration-ignored";
inline constexpr std::string_view condition_is_null = "condition-is-null";
inline constexpr std::string_view conflicting_cloud_and_state_store_configuration_blocks_are_present =
    "conflicting-cloud-and-state-store-configuration-blocks-are-present";
inline constexpr std::string_view conflicting_state_store_and_backend_configuration_blocks_are_present =
    "conflicting-state-store-and-backend-configuration-blocks-are-present";
inline constexpr std::string_view const_variable_cannot_be_ephemeral = "const-variable-cannot-be-ephemeral";
inline constexpr std::string_view const_variable_cannot_be_sensitive = "const-variable-cannot-be-sensitive";
inline constexpr std::string_view depends_on_override = "depends-on-override";
inline constexpr std::string_view duplicate_action = "duplicate-action";
inline constexpr std::string_view duplicate_argument = "duplicate-argument";
inline constexpr std::string_view duplicate_backend_blocks = "duplicate-backend-blocks";
inline constexpr std::string_view duplicate_backend_configuration = "duplicate-backend-configuration";
inline constexpr std::string_view duplicate_backend_configuration_block = "duplicate-backend-configuration-block";
inline constexpr std::string_view duplicate_config_block = "duplicate-config-block";
inline constexpr std::string_view duplicate_connection_block = "duplicate-connection-block";
inline constexpr std::string_view duplicate_data = "duplicate-data";
inline constexpr std::string_view duplicate_ephemeral = "duplicate-ephemeral";
inline constexpr std::string_view duplicate_escaping_block = "duplicate-escaping-block";
inline constexpr std::string_view duplicate_event = "duplicate-event";
inline constexpr std::string_view duplicate_from_configuration_block = "duplicate-from-configuration-block";
inline constexpr std::string_view duplicate_import_configuration = "duplicate-import-configuration";
inline constexpr std::string_view duplicate_lifecycle_block = "duplicate-lifecycle-block";
inline constexpr std::string_view duplicate_list_block_names = "duplicate-list-block-names";
inline constexpr std::string_view duplicate_list_configuration = "duplicate-list-configuration";
inline constexpr std::string_view duplicate_local_value_definition = "duplicate-local-value-definition";
inline constexpr std::string_view duplicate_mock_provider_block = "duplicate-mock-provider-block";
inline constexpr std::string_view duplicate_mock_resource_block = "duplicate-mock-resource-block";
inline constexpr std::string_view duplicate_module_call = "duplicate-module-call";
inline constexpr std::string_view duplicate_object_key = "duplicate-object-key";
inline constexpr std::string_view duplicate_output_definition = "duplicate-output-definition";
inline constexpr std::string_view duplicate_override_block = "duplicate-override-block";
inline constexpr std::string_view duplicate_provider_address = "duplicate-provider-address";
inline constexpr std::string_view duplicate_provider_block = "duplicate-provider-block";
inline constexpr std::string_view duplicate_provider_configuration = "duplicate-provider-configuration";
inline constexpr std::string_view duplicate_provider_meta_block = "duplicate-provider-meta-block";
inline constexpr std::string_view duplicate_required_providers_configuration =
    "duplicate-required-providers-configuration";
inline constexpr std::string_view duplicate_resource = "duplicate-resource";
inline constexpr std::string_view duplicate_run_block_names = "duplicate-run-block-names";
inline constexpr std::string_view duplicate_skip_cleanup = "duplicate-skip-cleanup";
inline constexpr std::string_view duplicate_state_storage_configuration = "duplicate-state-storage-configuration";
inline constexpr std::string_view duplicate_state_store_configuration_block =
    "duplicate-state-store-configuration-block";
inline constexpr std::string_view duplicate_state_store_provider_configuration_block =
    "duplicate-state-store-provider-configuration-block";
inline constexpr std::string_view duplicate_terraform_cloud_configurations = "duplicate-terraform-cloud-configurations";
inline constexpr std::string_view duplicate_test_variable = "duplicate-test-variable";
inline constexpr std::string_view duplicate_variable_declaration = "duplicate-variable-declaration";
inline constexpr std::string_view dynamic_value_in_static_context = "dynamic-value-in-static-context";
inline constexpr std::string_view empty_state_migration_configuration = "empty-state-migration-configuration";
inline constexpr std::string_view ephemeral_value_not_allowed = "ephemeral-value-not-allowed";
inline constexpr std::string_view error_in_function_call = "error-in-function-call";
inline constexpr std::string_view experimental_test_feature = "experimental-test-feature";
inline constexpr std::string_view expression_too_complex = "expression-too-complex";
inline constexpr std::string_view extraneous_json_object_property = "extraneous-json-object-property";
inline constexpr std::string_view extraneous_label = "extraneous-label";
inline constexpr std::string_view failed_to_read_file = "failed-to-read-file";
inline constexpr std::string_view failed_to_read_mock_data_directory = "failed-to-read-mock-data-directory";
inline constexpr std::string_view failed_to_read_module_directory = "failed-to-read-module-directory";
inline constexpr std::string_view failed_to_read_module_manifest = "failed-to-read-module-manifest";
inline constexpr std::string_view function_calls_not_allowed = "function-calls-not-allowed";
inline constexpr std::string_view ignore_changes_quoted_reference = "ignore-changes-quoted-reference";
inline constexpr std::string_view ignore_changes_quoted_wildcard = "ignore-changes-quoted-wildcard";
inline constexpr std::string_view incompatible_module = "incompatible-module";
inline constexpr std::string_view incompatible_plan_options = "incompatible-plan-options";
inline constexpr std::string_view inconsistent_conditional_result_types = "inconsistent-conditional-result-types";
inline constexpr std::string_view inconsistent_provider_information_for_state_migration =
    "inconsistent-provider-information-for-state-migration";
inline constexpr std::string_view incorrect_condition_type = "incorrect-condition-type";
inline constexpr std::string_view incorrect_json_value_type = "incorrect-json-value-type";
inline constexpr std::string_view incorrect_key_type = "incorrect-key-type";
inline constexpr std::string_view ineffective_version_constraint = "ineffective-version-constraint";
inline constexpr std::string_view invalid_action_name = "invalid-action-name";
inline constexpr std::string_view invalid_action_type_name = "invalid-action-type-name";
inline constexpr std::string_view invalid_address = "invalid-address";
inline constexpr std::string_view invalid_assert_expression = "invalid-assert-expression";
inline constexpr std::string_view invalid_attribute = "invalid-attribute";
inline constexpr std::string_view invalid_block_in_ephemeral_resource = "invalid-block-in-ephemeral-resource";
inline constexpr std::string_view invalid_combination_of_backend_and_state_store =
    "invalid-combination-of-backend-and-state-store";
inline constexpr std::string_view invalid_combination_of_backend_and_state_store_provider =
    "invalid-combination-of-backend-and-state-store-provider";
inline constexpr std::string_view invalid_combination_of_count_enabled_and_for_each =
    "invalid-combination-of-count-enabled-and-for-each";
inline constexpr std::string_view invalid_combination_of_count_and_for_each =
    "invalid-combination-of-count-and-for-each";
inline constexpr std::string_view invalid_command_keyword = "invalid-command-keyword";
inline constexpr std::string_view invalid_configuration_aliases_value = "invalid-configuration-aliases-value";
inline constexpr std::string_view invalid_count_reference_in_replace_triggered_by_expression =
    "invalid-count-reference-in-replace-triggered-by-expression";
inline constexpr std::string_view invalid_data_resource_lifecycle_argument = "invalid-data-resource-lifecycle-argument";
inline constexpr std::string_view invalid_data_resource_lifecycle_nested_block =
    "invalid-data-resource-lifecycle-nested-block";
inline constexpr std::string_view invalid_data_resource_name = "invalid-data-resource-name";
inline constexpr std::string_view invalid_data_source_name = "invalid-data-source-name";
inline constexpr std::string_view invalid_default_value_for_optional_attribute =
    "invalid-default-value-for-optional-attribute";
inline constexpr std::string_view invalid_depends_on_action_reference = "invalid-depends-on-action-reference";
inline constexpr std::string_view invalid_deprecated_value = "invalid-deprecated-value";
inline constexpr std::string_view invalid_each_reference_in_replace_triggered_by_expression =
    "invalid-each-reference-in-replace-triggered-by-expression";
inline constexpr std::string_view invalid_ephemeral_resource_lifecycle_argument =
    "invalid-ephemeral-resource-lifecycle-argument";
inline constexpr std::string_view invalid_ephemeral_resource_lifecycle_nested_block =
    "invalid-ephemeral-resource-lifecycle-nested-block";
inline constexpr std::string_view invalid_ephemeral_resource_name = "invalid-ephemeral-resource-name";
inline constexpr std::string_view invalid_ephemeral_resource_type_name = "invalid-ephemeral-resource-type-name";
inline constexpr std::string_view invalid_event_value = "invalid-event-value";
inline constexpr std::string_view invalid_expanding_argument_value = "invalid-expanding-argument-value";
inline constexpr std::string_view invalid_expect_failures_reference = "invalid-expect-failures-reference";
inline constexpr std::string_view invalid_experiment_keyword = "invalid-experiment-keyword";
inline constexpr std::string_view invalid_for_condition = "invalid-for-condition";
inline constexpr std::string_view invalid_ignore_changes_ruleset = "invalid-ignore-changes-ruleset";
inline constexpr std::string_view invalid_ignore_changes_wildcard = "invalid-ignore-changes-wildcard";
inline constexpr std::string_view invalid_import_address = "invalid-import-address";
inline constexpr std::string_view invalid_import_address_expression = "invalid-import-address-expression";
inline constexpr std::string_view invalid_import_block = "invalid-import-block";
inline constexpr std::string_view invalid_import_configuration = "invalid-import-configuration";
inline constexpr std::string_view invalid_import_for_each_argument = "invalid-import-for-each-argument";
inline constexpr std::string_view invalid_import_id_argument = "invalid-import-id-argument";
inline constexpr std::string_view invalid_import_provider_argument = "invalid-import-provider-argument";
inline constexpr std::string_view invalid_import_to_expression = "invalid-import-to-expression";
inline constexpr std::string_view invalid_index = "invalid-index";
inline constexpr std::string_view invalid_language_edition = "invalid-language-edition";
inline constexpr std::string_view invalid_legacy_variable_type_hint = "invalid-legacy-variable-type-hint";
inline constexpr std::string_view invalid_list_block_name = "invalid-list-block-name";
inline constexpr std::string_view invalid_list_configuration = "invalid-list-configuration";
inline constexpr std::string_view invalid_local_value_name = "invalid-local-value-name";
inline constexpr std::string_view invalid_mode_keyword = "invalid-mode-keyword";
inline constexpr std::string_view invalid_module_instance_name = "invalid-module-instance-name";
inline constexpr std::string_view invalid_module_source_address = "invalid-module-source-address";
inline constexpr std::string_view invalid_module_source_reference = "invalid-module-source-reference";
inline constexpr std::string_view invalid_number_literal = "invalid-number-literal";
inline constexpr std::string_view invalid_object_key = "invalid-object-key";
inline constexpr std::string_view invalid_on_failure_keyword = "invalid-on-failure-keyword";
inline constexpr std::string_view invalid_operand = "invalid-operand";
inline constexpr std::string_view invalid_output_name = "invalid-output-name";
inline constexpr std::string_view invalid_override_during_value = "invalid-override-during-value";
inline constexpr std::string_view invalid_override_target = "invalid-override-target";
inline constexpr std::string_view invalid_postcondition_expression = "invalid-postcondition-expression";
inline constexpr std::string_view invalid_precondition_expression = "invalid-precondition-expression";
inline constexpr std::string_view invalid_provider_configuration_alias = "invalid-provider-configuration-alias";
inline constexpr std::string_view invalid_provider_configuration_reference = "invalid-provider-configuration-reference";
inline constexpr std::string_view invalid_provider_instance_configuration = "invalid-provider-instance-configuration";
inline constexpr std::string_view invalid_provider_local_name = "invalid-provider-local-name";
inline constexpr std::string_view invalid_provider_name = "invalid-provider-name";
inline constexpr std::string_view invalid_provider_namespace = "invalid-provider-namespace";
inline constexpr std::string_view invalid_provider_source_hostname = "invalid-provider-source-hostname";
inline constexpr std::string_view invalid_provider_source_string = "invalid-provider-source-string";
inline constexpr std::string_view invalid_provider_type = "invalid-provider-type";
inline constexpr std::string_view invalid_provider_version_in_state_store_provider_configuration_block =
    "invalid-provider-version-in-state-store-provider-configuration-block";
inline constexpr std::string_view invalid_quoted_type_constraints = "invalid-quoted-type-constraints";
inline constexpr std::string_view invalid_reference_from_destroy_provisioner =
    "invalid-reference-from-destroy-provisioner";
inline constexpr std::string_view invalid_reference_in_replace_triggered_by_expression =
    "invalid-reference-in-replace-triggered-by-expression";
inline constexpr std::string_view invalid_registry_module_source_address = "invalid-registry-module-source-address";
inline constexpr std::string_view invalid_replace_triggered_by_expression = "invalid-replace-triggered-by-expression";
inline constexpr std::string_view invalid_required_providers_block = "invalid-required-providers-block";
inline constexpr std::string_view invalid_required_providers_object = "invalid-required-providers-object";
inline constexpr std::string_view invalid_resource_name = "invalid-resource-name";
inline constexpr std::string_view invalid_resource_type_name = "invalid-resource-type-name";
inline constexpr std::string_view invalid_run_block_name = "invalid-run-block-name";
inline constexpr std::string_view invalid_self_reference = "invalid-self-reference";
inline constexpr std::string_view invalid_source = "invalid-source";
inline constexpr std::string_view invalid_source_in_state_store_provider_configuration_block =
    "invalid-source-in-state-store-provider-configuration-block";
inline constexpr std::string_view invalid_state_store_provider_object = "invalid-state-store-provider-object";
inline constexpr std::string_view invalid_template_directive = "invalid-template-directive";
inline constexpr std::string_view invalid_template_interpolation_value = "invalid-template-interpolation-value";
inline constexpr std::string_view invalid_test_backend_block = "invalid-test-backend-block";
inline constexpr std::string_view invalid_type_specification = "invalid-type-specification";
inline constexpr std::string_view invalid_variable_name = "invalid-variable-name";
inline constexpr std::string_view invalid_variable_validation_condition = "invalid-variable-validation-condition";
inline constexpr std::string_view invalid_version_constraint = "invalid-version-constraint";
inline constexpr std::string_view invalid_when_keyword = "invalid-when-keyword";
inline constexpr std::string_view iteration_over_non_iterable_value = "iteration-over-non-iterable-value";
inline constexpr std::string_view iteration_over_null_value = "iteration-over-null-value";
inline constexpr std::string_view lifecycle_unknown_member = "lifecycle-unknown-member";
inline constexpr std::string_view lifecycle_value_not_literal = "lifecycle-value-not-literal";
inline constexpr std::string_view local_module_path_escapes_module_package = "local-module-path-escapes-module-package";
inline constexpr std::string_view merged_default_not_nullable = "merged-default-not-nullable";
inline constexpr std::string_view merged_default_type_mismatch = "merged-default-type-mismatch";
inline constexpr std::string_view missing_base_local_value_definition_to_override =
    "missing-base-local-value-definition-to-override";
inline constexpr std::string_view missing_base_output_definition_to_override =
    "missing-base-output-definition-to-override";
inline constexpr std::string_view missing_base_provider_configuration_for_override =
    "missing-base-provider-configuration-for-override";
inline constexpr std::string_view missing_base_variable_declaration_to_override =
    "missing-base-variable-declaration-to-override";
inline constexpr std::string_view missing_block_label = "missing-block-label";
inline constexpr std::string_view missing_data_resource_to_override = "missing-data-resource-to-override";
inline constexpr std::string_view missing_module_call_to_override = "missing-module-call-to-override";
inline constexpr std::string_view missing_provider_attribute = "missing-provider-attribute";
inline constexpr std::string_view missing_provider_block = "missing-provider-block";
inline constexpr std::string_view missing_provider_definition = "missing-provider-definition";
inline constexpr std::string_view missing_required_argument = "missing-required-argument";
inline constexpr std::string_view missing_required_provider_configuration = "missing-required-provider-configuration";
inline constexpr std::string_view missing_resource_to_override = "missing-resource-to-override";
inline constexpr std::string_view missing_source_attribute_for_module_block =
    "missing-source-attribute-for-module-block";
inline constexpr std::string_view missing_state_store_block_for_state_store_migration =
    "missing-state-store-block-for-state-store-migration";
inline constexpr std::string_view missing_state_store_provider_block_for_state_store_migration =
    "missing-state-store-provider-block-for-state-store-migration";
inline constexpr std::string_view missing_target_attribute = "missing-target-attribute";
inline constexpr std::string_view module_call_cycle = "module-call-cycle";
inline constexpr std::string_view module_directory_outside_the_repository = "module-directory-outside-the-repository";
inline constexpr std::string_view module_not_loaded = "module-not-loaded";
inline constexpr std::string_view module_output_in_static_context = "module-output-in-static-context";
inline constexpr std::string_view module_source_variables_not_allowed = "module-source-variables-not-allowed";
inline constexpr std::string_view module_uses_experimental_features = "module-uses-experimental-features";
inline constexpr std::string_view multiple_module_blocks = "multiple-module-blocks";
inline constexpr std::string_view multiple_plan_options_blocks = "multiple-plan-options-blocks";
inline constexpr std::string_view multiple_test_blocks = "multiple-test-blocks";
inline constexpr std::string_view multiple_variables_blocks = "multiple-variables-blocks";
inline constexpr std::string_view no_actions_specified = "no-actions-specified";
inline constexpr std::string_view no_events_specified = "no-events-specified";
inline constexpr std::string_view null_condition = "null-condition";
inline constexpr std::string_view null_value_as_key = "null-value-as-key";
inline constexpr std::string_view object_attribute_is_ignored = "object-attribute-is-ignored";
inline constexpr std::string_view object_expected = "object-expected";
inline constexpr std::string_view only_one_of_cloud_state_store_or_backend_configuration_blocks_are_allowed =
    "only-one-of-cloud-state-store-or-backend-configuration-blocks-are-allowed";
inline constexpr std::string_view operation_failed = "operation-failed";
inline constexpr std::string_view override_default_type_mismatch = "override-default-type-mismatch";
inline constexpr std::string_view override_type_invalidates_default = "override-type-invalidates-default";
inline constexpr std::string_view postconditions_are_not_allowed = "postconditions-are-not-allowed";
inline constexpr std::string_view provider_for_each_matches_instances = "provider-for-each-matches-instances";
inline constexpr std::string_view provider_function_in_static_context = "provider-function-in-static-context";
inline constexpr std::string_view provider_type_mismatch = "provider-type-mismatch";
inline constexpr std::string_view provisioner_removed = "provisioner-removed";
inline constexpr std::string_view quoted_keywords_are_deprecated = "quoted-keywords-are-deprecated";
inline constexpr std::string_view quoted_references_are_deprecated = "quoted-references-are-deprecated";
inline constexpr std::string_view reference_to_undefined_provider = "reference-to-undefined-provider";
inline constexpr std::string_view registry_source_for_null_version = "registry-source-for-null-version";
inline constexpr std::string_view reserved_argument_name_in_provider_block = "reserved-argument-name-in-provider-block";
inline constexpr std::string_view reserved_block_type_name_in_data_block = "reserved-block-type-name-in-data-block";
inline constexpr std::string_view reserved_block_type_name_in_ephemeral_block =
    "reserved-block-type-name-in-ephemeral-block";
inline constexpr std::string_view reserved_block_type_name_in_module_block = "reserved-block-type-name-in-module-block";
inline constexpr std::string_view reserved_block_type_name_in_provider_block =
    "reserved-block-type-name-in-provider-block";
inline constexpr std::string_view reserved_block_type_name_in_provisioner_block =
    "reserved-block-type-name-in-provisioner-block";
inline constexpr std::string_view reserved_block_type_name_in_resource_block =
    "reserved-block-type-name-in-resource-block";
inline constexpr std::string_view root_value_must_be_object = "root-value-must-be-object";
inline constexpr std::string_view sensitive_value_not_allowed = "sensitive-value-not-allowed";
inline constexpr std::string_view skip_cleanup_false_with_backend = "skip-cleanup-false-with-backend";
inline constexpr std::string_view splat_of_null_value = "splat-of-null-value";
inline constexpr std::string_view static_list_required = "static-list-required";
inline constexpr std::string_view static_map_required = "static-map-required";
inline constexpr std::string_view static_reference_required = "static-reference-required";
inline constexpr std::string_view too_many_diagnostics = "too-many-diagnostics";
inline constexpr std::string_view too_many_modules = "too-many-modules";
inline constexpr std::string_view unable_to_use_variable_in_static_context = "unable-to-use-variable-in-static-context";
inline constexpr std::string_view unexpected_block = "unexpected-block";
inline constexpr std::string_view unexpected_number_of_state_store_providers =
    "unexpected-number-of-state-store-providers";
inline constexpr std::string_view unexpected_provider_alias = "unexpected-provider-alias";
inline constexpr std::string_view unknown_experiment_keyword = "unknown-experiment-keyword";
inline constexpr std::string_view unknown_module_source = "unknown-module-source";
inline constexpr std::string_view unknown_variable = "unknown-variable";
inline constexpr std::string_view unsuitable_value_type = "unsuitable-value-type";
inline constexpr std::string_view unsupported_argument = "unsupported-argument";
inline constexpr std::string_view unsupported_block_type = "unsupported-block-type";
inline constexpr std::string_view unsupported_language_edition = "unsupported-language-edition";
inline constexpr std::string_view variable_default_not_nullable = "variable-default-not-nullable";
inline constexpr std::string_view variable_default_type_mismatch = "variable-default-type-mismatch";
inline constexpr std::string_view variables_not_allowed = "variables-not-allowed";
inline constexpr std::string_view version_constraints_inside_provider_configuration_blocks_are_deprecated =
    "version-constraints-inside-provider-configuration-blocks-are-deprecated";
inline constexpr std::string_view version_constraints_not_allowed_in_test_files =
    "version-constraints-not-allowed-in-test-files";

}  // namespace tfsift::code

namespace tfsift {

// Every code above, once.
inline constexpr std::array all_diagnostic_codes{
    code::alias_required_when_using_for_each,
    code::ambiguous_attribute_key,
    code::backend_configuration_ignored,
    code::both_a_backend_and_terraform_cloud_configuration_are_present,
    code::call_to_unknown_function,
    code::cannot_override_import_blocks,
    code::cannot_override_moved_blocks,
    code::cannot_override_provider_configuration,
    code::cant_override_postcondition_blocks,
    code::cant_override_precondition_blocks,
    code::cant_override_validations,
    code::cloud_configuration_ignored,
    code::condition_is_null,
    code::conflicting_cloud_and_state_store_configuration_blocks_are_present,
    code::conflicting_state_store_and_backend_configuration_blocks_are_present,
    code::const_variable_cannot_be_ephemeral,
    code::const_variable_cannot_be_sensitive,
    code::depends_on_override,
    code::duplicate_action,
    code::duplicate_argument,
    code::duplicate_backend_blocks,
    code::duplicate_backend_configuration,
    code::duplicate_backend_configuration_block,
    code::duplicate_config_block,
    code::duplicate_connection_block,
    code::duplicate_data,
    code::duplicate_ephemeral,
    code::duplicate_escaping_block,
    code::duplicate_event,
    code::duplicate_from_configuration_block,
    code::duplicate_import_configuration,
    code::duplicate_lifecycle_block,
    code::duplicate_list_block_names,
    code::duplicate_list_configuration,
    code::duplicate_local_value_definition,
    code::duplicate_mock_provider_block,
    code::duplicate_mock_resource_block,
    code::duplicate_module_call,
    code::duplicate_object_key,
    code::duplicate_output_definition,
    code::duplicate_override_block,
    code::duplicate_provider_address,
    code::duplicate_provider_block,
    code::duplicate_provider_configuration,
    code::duplicate_provider_meta_block,
    code::duplicate_required_providers_configuration,
    code::duplicate_resource,
    code::duplicate_run_block_names,
    code::duplicate_skip_cleanup,
    code::duplicate_state_storage_configuration,
    code::duplicate_state_store_configuration_block,
    code::duplicate_state_store_provider_configuration_block,
    code::duplicate_terraform_cloud_configurations,
    code::duplicate_test_variable,
    code::duplicate_variable_declaration,
    code::dynamic_value_in_static_context,
    code::empty_state_migration_configuration,
    code::ephemeral_value_not_allowed,
    code::error_in_function_call,
    code::experimental_test_feature,
    code::expression_too_complex,
    code::extraneous_json_object_property,
    code::extraneous_label,
    code::failed_to_read_file,
    code::failed_to_read_mock_data_directory,
    code::failed_to_read_module_directory,
    code::failed_to_read_module_manifest,
    code::function_calls_not_allowed,
    code::ignore_changes_quoted_reference,
    code::ignore_changes_quoted_wildcard,
    code::incompatible_module,
    code::incompatible_plan_options,
    code::inconsistent_conditional_result_types,
    code::inconsistent_provider_information_for_state_migration,
    code::incorrect_condition_type,
    code::incorrect_json_value_type,
    code::incorrect_key_type,
    code::ineffective_version_constraint,
    code::invalid_action_name,
    code::invalid_action_type_name,
    code::invalid_address,
    code::invalid_assert_expression,
    code::invalid_attribute,
    code::invalid_block_in_ephemeral_resource,
    code::invalid_combination_of_backend_and_state_store,
    code::invalid_combination_of_backend_and_state_store_provider,
    code::invalid_combination_of_count_and_for_each,
    code::invalid_combination_of_count_enabled_and_for_each,
    code::invalid_command_keyword,
    code::invalid_configuration_aliases_value,
    code::invalid_count_reference_in_replace_triggered_by_expression,
    code::invalid_data_resource_lifecycle_argument,
    code::invalid_data_resource_lifecycle_nested_block,
    code::invalid_data_resource_name,
    code::invalid_data_source_name,
    code::invalid_default_value_for_optional_attribute,
    code::invalid_depends_on_action_reference,
    code::invalid_deprecated_value,
    code::invalid_each_reference_in_replace_triggered_by_expression,
    code::invalid_ephemeral_resource_lifecycle_argument,
    code::invalid_ephemeral_resource_lifecycle_nested_block,
    code::invalid_ephemeral_resource_name,
    code::invalid_ephemeral_resource_type_name,
    code::invalid_event_value,
    code::invalid_expanding_argument_value,
    code::invalid_expect_failures_reference,
    code::invalid_experiment_keyword,
    code::invalid_for_condition,
    code::invalid_ignore_changes_ruleset,
    code::invalid_ignore_changes_wildcard,
    code::invalid_import_address,
    code::invalid_import_address_expression,
    code::invalid_import_block,
    code::invalid_import_configuration,
    code::invalid_import_for_each_argument,
    code::invalid_import_id_argument,
    code::invalid_import_provider_argument,
    code::invalid_import_to_expression,
    code::invalid_index,
    code::invalid_language_edition,
    code::invalid_legacy_variable_type_hint,
    code::invalid_list_block_name,
    code::invalid_list_configuration,
    code::invalid_local_value_name,
    code::invalid_mode_keyword,
    code::invalid_module_instance_name,
    code::invalid_module_source_address,
    code::invalid_module_source_reference,
    code::invalid_number_literal,
    code::invalid_object_key,
    code::invalid_on_failure_keyword,
    code::invalid_operand,
    code::invalid_output_name,
    code::invalid_override_during_value,
    code::invalid_override_target,
    code::invalid_postcondition_expression,
    code::invalid_precondition_expression,
    code::invalid_provider_configuration_alias,
    code::invalid_provider_configuration_reference,
    code::invalid_provider_instance_configuration,
    code::invalid_provider_local_name,
    code::invalid_provider_name,
    code::invalid_provider_namespace,
    code::invalid_provider_source_hostname,
    code::invalid_provider_source_string,
    code::invalid_provider_type,
    code::invalid_provider_version_in_state_store_provider_configuration_block,
    code::invalid_quoted_type_constraints,
    code::invalid_reference_from_destroy_provisioner,
    code::invalid_reference_in_replace_triggered_by_expression,
    code::invalid_registry_module_source_address,
    code::invalid_replace_triggered_by_expression,
    code::invalid_required_providers_block,
    code::invalid_required_providers_object,
    code::invalid_resource_name,
    code::invalid_resource_type_name,
    code::invalid_run_block_name,
    code::invalid_self_reference,
    code::invalid_source,
    code::invalid_source_in_state_store_provider_configuration_block,
    code::invalid_state_store_provider_object,
    code::invalid_template_directive,
    code::invalid_template_interpolation_value,
    code::invalid_test_backend_block,
    code::invalid_type_specification,
    code::invalid_variable_name,
    code::invalid_variable_validation_condition,
    code::invalid_version_constraint,
    code::invalid_when_keyword,
    code::iteration_over_non_iterable_value,
    code::iteration_over_null_value,
    code::lifecycle_unknown_member,
    code::lifecycle_value_not_literal,
    code::local_module_path_escapes_module_package,
    code::merged_default_not_nullable,
    code::merged_default_type_mismatch,
    code::missing_base_local_value_definition_to_override,
    code::missing_base_output_definition_to_override,
    code::missing_base_provider_configuration_for_override,
    code::missing_base_variable_declaration_to_override,
    code::missing_block_label,
    code::missing_data_resource_to_override,
    code::missing_module_call_to_override,
    code::missing_provider_attribute,
    code::missing_provider_block,
    code::missing_provider_definition,
    code::missing_required_argument,
    code::missing_required_provider_configuration,
    code::missing_resource_to_override,
    code::missing_source_attribute_for_module_block,
    code::missing_state_store_block_for_state_store_migration,
    code::missing_state_store_provider_block_for_state_store_migration,
    code::missing_target_attribute,
    code::module_call_cycle,
    code::module_directory_outside_the_repository,
    code::module_not_loaded,
    code::module_output_in_static_context,
    code::module_source_variables_not_allowed,
    code::module_uses_experimental_features,
    code::multiple_module_blocks,
    code::multiple_plan_options_blocks,
    code::multiple_test_blocks,
    code::multiple_variables_blocks,
    code::no_actions_specified,
    code::no_events_specified,
    code::null_condition,
    code::null_value_as_key,
    code::object_attribute_is_ignored,
    code::object_expected,
    code::only_one_of_cloud_state_store_or_backend_configuration_blocks_are_allowed,
    code::operation_failed,
    code::override_default_type_mismatch,
    code::override_type_invalidates_default,
    code::postconditions_are_not_allowed,
    code::provider_for_each_matches_instances,
    code::provider_function_in_static_context,
    code::provider_type_mismatch,
    code::provisioner_removed,
    code::quoted_keywords_are_deprecated,
    code::quoted_references_are_deprecated,
    code::reference_to_undefined_provider,
    code::registry_source_for_null_version,
    code::reserved_argument_name_in_provider_block,
    code::reserved_block_type_name_in_data_block,
    code::reserved_block_type_name_in_ephemeral_block,
    code::reserved_block_type_name_in_module_block,
    code::reserved_block_type_name_in_provider_block,
    code::reserved_block_type_name_in_provisioner_block,
    code::reserved_block_type_name_in_resource_block,
    code::root_value_must_be_object,
    code::sensitive_value_not_allowed,
    code::skip_cleanup_false_with_backend,
    code::splat_of_null_value,
    code::static_list_required,
    code::static_map_required,
    code::static_reference_required,
    code::too_many_diagnostics,
    code::too_many_modules,
    code::unable_to_use_variable_in_static_context,
    code::unexpected_block,
    code::unexpected_number_of_state_store_providers,
    code::unexpected_provider_alias,
    code::unknown_experiment_keyword,
    code::unknown_module_source,
    code::unknown_variable,
    code::unsuitable_value_type,
    code::unsupported_argument,
    code::unsupported_block_type,
    code::unsupported_language_edition,
    code::variable_default_not_nullable,
    code::variable_default_type_mismatch,
    code::variables_not_allowed,
    code::version_constraints_inside_provider_configuration_blocks_are_deprecated,
    code::version_constraints_not_allowed_in_test_files,
};

}  // namespace tfsift
