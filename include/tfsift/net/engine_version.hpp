// The engine version tfsift speaks for on the network.
#pragma once

#include <string_view>

#include "tfsift/engine.hpp"

namespace tfsift {

// Sent as X-Terraform-Version unless `.tfsift.toml` names `engine_version`:
// Terraform v1.5.7, the last MPL-licensed release whose behaviour tfsift
// follows, and OpenTofu v1.6.0, which forked from it. `tfsift --version`
// prints both.
[[nodiscard]] constexpr std::string_view default_engine_version(Engine engine) {
    return engine == Engine::opentofu ? "1.6.0" : "1.5.7";
}

}  // namespace tfsift
