#include "tfsift/providers/selection.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tfsift::providers {

SelectionResult select_provider_version(const SelectionRequest& request) {
    SelectionResult result;
    const std::string address = request.provider.to_string();
    const bool use_lock = request.locked.has_value() && !request.upgrade;
    if (use_lock && !constraints_allow(request.constraints, *request.locked)) {
        result.error = fmt::format(
            "locked provider {} {} does not match configured version constraint {}; must use {} init -upgrade to "
            "allow selection of new versions",
            address, request.locked->to_string(), render_constraints(request.constraints),
            command_name(request.engine));
        return result;
    }
    if (request.available.empty()) {
        result.error = fmt::format("provider registry {} does not have a provider named {}",
                                   hostname_for_display(request.provider.hostname), address);
        return result;
    }
    std::vector<Version> sorted = request.available;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Version& a, const Version& b) { return compare_precedence(a, b) < 0; });
    for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
        const bool acceptable = use_lock ? *it == *request.locked : constraints_allow(request.constraints, *it);
        if (acceptable) {
            result.selected = *it;
            return result;
        }
    }
    if (use_lock) {
        result.error =
            fmt::format("the previously-selected version {} is no longer available", request.locked->to_string());
    } else {
        result.error = fmt::format("no available releases match the given constraints {}",
                                   render_constraints(request.constraints));
    }
    return result;
}

}  // namespace tfsift::providers
