#include "tfsift/providers/core_version.hpp"
#include "tfsift/providers/version.hpp"
#include "tfsift/string_memo.hpp"

namespace tfsift::providers {

namespace {

ConfigConstraints parse_config_constraints_once(std::string_view text) {
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

}  // namespace

ConfigConstraints parse_config_constraints(std::string_view text) {
    // Every module repeats a few constraint strings: each thread remembers
    // its answers.
    thread_local StringMemo<ConfigConstraints> memo;
    return memo.get(text, parse_config_constraints_once);
}

}  // namespace tfsift::providers
