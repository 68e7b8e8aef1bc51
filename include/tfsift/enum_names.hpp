// Reading back the names that `to_string` gives engines (engine.hpp) and
// severities (diagnostic.hpp), as the command line and the settings file
// write them: one parser for each, wherever a name is read.
#pragma once

#include <optional>
#include <string_view>

#include "tfsift/diagnostic.hpp"
#include "tfsift/engine.hpp"

namespace tfsift {

// The engine of that name ("terraform" / "opentofu"); nullopt for anything else.
[[nodiscard]] constexpr std::optional<Engine> parse_engine(std::string_view name) {
    if (name == to_string(Engine::terraform)) return Engine::terraform;
    if (name == to_string(Engine::opentofu)) return Engine::opentofu;
    return std::nullopt;
}

// The severity named "error", "warning" or "notice"; nullopt for anything else.
[[nodiscard]] inline std::optional<Severity> parse_severity(std::string_view name) {
    for (Severity s : {Severity::error, Severity::warning, Severity::notice}) {
        if (name == to_string(s)) return s;
    }
    return std::nullopt;
}

}  // namespace tfsift
