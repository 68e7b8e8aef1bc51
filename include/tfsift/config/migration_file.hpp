// A state migration file (`*.tfmigrate.hcl`; Terraform v1.16, experimental
// builds): where a module's state was kept before its current `backend` or
// `state_store`, for `terraform state migrate`. Its `from` block holds the
// old `backend` or `state_store` block; a `state_store_provider` block names
// the exact provider release that old state store needs. Terraform reads
// every such file of the module directory and combines them; tfsift reads
// them with their module and checks them as that loader does. They are not
// configuration: nothing in them is a use of a declaration or a requirement
// of the module. OpenTofu has no state migration files.
#pragma once

#include <optional>
#include <string>

#include "tfsift/config/config_file.hpp"

namespace tfsift::config {

// The one entry of a `state_store_provider` block: `NAME = { source, version }`.
struct MigrationProvider {
    std::string local_name;
    std::string type;  // the type part of `source` ("aws" of "hashicorp/aws"); empty without a source
    bool has_source = false;
    Range decl_range;  // the whole `NAME = {...}` entry, where Terraform points
};

// The `backend` or `state_store` block of a `from` block.
struct MigrationSource {
    std::string type;           // the block's label: "s3"
    std::string provider_name;  // a state store's nested `provider` block label; empty for a backend
    Range def_range;
    Range from_range;  // the `from` block that holds it
};

struct MigrationFile {
    const SourceFile* source = nullptr;
    // What the file contributes to the module's migration instructions: the
    // first of each that decoded without errors, as Terraform keeps it.
    std::optional<MigrationProvider> provider;
    std::optional<MigrationSource> state_store;
    std::optional<MigrationSource> backend;
};

}  // namespace tfsift::config
