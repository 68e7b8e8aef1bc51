#include "decoder.hpp"

#include <algorithm>
#include <span>

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

// Ephemeral resources (OpenTofu, Terraform v1.10+), checked as the loaders check them but
// not kept in the model (they are newer than the reference loader and
// not part of the effective document). They take the meta-arguments of
// a data resource; they are never created nor destroyed, so the
// lifecycle arguments about replacing and destroying, connection blocks
// and provisioners have no meaning for them and are errors.
void Decoder::decode_ephemeral(const ContentBlock& b) {
    Resource r;
    r.mode = ResourceMode::ephemeral;
    r.type = b.labels[0];
    r.name = b.labels[1];
    r.origin = origin(b.origin);
    if (!detail::valid_identifier(b.labels[0])) {
        ctx_.error(code::invalid_ephemeral_resource_type_name, "Invalid ephemeral resource type name",
                   bad_identifier_detail, b.label_ranges[0]);
    }
    if (!detail::valid_identifier(b.labels[1])) {
        ctx_.error(code::invalid_ephemeral_resource_name, "Invalid ephemeral resource name", bad_identifier_detail,
                   b.label_ranges[1]);
    }
    Body remain;
    Content c = detail::body_content(ctx_, b.body, schema::ephemeral, &remain);
    const auto* count = c.attribute("count");
    const auto* for_each = c.attribute("for_each");
    if (count && for_each) {
        ctx_.error(code::invalid_combination_of_count_and_for_each, "Invalid combination of \"count\" and \"for_each\"",
                   "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to "
                   "be explicit about the number of resources to be created.",
                   for_each->name_range);
    }
    if (const auto* a = c.attribute("provider")) {
        json::Value without_key;
        if (auto ref = decode_provider_ref(without_instance_key(a->expr, without_key, r.provider_keyed), "provider")) {
            r.provider_ref = *ref;
            r.provider_origin = a->expr.origin();
        }
    }
    if (count) r.count = count->expr;
    if (for_each) r.for_each = for_each->expr;
    if (const auto* a = c.attribute("depends_on")) (void)decode_depends_on(*a);
    bool seen_lifecycle = false;
    bool seen_escape = false;
    for (const auto& inner : c.blocks) {
        if (inner.type == "lifecycle") {
            if (seen_lifecycle) {
                ctx_.error(code::duplicate_lifecycle_block, "Duplicate lifecycle block",
                           "This ephemeral resource already has a lifecycle block.", inner.def_range);
                continue;
            }
            seen_lifecycle = true;
            Content lc = detail::body_content(ctx_, inner.body, schema::data_lifecycle, nullptr);
            for (const auto& a : lc.attributes) {
                ctx_.error(code::invalid_ephemeral_resource_lifecycle_argument,
                           "Invalid ephemeral resource lifecycle argument",
                           fmt::format("The lifecycle argument \"{}\" applies only to managed resources "
                                       "(\"resource\" blocks); an ephemeral resource is never planned for "
                                       "replacement or destruction.",
                                       a.name),
                           a.name_range);
            }
            for (const auto& cond : lc.blocks) {
                if (cond.type == "action_trigger") {
                    invalid_action_trigger(cond, code::invalid_ephemeral_resource_lifecycle_nested_block,
                                           "ephemeral resource", "ephemeral resources");
                } else {
                    (void)decode_check_rule(cond);
                }
            }
        } else if (inner.type == "connection" || inner.type == "provisioner") {
            ctx_.error(code::invalid_block_in_ephemeral_resource,
                       fmt::format("Invalid {} block in ephemeral resource", inner.type),
                       fmt::format("An ephemeral resource creates no infrastructure object, so it cannot have a "
                                   "\"{}\" block; only managed resources (\"resource\" blocks) run provisioners.",
                                   inner.type),
                       inner.def_range);
        } else if (inner.type == "_") {
            if (seen_escape) {
                duplicate_escape(inner, "ephemeral");
                continue;
            }
            seen_escape = true;
        } else {
            ctx_.error(
                code::reserved_block_type_name_in_ephemeral_block, "Reserved block type name in ephemeral block",
                fmt::format("The block type name \"{}\" is reserved for use by a future version of the language.",
                            inner.type),
                inner.type_range);
        }
    }
    r.config = std::move(remain);
    out_.others.emplace_back(std::move(r), Declared{b.def_range});
}

// An `action` block: a provider-defined operation, configured in one
// `config` block, run by a resource's `action_trigger` or by `-invoke`.
void Decoder::decode_action(const ContentBlock& b) {
    Resource r;
    r.mode = ResourceMode::action;
    r.type = b.labels[0];
    r.name = b.labels[1];
    r.origin = origin(b.origin);
    if (!detail::valid_identifier(r.type))
        ctx_.error(code::invalid_action_type_name, "Invalid action type name", bad_identifier_detail,
                   b.label_ranges[0]);
    if (!detail::valid_identifier(r.name))
        ctx_.error(code::invalid_action_name, "Invalid action name", bad_identifier_detail, b.label_ranges[1]);
    Content c = detail::body_content(ctx_, b.body, schema::action, nullptr);
    if (const auto* a = c.attribute("count")) r.count = a->expr;
    if (const auto* a = c.attribute("for_each")) {
        r.for_each = a->expr;
        if (r.count) {
            ctx_.error(code::invalid_combination_of_count_and_for_each,
                       "Invalid combination of \"count\" and \"for_each\"",
                       "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used.",
                       a->name_range);
        }
    }
    bool seen_config = false;
    for (const auto& inner : c.blocks) {
        if (seen_config) {
            ctx_.error(code::duplicate_config_block, "Duplicate config block",
                       "An action must contain only one nested \"config\" block.", inner.def_range);
            return;
        }
        seen_config = true;
        r.config = detail::whole_body(ctx_, inner.body);
    }
    if (const auto* a = c.attribute("provider")) {
        if (auto ref = decode_provider_ref(a->expr, "provider")) {
            r.provider_ref = *ref;
            r.provider_origin = a->expr.origin();
        }
    }
    out_.others.emplace_back(std::move(r), Declared{b.def_range});
}

}  // namespace tfsift::config
