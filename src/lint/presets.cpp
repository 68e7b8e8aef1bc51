#include "tfsift/lint/presets.hpp"

namespace tfsift::lint {

std::optional<Preset> parse_preset(std::string_view name) {
    if (name == "recommended") return Preset::recommended;
    if (name == "strict") return Preset::strict;
    return std::nullopt;
}

std::string_view to_string(Preset preset) { return preset == Preset::strict ? "strict" : "recommended"; }

}  // namespace tfsift::lint
