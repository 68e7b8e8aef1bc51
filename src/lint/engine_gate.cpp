#include "tfsift/lint/engine_gate.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <compare>
#include <string>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/providers/core_version.hpp"

namespace tfsift::lint {

namespace {

std::strong_ordering compare(const providers::CoreVersion& a, const providers::CoreVersion& b) {
    const std::size_t n = std::max(a.segments.size(), b.segments.size());
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t x = i < a.segments.size() ? a.segments[i] : 0;
        const std::int64_t y = i < b.segments.size() ? b.segments[i] : 0;
        if (x != y) return x <=> y;
    }
    return std::strong_ordering::equal;
}

// The module of the tree whose files include `filename`, if any.
const config::Module* module_with_file(const config::LoadedModule& m, const std::string& filename) {
    for (const auto& f : m.files) {
        if (f.parsed != nullptr && f.parsed->source && f.parsed->source->path() == filename) return m.module.get();
    }
    for (const auto& [name, child] : m.children) {
        if (const config::Module* found = module_with_file(child, filename)) return found;
    }
    return nullptr;
}

}  // namespace

bool dropped_by_release(const config::LoadedTree& tree, const config::LoadDiagnostic& d, Engine engine,
                        const Settings& settings) {
    const std::string_view c = d.diagnostic.code;
    auto holder_may_predate = [&](std::string_view release) {
        const config::Module* holder = tree.root ? module_with_file(*tree.root, d.diagnostic.filename) : nullptr;
        return holder == nullptr || release_may_predate(*holder, settings, release);
    };
    if (c == code::invalid_import_configuration) {
        return engine == Engine::terraform && !holder_may_predate(child_module_imports_release);
    }
    if (c == code::registry_source_for_null_version) {
        return !holder_may_predate(engine == Engine::terraform ? terraform_null_module_version_release
                                                               : opentofu_null_module_version_release);
    }
    const std::string_view static_sources =
        engine == Engine::terraform ? terraform_static_module_sources_release : opentofu_static_module_sources_release;
    if (c == code::module_source_variables_not_allowed) return !holder_may_predate(static_sources);
    if (c == code::unknown_module_source || c == code::invalid_module_source_reference ||
        c == code::dynamic_value_in_static_context || c == code::module_output_in_static_context ||
        c == code::provider_function_in_static_context || c == code::sensitive_value_not_allowed ||
        c == code::ephemeral_value_not_allowed || c == code::unable_to_use_variable_in_static_context) {
        return holder_may_predate(static_sources);
    }
    return false;
}

bool release_may_predate(const config::Module& module, const Settings& settings, std::string_view release) {
    auto threshold = providers::parse_core_version(release);
    if (!threshold) return false;
    if (settings.engine_version) {
        auto v = providers::parse_core_version(*settings.engine_version);
        return v && compare(*v, *threshold) < 0;
    }
    // A constraint that does not parse is reported elsewhere and left out.
    std::vector<std::vector<providers::CoreConstraint>> constraints;
    for (const config::RequiredVersion& rv : module.terraform.required_version) {
        for (const std::string& c : rv.constraints) {
            if (auto parsed = providers::parse_core_constraints(c)) constraints.push_back(std::move(*parsed));
        }
    }
    if (constraints.empty()) return false;  // the newest release is assumed

    // Releases below the threshold to try: the first and a late patch of
    // every minor release of the threshold's major version and of 0.x, and
    // every version the constraints name (and the patch after it), so that
    // an exact pin or a narrow range is tried as written.
    std::vector<providers::CoreVersion> candidates;
    auto add = [&](std::int64_t major, std::int64_t minor, std::int64_t patch) {
        if (auto v = providers::parse_core_version(fmt::format("{}.{}.{}", major, minor, patch)))
            candidates.push_back(std::move(*v));
    };
    for (std::int64_t minor = 0; minor < threshold->segments[1]; ++minor) {
        add(threshold->segments[0], minor, 0);
        add(threshold->segments[0], minor, 99);
    }
    // A threshold that is a patch release (1.15.5): the earlier patches of its minor release too.
    if (threshold->segments.size() >= 3 && threshold->segments[2] > 0) {
        add(threshold->segments[0], threshold->segments[1], 0);
        add(threshold->segments[0], threshold->segments[1], threshold->segments[2] - 1);
    }
    for (std::int64_t minor = 11; minor <= 15; ++minor) {
        add(0, minor, 0);
        add(0, minor, 99);
    }
    for (const auto& list : constraints) {
        for (const auto& c : list) {
            candidates.push_back(c.version);
            providers::CoreVersion next = c.version;
            if (next.segments.size() >= 3) ++next.segments[2];
            next.prerelease.clear();
            candidates.push_back(std::move(next));
        }
    }
    for (const auto& v : candidates) {
        if (!v.prerelease.empty() || compare(v, *threshold) >= 0) continue;
        bool allowed = true;
        for (const auto& list : constraints) {
            if (!providers::core_constraints_allow(list, v)) {
                allowed = false;
                break;
            }
        }
        if (allowed) return true;
    }
    return false;
}

}  // namespace tfsift::lint
