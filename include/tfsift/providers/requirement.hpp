// What a configuration requires of one provider, as far as a lock file
// cares: the provider and every version constraint on it. The module tree
// collects these (config/tree_requirements.hpp); lock repair reads them.
#pragma once

#include <map>

#include "tfsift/providers/address.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::providers {

struct ProviderRequirement {
    Provider provider;
    VersionConstraints constraints;  // every module's, concatenated
    bool from_state = false;         // (also) used by a resource in the state
};

using ProviderRequirements = std::map<Provider, ProviderRequirement>;

}  // namespace tfsift::providers
