// One configuration file decoded into the model, before any merging. Blocks
// are kept as lists in source order: an override file may legitimately name
// the same object twice, and duplicates among primary files are reported
// when the files are combined.
#pragma once

#include <optional>
#include <vector>

#include "tfsift/config/model.hpp"

namespace tfsift::config {

// One `required_providers` block.
struct RequiredProvidersBlock {
    std::vector<RequiredProvider> entries;  // source order
    Origin origin;
    Range def_range;
};

// One `terraform` block.
struct TerraformBlock {
    std::optional<RequiredVersion> required_version;
    Range required_version_range;
    std::vector<RequiredProvidersBlock> required_providers;
    std::vector<Backend> backends;
    std::vector<Range> backend_ranges;  // def ranges, parallel to backends
    std::vector<Backend> clouds;
    std::vector<Range> cloud_ranges;
    std::vector<Backend> state_stores;               // Terraform's `state_store`
    std::vector<std::string> state_store_providers;  // parallel: the nested provider block's name
    std::vector<Range> state_store_ranges;
    std::vector<ProviderMeta> provider_metas;
    std::vector<std::string> experiments;
    Origin origin;
};

// Where a top-level block header was written, for diagnostics: hcl's
// DefRange (type keyword through last label).
struct Declared {
    Range def_range;
};

struct ConfigFile {
    const SourceFile* source = nullptr;
    bool is_override = false;

    std::vector<TerraformBlock> terraform;
    std::vector<std::pair<Provider, Declared>> providers;
    std::vector<std::pair<Variable, Declared>> variables;
    std::vector<std::pair<Local, Declared>> locals;  // Declared: the name's range
    std::vector<std::pair<Output, Declared>> outputs;
    std::vector<std::pair<ModuleCall, Declared>> module_calls;
    std::vector<std::pair<Resource, Declared>> resources;  // managed and data, source order
    std::vector<std::pair<Resource, Declared>> others;     // ephemeral resources and actions, source order
    std::vector<std::pair<Moved, Declared>> moved;
    std::vector<std::pair<Import, Declared>> imports;
};

}  // namespace tfsift::config
