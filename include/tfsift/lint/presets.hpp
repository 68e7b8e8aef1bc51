// Rule presets, like TFLint's `recommended` / `all`: the default preset runs
// the rules whose findings are almost always worth acting on (a rule's
// `enabled_by_default`); `strict` also runs the opinionated ones. Which rule
// is which was decided on the corpus: docs/corpus-findings.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tfsift::lint {

enum class Preset : std::uint8_t { recommended, strict };

std::optional<Preset> parse_preset(std::string_view name);
std::string_view to_string(Preset preset);

}  // namespace tfsift::lint
