// Combining a module's files into one Module: primary files first (with
// Terraform's duplicate-declaration errors), then each override file in load
// order, merged block by block as Terraform's config loader does (seed 000
// and the merge-rules table of the effective configuration spec).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "tfsift/config/config_file.hpp"
#include "tfsift/diagnostic.hpp"

namespace tfsift::config {

class OverrideMerger {
public:
    // Adds a primary file. Primary files must all come before any override.
    void add_primary(const ConfigFile& file);
    // Applies an override file on top of everything added so far.
    void apply_override(const ConfigFile& file);

    // The effective module, with every resource's provider assigned from the
    // final required_providers.
    [[nodiscard]] Module finish();

    [[nodiscard]] const Diagnostics& diagnostics() const { return diags_; }

private:
    void error(const SourceFile* file, Range subject, std::string_view code, std::string summary, std::string detail);

    Module module_;
    bool have_required_providers_block_ = false;
    Origin required_providers_origin_;
    Diagnostics diags_;
};

// Merges the override body `over` into `base`: arguments replace arguments of
// the same name; an override nested block type (where `dynamic "T"` counts as
// `T`) hides every base block of that type, and the override's blocks follow
// the surviving base blocks.
void merge_body(Body& base, const Body& over);

// Decides the undecided JSON properties of `body` (the spec's "Bodies"
// rule): `//` is skipped, `dynamic` gives dynamic blocks, a name in
// `block_types` (the block types a native-syntax body of the same merge
// uses) gives nested blocks, anything else is an argument. Inside blocks
// made from JSON only `dynamic` (and `content` in a dynamic block) are blocks.
void resolve_json_body(Body& body, const std::set<std::string, std::less<>>& block_types);

// The block type a nested block counts as for merging: the label of a
// `dynamic` block, the type otherwise.
std::string_view merge_type_of(const NestedBlock& block);

// The provider local name a resource type implies: the type up to its first
// underscore.
std::string implied_provider_name(std::string_view resource_type);

// The fully qualified default address for a provider local name with no
// required_providers entry.
std::string default_provider_source(std::string_view local_name);

}  // namespace tfsift::config
