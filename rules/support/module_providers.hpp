// What the rules about providers within modules (seed 001) need to know of a
// module: which provider blocks configure something, which default provider
// configurations a module expects from its caller, and where provider
// references were written.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/config/model.hpp"
#include "tfsift/source.hpp"

namespace tfsift::lint::rules::module_providers {

// The local name of a provider configuration address: "aws" for "aws.east".
std::string_view local_name(std::string_view config_address);

// The default (unaliased) provider configurations, by local name, that a
// module needs from its caller: those its resources and data sources use
// (by type prefix or an unaliased `provider` argument), its empty `provider`
// blocks, the unaliased configurations it passes on in `providers` maps, and
// what the modules it calls without a `providers` map need in turn (they
// inherit). Names it configures itself and the built-in `terraform` provider
// are left out. Modules that were not loaded (remote sources) add nothing.
std::set<std::string> default_providers_needed(const config::LoadedModule& module);

// True when the module can receive or use the aliased configuration
// `address` ("aws.east"): a `provider` block with that alias or an entry in
// `configuration_aliases`.
bool declares_alias(const config::Module& module, std::string_view address);

// The range of `text` written at `at`, bare or in quotes (a JSON string);
// empty at `at` when the source there reads differently.
Range written_range(const config::Origin& at, std::string_view text);

// The `provider` block a file of the module declared at `origin`: the file,
// the block as written there and its header (def range); null file and block
// when no decoded block starts there.
struct DeclaredAt {
    const config::ModuleFile* file = nullptr;
    const config::Provider* block = nullptr;  // the block as that file wrote it
    Range def_range;
};
DeclaredAt provider_declaration(const config::LoadedModule& module, const config::Origin& origin);

// Every provider block of the module and its descendants that configures
// something, with the module that holds it, in tree order.
std::vector<std::pair<const config::LoadedModule*, const config::Provider*>> configured_providers_below(
    const config::LoadedModule& module);

}  // namespace tfsift::lint::rules::module_providers
