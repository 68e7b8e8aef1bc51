// Choosing the version of one provider to install, as `init` does
// (spec 2.7): the lock file's version is kept while it satisfies the
// constraints, otherwise the newest acceptable available version wins.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::providers {

struct SelectionRequest {
    Provider provider;
    VersionConstraints constraints;  // merged from every module (spec 2.6)
    std::vector<Version> available;  // as the source lists them
    std::optional<Version> locked;   // the lock file entry's version
    bool upgrade = false;            // `init -upgrade`
    Engine engine = Engine::terraform;
};

struct SelectionResult {
    std::optional<Version> selected;
    std::string error;  // the installer's own message
};

[[nodiscard]] SelectionResult select_provider_version(const SelectionRequest& request);

}  // namespace tfsift::providers
