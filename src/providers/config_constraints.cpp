#include "tfsift/providers/core_version.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::providers {

ConfigConstraints parse_config_constraints(std::string_view text) {
    ConfigConstraints out;
    if (!parse_core_constraints(text)) {
        out.summary = "Invalid version constraint";
        out.detail = "This string does not use correct version constraint syntax.";
        return out;
    }
    auto parsed = parse_constraints(text);
    if (!parsed.constraints) {
        out.summary = "Invalid version constraint";
        out.detail = "Incorrect version constraint syntax: " + parsed.error + ".";
        return out;
    }
    out.constraints = std::move(parsed.constraints);
    return out;
}

}  // namespace tfsift::providers
