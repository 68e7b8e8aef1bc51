// What each Terraform block type may contain, in one place: one body schema
// per block type, as hcl's BodySchema values in Terraform's internal/configs.
// A "partial" schema leaves everything it does not name to the body (the
// provider's or module's own arguments); the decoders take the named
// meta-arguments out and keep the rest as the block's config body.
#pragma once

#include <span>
#include <string_view>

namespace tfsift::config {

struct AttributeSchema {
    std::string_view name;
    bool required = false;
};

struct BlockHeaderSchema {
    std::string_view type;
    std::span<const std::string_view> label_names;  // empty: no labels
};

struct BodySchema {
    std::string_view what;  // the block it describes, for messages: "resource", "lifecycle", ...
    std::span<const AttributeSchema> attributes;
    std::span<const BlockHeaderSchema> blocks;
    bool partial = false;  // other arguments and blocks belong to the body
};

namespace schema {
extern const BodySchema file;  // top level of a configuration file
extern const BodySchema terraform;
extern const BodySchema language;  // OpenTofu
extern const BodySchema provider;
extern const BodySchema variable;
extern const BodySchema validation;  // also precondition, postcondition, assert
extern const BodySchema output;
extern const BodySchema module_call;
extern const BodySchema resource;
extern const BodySchema data;
extern const BodySchema ephemeral;
extern const BodySchema action;            // Terraform
extern const BodySchema action_trigger;    // Terraform
extern const BodySchema state_store;       // Terraform
extern const BodySchema module_lifecycle;  // OpenTofu
extern const BodySchema managed_lifecycle;
extern const BodySchema data_lifecycle;
extern const BodySchema provisioner;
extern const BodySchema dynamic;
extern const BodySchema moved;
extern const BodySchema import;
extern const BodySchema terraform_import;  // with `identity`
extern const BodySchema removed;
extern const BodySchema removed_lifecycle;
extern const BodySchema check;
// Test files: Terraform's and OpenTofu's loaders differ in what they accept.
extern const BodySchema terraform_test_file;
extern const BodySchema opentofu_test_file;
extern const BodySchema test_config;  // Terraform's `test` block
extern const BodySchema terraform_test_run;
extern const BodySchema opentofu_test_run;
extern const BodySchema test_plan_options;
extern const BodySchema test_run_module;
extern const BodySchema test_backend;                 // a run's `backend`: all of it is the backend's configuration
extern const BodySchema terraform_override_resource;  // also override_data
extern const BodySchema terraform_override_module;
extern const BodySchema opentofu_override_resource;
extern const BodySchema opentofu_override_module;
extern const BodySchema terraform_mock_provider;
extern const BodySchema opentofu_mock_provider;
extern const BodySchema terraform_mock_resource;  // also mock_data
extern const BodySchema opentofu_mock_resource;
extern const BodySchema mock_data_file;  // `*.tfmock.hcl` (Terraform)
extern const BodySchema query_file;      // `*.tfquery.hcl` (Terraform v1.14)
extern const BodySchema query_list;      // a query file's `list` block
extern const BodySchema migration_file;  // `*.tfmigrate.hcl` (Terraform v1.16)
extern const BodySchema migration_from;  // a migration file's `from` block
}  // namespace schema

// The attribute or block header named `name` in `schema`, or nullptr.
const AttributeSchema* find_attribute(const BodySchema& schema, std::string_view name);
const BlockHeaderSchema* find_block(const BodySchema& schema, std::string_view type);

}  // namespace tfsift::config
