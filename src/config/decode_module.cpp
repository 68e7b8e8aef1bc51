#include "decoder.hpp"

#include <algorithm>
#include <span>
#include <tuple>
#include <utility>

#include <fmt/core.h>

#include "tfsift/config/override_merger.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/config/type_constraint.hpp"
#include "tfsift/config/version_constraints.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::config {

void Decoder::decode_module(const ContentBlock& b) {
    // Built in its place in the file's list (reserved beforehand).
    ModuleCall& mc = out_.module_calls
                         .emplace_back(std::piecewise_construct, std::forward_as_tuple(),
                                       std::forward_as_tuple(Declared{b.def_range}))
                         .first;
    mc.name = b.labels[0];
    mc.origin = origin(b.origin);
    mc.config.from_json = b.body.json != nullptr;
    if (!detail::valid_identifier(mc.name))
        ctx_.error(code::invalid_module_instance_name, "Invalid module instance name", bad_identifier_detail,
                   b.label_ranges[0]);
    Content c = detail::body_content(ctx_, b.body, schema::module_call, &mc.config);
    // OpenTofu (1.8+) and Terraform (1.15+) evaluate a module's `source`
    // and `version` written with variables and local values before
    // planning. Such a setting is kept as an expression; the tree loader
    // works it out per call (config/static_evaluation.hpp), since a called
    // module's variables take their caller's values.
    auto needs_static_evaluation = [&](const ContentAttr* a) {
        return a != nullptr && !detail::expression_variables(ctx_, a->expr).empty();
    };
    const ContentAttr* version = c.attribute("version");
    // A `version` makes the source a registry address. OpenTofu decides
    // that after evaluating it (a version that is null does not count);
    // Terraform whenever the argument is written.
    // `version = null` counts as no version from Terraform v1.15.5 and
    // OpenTofu v1.10 on; before, the argument alone made the source a
    // registry address (see below).
    const bool null_version = version != nullptr && version->expr.is_null_literal();
    const bool has_version =
        version != nullptr && !null_version && (engine_ == Engine::terraform || !needs_static_evaluation(version));
    if (needs_static_evaluation(version)) {
        mc.dynamic_version = DynamicSetting{version->expr};
        version = nullptr;
    }
    const ContentAttr* source_attr = c.attribute("source");
    if (needs_static_evaluation(source_attr)) {
        mc.dynamic_source = DynamicSetting{source_attr->expr};
        source_attr = nullptr;
    }
    if (version) {
        if (auto vc = decode_version_constraint(*version))
            mc.version_constraints = DecodedValue{*vc, version->expr.origin()};
    }
    if (const auto* a = source_attr) {
        if (auto sv = decode_string(*a)) {
            ModuleSource src;
            src.as_written = sv->value.get<std::string>();
            src.origin = a->expr.origin();
            auto parsed = parse_module_source(src.as_written, has_version);
            if (parsed.error.empty()) {
                src.value = parsed.normalized;
                if (null_version) null_version_source(src.as_written, a->expr.range);
            } else if (parsed.maybe_relative) {
                ctx_.error(code::invalid_module_source_address, "Invalid module source address", parsed.error,
                           a->expr.range);
            } else if (has_version) {
                ctx_.error(code::invalid_registry_module_source_address, "Invalid registry module source address",
                           fmt::format("Failed to parse module registry address: {}.\n\nTerraform assumed that you "
                                       "intended a module registry source address because you also set the argument "
                                       "\"version\", which applies only to registry modules.",
                                       parsed.error),
                           a->expr.range);
            } else {
                ctx_.error(code::invalid_module_source_address, "Invalid module source address",
                           fmt::format("Failed to parse module source address: {}.", parsed.error), a->expr.range);
            }
            mc.source = std::move(src);
        }
    }
    std::optional<Range> count_name;
    std::optional<Range> for_each_name;
    std::optional<Range> enabled_name;
    if (const auto* a = c.attribute("count")) {
        mc.count = a->expr;
        count_name = a->name_range;
    }
    if (const auto* a = c.attribute("for_each")) {
        mc.for_each = a->expr;
        for_each_name = a->name_range;
        if (mc.count) {
            ctx_.error(code::invalid_combination_of_count_and_for_each,
                       "Invalid combination of \"count\" and \"for_each\"",
                       "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used "
                       "to be explicit about the number of module instances to be created.",
                       a->name_range);
        }
    }
    if (const auto* a = c.attribute("depends_on")) mc.depends_on = decode_depends_on(*a);
    if (const auto* a = c.attribute("providers")) mc.providers = decode_passed_providers(*a);
    bool seen_escape = false;
    for (const auto& inner : c.blocks) {
        if (inner.type == "_") {
            if (seen_escape) {
                duplicate_escape(inner, "module");
                continue;
            }
            seen_escape = true;
            detail::merge_escape_body(mc.config, detail::whole_body(ctx_, inner.body));
        } else if (inner.type == "lifecycle" && engine_ == Engine::opentofu) {
            // OpenTofu v1.11: `enabled`, the zero-or-one form of count.
            Content lifecycle = detail::body_content(ctx_, inner.body, schema::module_lifecycle, nullptr);
            if (const auto* a = lifecycle.attribute("enabled")) {
                mc.enabled = a->expr;
                enabled_name = a->name_range;
            }
        } else {
            ctx_.error(code::reserved_block_type_name_in_module_block, "Reserved block type name in module block",
                       fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.",
                                   inner.type),
                       inner.type_range);
        }
    }
    check_enabled_combination(count_name, enabled_name, for_each_name, "module instances");
}

void Decoder::null_version_source(const std::string& source, Range range) {
    auto as_registry = parse_module_source(source, true);
    if (as_registry.error.empty() || as_registry.maybe_relative) return;
    ctx_.error(code::registry_source_for_null_version, "Invalid registry module source address",
               fmt::format("Failed to parse module registry address: {}.\n\nTerraform assumed that you intended a "
                           "module registry source address because you also set the argument \"version\", which "
                           "applies only to registry modules. Terraform v1.15.5 and OpenTofu v1.10 and later take a "
                           "null version as none; `required_version` (or the `engine_version` setting) allows an "
                           "older release here.",
                           as_registry.error),
               range);
}

}  // namespace tfsift::config
