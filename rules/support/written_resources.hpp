// The `resource` and `data` blocks of one file as they are written, with what
// the lifecycle rules need to see that the decoded model drops: every member
// of a `lifecycle` block (unknown ones included) with its exact ranges, and
// where each provisioner's `when` is set. Native and JSON syntax alike.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/config/model.hpp"
#include "tfsift/source.hpp"

namespace tfsift::config {
struct LoadDiagnostic;
struct ParsedFile;
}  // namespace tfsift::config

namespace tfsift::lint::written {

// An argument or a nested block directly inside a `lifecycle` block.
struct LifecycleMember {
    std::string name;  // argument name or block type
    bool is_block = false;
    Range name_range;
    Range range;                             // the whole member
    std::optional<config::Expression> expr;  // arguments only
};

struct LifecycleBlock {
    Range type_range;  // the `lifecycle` keyword (JSON: its property name)
    Range range;
    std::vector<LifecycleMember> members;  // source order

    [[nodiscard]] const LifecycleMember* argument(std::string_view name) const;
};

struct ProvisionerBlock {
    std::string type;
    Pos origin;                 // as config::Provisioner::origin.pos
    Range def_range;            // `provisioner "type"` (JSON: the type's property name)
    std::optional<Range> when;  // the `when` argument, when written
};

struct ResourceBlock {
    config::ResourceMode mode = config::ResourceMode::managed;
    std::string type;
    std::string name;
    Range def_range;
    std::vector<LifecycleBlock> lifecycles;  // normally at most one
    std::vector<ProvisionerBlock> provisioners;
};

// The resource and data blocks of a parsed configuration file, source order.
// Several rules ask this of every file of the module they check: while
// lint_module's ModuleMemo lives each file's blocks are read once and shared.
std::shared_ptr<const std::vector<ResourceBlock>> resource_blocks(const config::ParsedFile& file);

// Where a position falls inside a lifecycle block of a file.
struct LifecycleSite {
    const ResourceBlock* resource = nullptr;
    const LifecycleBlock* lifecycle = nullptr;
    const LifecycleMember* member = nullptr;  // null: between members
};
std::optional<LifecycleSite> lifecycle_site(const std::vector<ResourceBlock>& blocks, Pos pos);

// `resource "TYPE" "NAME"` or `data "TYPE" "NAME"`, as messages name a block.
std::string block_label(config::ResourceMode mode, std::string_view type, std::string_view name);

}  // namespace tfsift::lint::written
