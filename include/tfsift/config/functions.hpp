// The built-in functions of the Terraform and OpenTofu languages: names,
// parameters and the release that added each, per engine. Expressions are
// checked against this table (unknown names, too few or too many arguments)
// without evaluating anything; `engine_version` picks what a release knows.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tfsift/engine.hpp"

namespace tfsift::config {

struct BuiltinFunction {
    enum class Where : std::uint8_t {
        configuration,  // callable in configuration (and the console)
        console_only,   // only in `terraform console` / `tofu console` (`type`)
    };

    std::string_view name;
    std::vector<std::string_view> params;  // the fixed parameters, in order
    std::string_view variadic;             // the variadic parameter's name, empty when there is none
    const char* terraform_since;           // the first Terraform release with it; null: not in Terraform
    const char* opentofu_since;            // the first OpenTofu release with it; null: not in OpenTofu
    Where where = Where::configuration;

    [[nodiscard]] bool is_variadic() const { return !variadic.empty(); }
    // The parameter names the engine uses (they differ for `templatestring`).
    [[nodiscard]] std::span<const std::string_view> params_for(Engine engine) const;
    // The release of `engine` that added the function, null when it has none.
    [[nodiscard]] const char* since(Engine engine) const {
        return engine == Engine::opentofu ? opentofu_since : terraform_since;
    }
};

// Every built-in function of either engine, sorted by name.
std::span<const BuiltinFunction> builtin_functions();

// The function named `name` (no `core::` prefix), or null when neither
// engine has one of that name.
const BuiltinFunction* find_builtin_function(std::string_view name);

// Whether `engine` at `version` (e.g. "1.9.5"; nullopt: its newest release)
// can call `fn` from configuration.
bool function_available(const BuiltinFunction& fn, Engine engine, std::optional<std::string_view> version);

}  // namespace tfsift::config
