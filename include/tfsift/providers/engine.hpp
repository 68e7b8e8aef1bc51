// Which tool tfsift emulates. Terraform and OpenTofu agree on almost all
// provider behaviour; every place that differs takes an Engine.
#pragma once

#include <cstdint>
#include <string_view>

namespace tfsift::providers {

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

}  // namespace tfsift::providers
