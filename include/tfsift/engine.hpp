// Which program will run the configuration: Terraform or OpenTofu. They agree
// on almost everything; every place that differs (file names, the default
// registry host, lock file headers, OpenTofu-only language features) takes an
// Engine.
#pragma once

#include <cstdint>
#include <string_view>

namespace tfsift {

enum class Engine : std::uint8_t { terraform, opentofu };

// The registry host assumed when a source address omits its hostname.
[[nodiscard]] constexpr std::string_view default_registry_host(Engine engine) {
    return engine == Engine::opentofu ? "registry.opentofu.org" : "registry.terraform.io";
}

// The product name used in messages ("Terraform" / "OpenTofu").
[[nodiscard]] constexpr std::string_view product_name(Engine engine) {
    return engine == Engine::opentofu ? "OpenTofu" : "Terraform";
}

// The command users type ("terraform" / "tofu").
[[nodiscard]] constexpr std::string_view command_name(Engine engine) {
    return engine == Engine::opentofu ? "tofu" : "terraform";
}

// The name used in settings files and on the command line.
[[nodiscard]] constexpr std::string_view to_string(Engine engine) {
    return engine == Engine::opentofu ? "opentofu" : "terraform";
}

}  // namespace tfsift

namespace tfsift::providers {
using tfsift::Engine;
}  // namespace tfsift::providers

namespace tfsift::config {
using tfsift::Engine;
}  // namespace tfsift::config
