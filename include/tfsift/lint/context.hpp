// What a rule's check sees: one module of the configuration.
#pragma once

#include <span>
#include <string>

#include "tfsift/hcl/ast.hpp"

namespace tfsift::config {
// The effective configuration of the module tree with override origins. It is
// defined by the configuration loader (include/tfsift/config/), which is being
// written separately; the linter only passes it through to the rules.
class ModuleTree;
}  // namespace tfsift::config

namespace tfsift::lint {

// Which program will run the configuration. It decides the default registry
// host and which OpenTofu-only file rules apply.
enum class EngineFlavour : std::uint8_t { terraform, opentofu };

std::string_view to_string(EngineFlavour e);

// Whether other modules of the scan call this one (`--recursive` tells them
// apart by following local module sources). Rules for shared modules differ
// from rules for root modules.
enum class ModuleRole : std::uint8_t { root, called };

struct LintContext {
    std::string module_dir;               // the module's directory, as the user named it
    ModuleRole role = ModuleRole::root;
    std::span<const hcl::File> files;     // every parsed file of the module, with comments
    EngineFlavour engine = EngineFlavour::terraform;

    // The loaded and merged module tree. Null until the configuration loader
    // provides it; rules that need it must check and skip.
    const config::ModuleTree* module_tree = nullptr;
};

}  // namespace tfsift::lint
