// The providers a module tree requires, with every version constraint
// combined across its modules (spec 2.3, 2.6): `required_providers` entries,
// the legacy `version` of `provider` blocks, and the providers that
// resources, data sources and provider blocks imply. Each requirement
// remembers where it comes from, so rules can point at it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/requirement.hpp"
#include "tfsift/providers/state_file.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::config {

// One place that requires a provider.
struct RequirementSite {
    const LoadedModule* module = nullptr;  // the module that writes it
    Origin origin;                         // the entry, block or resource
    std::string root_call;                 // the root module's call leading there; "" when in the root module
    std::string constraints_text;          // as written, "" when it adds none
};

// A provider requirement with the places that make it.
struct TreeRequirement : providers::ProviderRequirement {
    std::vector<RequirementSite> sites;
};

using TreeRequirements = std::map<providers::Provider, TreeRequirement>;

// The provider a module's local name stands for: its `required_providers`
// source, else the implied `hashicorp/NAME` on the engine's default host.
[[nodiscard]] std::optional<providers::Provider> resolve_local_name(const Module& module, std::string_view local_name,
                                                                    Engine engine);

// Every provider the tree below `root` (included) requires. Built-in and
// legacy providers are included; callers filter with Provider::is_lockable.
// Constraints that do not parse are left out (other rules report them).
[[nodiscard]] TreeRequirements collect_tree_requirements(const LoadedModule& root, Engine engine);

// The module calls of the tree whose module is not loaded (remote sources,
// which `terraform init` would install, or local paths that cannot be read),
// as "module.a.module.b": while there are any, the requirements are only a
// lower bound (a provider or constraint may come from those modules).
[[nodiscard]] std::vector<std::string> unloaded_module_calls(const LoadedModule& root);

// Adds the providers the state's resources use (with no constraints), as
// `init` does (spec 3.7).
void add_state_requirements(TreeRequirements& requirements, const providers::StateFile& state);

// The requirements without their sites, as lock repair takes them.
[[nodiscard]] providers::ProviderRequirements lock_requirements(const TreeRequirements& requirements);

}  // namespace tfsift::config
