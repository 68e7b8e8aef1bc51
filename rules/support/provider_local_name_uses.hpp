// Where a module uses provider local names outside required_providers:
// resource type prefixes, `provider` blocks, `provider` arguments, the
// values of module `providers` maps and provider-defined function calls. module-required-providers and
// resource-provider-unresolved both check these uses against the module's
// requirements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "byte_index.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::lint::rules {

enum class ProviderUseKind : std::uint8_t {
    resource_type,      // a resource or data block without `provider`: its type's prefix
    provider_block,     // provider "NAME"
    provider_argument,  // provider = NAME or NAME.ALIAS
    module_providers,   // providers = { child = NAME }
    function,           // a provider-defined function: provider::NAME::FUNCTION(...)
};

struct ProviderUse {
    std::string local_name;
    ProviderUseKind kind = ProviderUseKind::resource_type;
    std::string object;                          // what uses it, e.g. `provider "aws"`; for a resource see object_of
    const config::Resource* resource = nullptr;  // for resource_type and provider_argument
    config::Origin origin;                       // where the name is written (a block's start for blocks)
    std::size_t name_length = 0;                 // for arguments and map values: the length of the name at origin
};

// Every use in the module, ordered by file load order, then position. The
// built-in `terraform` provider is left out: it never needs a requirement.
// Shared: several rules ask for the same module's uses, and for those of
// every module it calls.
std::shared_ptr<const std::vector<ProviderUse>> provider_uses(const config::LoadedModule& module);

// What makes the use, as messages name it: `resource "aws_instance" "web"`,
// `provider "aws"`, `module "network"`. A resource's is made when asked
// (most uses are resources', and few are reported).
std::string object_of(const ProviderUse& use);

// Whether the module writes a required_providers block (even an empty one)
// in any of its files: it has opted into explicit requirements.
bool declares_requirements(const config::LoadedModule& module);

// The narrowest range for a use, in the module's own files: the type label
// of a resource, the name label of a provider block, the name of a reference.
// The module's top-level blocks are indexed at the first question, so that
// a rule that reports many uses of one module finds each range at once.
class UseRanges {
public:
    explicit UseRanges(const config::LoadedModule& module);
    Range operator()(const ProviderUse& use);

private:
    struct FileHeaders {
        ByteIndex<const hcl::Block*> blocks;  // native top-level blocks, by the byte their type starts at
        ByteIndex<Range> decoded;             // resources, other blocks and providers, by their origin
    };

    void index();
    Range header(const config::Origin& origin, std::size_t label_index);

    const config::LoadedModule& module_;
    bool indexed_ = false;
    std::unordered_map<const SourceFile*, FileHeaders> by_file_;
};

// The same for one use (a module's blocks searched once).
Range use_range(const config::LoadedModule& module, const ProviderUse& use);

}  // namespace tfsift::lint::rules
