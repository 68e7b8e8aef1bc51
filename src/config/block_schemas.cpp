#include "tfsift/config/block_schemas.hpp"

#include <cstring>

namespace tfsift::config {

namespace {

constexpr std::string_view no_labels_[] = {""};
constexpr std::span<const std::string_view> no_labels{no_labels_, 0};
constexpr std::string_view name_label[] = {"name"};
constexpr std::string_view type_label[] = {"type"};
constexpr std::string_view type_name_labels[] = {"type", "name"};
constexpr std::string_view provider_label[] = {"provider"};

// ---- top level ----------------------------------------------------------------
constexpr BlockHeaderSchema file_blocks[] = {
    {"terraform", no_labels},
    {"tofu", no_labels},                // OpenTofu's name for `terraform`; rejected for Terraform by the decoder
    {"required_providers", no_labels},  // only valid inside terraform; decoded to give Terraform's error
    {"provider", name_label},
    {"variable", name_label},
    {"locals", no_labels},
    {"output", name_label},
    {"module", name_label},
    {"resource", type_name_labels},
    {"data", type_name_labels},
    {"moved", no_labels},
    {"import", no_labels},
    {"check", name_label},
    {"removed", no_labels},
    {"language", no_labels},          // OpenTofu 1.12; rejected for Terraform by the decoder
    {"ephemeral", type_name_labels},  // ephemeral resources (OpenTofu; Terraform since v1.10)
    {"action", type_name_labels},     // Terraform v1.14; rejected for OpenTofu by the decoder
};

// OpenTofu's `language` block. `compatible_with` is read without a schema:
// OpenTofu ignores every argument there except `opentofu`.
constexpr AttributeSchema language_attrs[] = {{"edition"}, {"experiments"}};
constexpr BlockHeaderSchema language_blocks[] = {{"compatible_with", no_labels}};

constexpr AttributeSchema terraform_attrs[] = {{"required_version"}, {"experiments"}, {"language"}};
constexpr BlockHeaderSchema terraform_blocks[] = {
    {"backend", type_label},           {"cloud", no_labels},        {"required_providers", no_labels},
    {"provider_meta", provider_label}, {"state_store", type_label},  // Terraform v1.14 (experimental); rejected for
                                                                     // OpenTofu by the decoder
};

// A `state_store` names the provider that implements it in one nested block;
// the rest of its body is the store's own configuration.
constexpr BlockHeaderSchema state_store_blocks[] = {{"provider", type_label}};

constexpr AttributeSchema provider_attrs[] = {{"alias"},      {"version"},  {"count"},
                                              {"depends_on"}, {"for_each"}, {"source"}};
// `lifecycle` and `locals` are reserved for future use: named so that using
// them gives Terraform's "Reserved block type name" error.
constexpr BlockHeaderSchema provider_blocks[] = {{"_", no_labels}, {"lifecycle", no_labels}, {"locals", no_labels}};

// `ephemeral`, `deprecated` and `const` are newer than Terraform v1.3; they
// are accepted (and not part of the effective document).
constexpr AttributeSchema variable_attrs[] = {{"description"}, {"default"},   {"type"},       {"sensitive"},
                                              {"nullable"},    {"ephemeral"}, {"deprecated"}, {"const"}};
constexpr BlockHeaderSchema variable_blocks[] = {{"validation", no_labels}};

constexpr AttributeSchema check_rule_attrs[] = {{"condition", true}, {"error_message", true}};

// `type` is Terraform's (v1.15); the decoder rejects it for OpenTofu.
constexpr AttributeSchema output_attrs[] = {{"description"}, {"value", true}, {"depends_on"}, {"sensitive"},
                                            {"ephemeral"},   {"deprecated"},  {"type"}};
constexpr BlockHeaderSchema output_blocks[] = {{"precondition", no_labels}, {"postcondition", no_labels}};
// OpenTofu v1.11's `enabled` is the only argument a module's lifecycle takes.
constexpr AttributeSchema module_lifecycle_attrs[] = {{"enabled"}};

// `ignore_nested_deprecations` is Terraform's (v1.15).
constexpr AttributeSchema module_attrs[] = {{"source", true},
                                            {"version"},
                                            {"count"},
                                            {"for_each"},
                                            {"depends_on"},
                                            {"providers"},
                                            {"ignore_nested_deprecations"}};
constexpr BlockHeaderSchema module_blocks[] = {
    {"_", no_labels}, {"lifecycle", no_labels}, {"locals", no_labels}, {"provider", type_label}};

constexpr AttributeSchema resource_attrs[] = {{"count"}, {"for_each"}, {"provider"}, {"depends_on"}};
constexpr BlockHeaderSchema managed_blocks[] = {
    {"locals", no_labels},       {"lifecycle", no_labels}, {"connection", no_labels},
    {"provisioner", type_label}, {"_", no_labels},
};
constexpr BlockHeaderSchema data_blocks[] = {{"locals", no_labels}, {"lifecycle", no_labels}, {"_", no_labels}};
// Connection and provisioner blocks are named so that writing them in an
// ephemeral resource is an error rather than part of its configuration.
constexpr BlockHeaderSchema ephemeral_blocks[] = {
    {"locals", no_labels},       {"lifecycle", no_labels}, {"connection", no_labels},
    {"provisioner", type_label}, {"_", no_labels},
};

// `destroy` (Terraform v1.16 and OpenTofu v1.12) and `enabled` (OpenTofu
// v1.11) are newer than the reference loader; `action_trigger` (Terraform
// v1.14) belongs to managed resources only, the decoders reject it elsewhere.
constexpr AttributeSchema managed_lifecycle_attrs[] = {
    {"create_before_destroy"}, {"prevent_destroy"}, {"ignore_changes"},
    {"replace_triggered_by"},  {"destroy"},         {"enabled"}};
constexpr BlockHeaderSchema condition_blocks[] = {
    {"precondition", no_labels}, {"postcondition", no_labels}, {"action_trigger", no_labels}};

// Terraform v1.14: an action is configured in its one `config` block.
constexpr AttributeSchema action_attrs[] = {{"count"}, {"for_each"}, {"provider"}};
constexpr BlockHeaderSchema action_blocks[] = {{"config", no_labels}};
constexpr AttributeSchema action_trigger_attrs[] = {{"events", true}, {"condition"}, {"actions", true}, {"on_failure"}};

constexpr AttributeSchema provisioner_attrs[] = {{"when"}, {"on_failure"}};
constexpr BlockHeaderSchema provisioner_blocks[] = {
    {"connection", no_labels}, {"lifecycle", no_labels}, {"_", no_labels}};

constexpr AttributeSchema dynamic_attrs[] = {{"for_each", true}, {"iterator"}, {"labels"}};
constexpr BlockHeaderSchema dynamic_blocks[] = {{"content", no_labels}};

constexpr AttributeSchema moved_attrs[] = {{"from", true}, {"to", true}};
constexpr AttributeSchema import_attrs[] = {{"id", true}, {"to", true}, {"provider"}, {"for_each"}};
// Terraform v1.12 imports by `identity` as an alternative to `id`: exactly
// one of the two, which the decoder checks.
constexpr AttributeSchema terraform_import_attrs[] = {{"id"}, {"to", true}, {"provider"}, {"for_each"}, {"identity"}};
constexpr AttributeSchema removed_attrs[] = {{"from", true}};
constexpr BlockHeaderSchema removed_blocks[] = {
    {"lifecycle", no_labels}, {"provisioner", type_label}, {"connection", no_labels}};
constexpr AttributeSchema removed_lifecycle_attrs[] = {{"destroy"}};
constexpr BlockHeaderSchema check_blocks[] = {{"data", type_name_labels}, {"assert", no_labels}};

// ---- test files (`terraform test`, `tofu test`) ------------------------------------
// Terraform reads the optional `test` block first, then the rest of the file;
// `variable` blocks in test files are Terraform's. OpenTofu has neither.
constexpr BlockHeaderSchema terraform_test_file_blocks[] = {
    {"test", no_labels},
    {"run", name_label},
    {"provider", name_label},
    {"mock_provider", name_label},
    {"variable", name_label},
    {"variables", no_labels},
    {"override_resource", no_labels},
    {"override_data", no_labels},
    {"override_module", no_labels},
};
constexpr BlockHeaderSchema opentofu_test_file_blocks[] = {
    {"run", name_label},           {"provider", name_label},
    {"variables", no_labels},      {"override_resource", no_labels},
    {"override_data", no_labels},  {"override_module", no_labels},
    {"mock_provider", name_label},
};
constexpr AttributeSchema test_config_attrs[] = {{"parallel"}, {"skip_cleanup"}};
constexpr AttributeSchema terraform_test_run_attrs[] = {{"command"},   {"providers"}, {"expect_failures"},
                                                        {"state_key"}, {"parallel"},  {"skip_cleanup"}};
constexpr BlockHeaderSchema terraform_test_run_blocks[] = {
    {"plan_options", no_labels},      {"assert", no_labels},
    {"variables", no_labels},         {"module", no_labels},
    {"override_resource", no_labels}, {"override_data", no_labels},
    {"override_module", no_labels},   {"backend", name_label},
};
constexpr AttributeSchema opentofu_test_run_attrs[] = {{"command"}, {"providers"}, {"expect_failures"}};
constexpr BlockHeaderSchema opentofu_test_run_blocks[] = {
    {"plan_options", no_labels},      {"assert", no_labels},
    {"variables", no_labels},         {"module", no_labels},
    {"override_resource", no_labels}, {"override_data", no_labels},
    {"override_module", no_labels},
};
constexpr AttributeSchema test_plan_options_attrs[] = {{"mode"}, {"refresh"}, {"replace"}, {"target"}};
constexpr AttributeSchema test_run_module_attrs[] = {{"source"}, {"version"}};
constexpr AttributeSchema terraform_override_resource_attrs[] = {{"target"}, {"override_during"}, {"values"}};
constexpr AttributeSchema terraform_override_module_attrs[] = {{"target"}, {"override_during"}, {"outputs"}};
constexpr AttributeSchema opentofu_override_resource_attrs[] = {{"target", true}, {"values"}};
constexpr AttributeSchema opentofu_override_module_attrs[] = {{"target", true}, {"outputs"}};
constexpr AttributeSchema terraform_mock_provider_attrs[] = {{"alias"}, {"source"}, {"override_during"}};
constexpr AttributeSchema opentofu_mock_provider_attrs[] = {{"alias"}, {"for_each"}};
constexpr BlockHeaderSchema mock_provider_blocks[] = {
    {"mock_resource", type_label},
    {"mock_data", type_label},
    {"override_resource", no_labels},
    {"override_data", no_labels},
};
constexpr AttributeSchema terraform_mock_resource_attrs[] = {{"defaults"}, {"override_during"}};
constexpr AttributeSchema opentofu_mock_resource_attrs[] = {{"defaults"}};

// ---- query files (`terraform query`, Terraform v1.14) ----------------------------
constexpr BlockHeaderSchema query_file_blocks[] = {
    {"list", type_name_labels},
    {"provider", name_label},
    {"locals", no_labels},
    {"variable", name_label},
};
constexpr AttributeSchema query_list_attrs[] = {{"count"}, {"for_each"}, {"provider"}, {"include_resource"}, {"limit"}};
constexpr BlockHeaderSchema query_list_blocks[] = {{"config", no_labels}};

// ---- state migration files (`terraform state migrate`, Terraform v1.16) -----------
constexpr BlockHeaderSchema migration_file_blocks[] = {
    {"state_store_provider", no_labels},
    {"from", no_labels},
};
constexpr BlockHeaderSchema migration_from_blocks[] = {
    {"state_store", type_label},
    {"backend", type_label},
};

}  // namespace

namespace schema {
const BodySchema file{"file", {}, file_blocks, false};
const BodySchema terraform{"terraform", terraform_attrs, terraform_blocks, false};
const BodySchema language{"language", language_attrs, language_blocks, false};
const BodySchema provider{"provider", provider_attrs, provider_blocks, true};
const BodySchema variable{"variable", variable_attrs, variable_blocks, false};
const BodySchema validation{"validation", check_rule_attrs, {}, false};
const BodySchema output{"output", output_attrs, output_blocks, false};
const BodySchema module_call{"module", module_attrs, module_blocks, true};
const BodySchema resource{"resource", resource_attrs, managed_blocks, true};
const BodySchema data{"data", resource_attrs, data_blocks, true};
const BodySchema ephemeral{"ephemeral", resource_attrs, ephemeral_blocks, true};
const BodySchema action{"action", action_attrs, action_blocks, false};
const BodySchema action_trigger{"action_trigger", action_trigger_attrs, {}, false};
const BodySchema state_store{"state_store", {}, state_store_blocks, true};
const BodySchema module_lifecycle{"lifecycle", module_lifecycle_attrs, {}, false};
const BodySchema managed_lifecycle{"lifecycle", managed_lifecycle_attrs, condition_blocks, false};
// Terraform decodes a data resource's lifecycle with the managed schema and
// then rejects each argument it finds.
const BodySchema data_lifecycle{"lifecycle", managed_lifecycle_attrs, condition_blocks, false};
const BodySchema provisioner{"provisioner", provisioner_attrs, provisioner_blocks, true};
const BodySchema dynamic{"dynamic", dynamic_attrs, dynamic_blocks, false};
const BodySchema moved{"moved", moved_attrs, {}, false};
const BodySchema import{"import", import_attrs, {}, false};
const BodySchema terraform_import{"import", terraform_import_attrs, {}, false};
const BodySchema removed{"removed", removed_attrs, removed_blocks, false};
const BodySchema removed_lifecycle{"lifecycle", removed_lifecycle_attrs, {}, false};
const BodySchema check{"check", {}, check_blocks, false};
const BodySchema terraform_test_file{"test file", {}, terraform_test_file_blocks, false};
const BodySchema opentofu_test_file{"test file", {}, opentofu_test_file_blocks, false};
const BodySchema test_config{"test", test_config_attrs, {}, false};
const BodySchema terraform_test_run{"run", terraform_test_run_attrs, terraform_test_run_blocks, false};
const BodySchema opentofu_test_run{"run", opentofu_test_run_attrs, opentofu_test_run_blocks, false};
const BodySchema test_plan_options{"plan_options", test_plan_options_attrs, {}, false};
const BodySchema test_run_module{"module", test_run_module_attrs, {}, false};
const BodySchema test_backend{"backend", {}, {}, true};
const BodySchema terraform_override_resource{"override_resource", terraform_override_resource_attrs, {}, false};
const BodySchema terraform_override_module{"override_module", terraform_override_module_attrs, {}, false};
const BodySchema opentofu_override_resource{"override_resource", opentofu_override_resource_attrs, {}, false};
const BodySchema opentofu_override_module{"override_module", opentofu_override_module_attrs, {}, false};
const BodySchema terraform_mock_provider{"mock_provider", terraform_mock_provider_attrs, mock_provider_blocks, false};
const BodySchema opentofu_mock_provider{"mock_provider", opentofu_mock_provider_attrs, mock_provider_blocks, false};
const BodySchema terraform_mock_resource{"mock_resource", terraform_mock_resource_attrs, {}, false};
const BodySchema opentofu_mock_resource{"mock_resource", opentofu_mock_resource_attrs, {}, false};
// A mock data file holds what a mock provider block may hold, without its
// arguments.
const BodySchema mock_data_file{"mock data file", {}, mock_provider_blocks, false};
const BodySchema query_file{"query file", {}, query_file_blocks, false};
const BodySchema query_list{"list", query_list_attrs, query_list_blocks, false};
const BodySchema migration_file{"state migration file", {}, migration_file_blocks, false};
const BodySchema migration_from{"from", {}, migration_from_blocks, false};
}  // namespace schema

namespace {

// Schema names are a handful of short words, and every argument and nested
// block of every decoded body is looked up here: the length and the first
// byte rule out nearly every candidate before any bytes are compared.
bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && (a.empty() || (a[0] == b[0] && std::memcmp(a.data(), b.data(), a.size()) == 0));
}

}  // namespace

const AttributeSchema* find_attribute(const BodySchema& s, std::string_view name) {
    for (const auto& a : s.attributes) {
        if (same_name(a.name, name)) return &a;
    }
    return nullptr;
}

const BlockHeaderSchema* find_block(const BodySchema& s, std::string_view type) {
    for (const auto& b : s.blocks) {
        if (same_name(b.type, type)) return &b;
    }
    return nullptr;
}

}  // namespace tfsift::config
