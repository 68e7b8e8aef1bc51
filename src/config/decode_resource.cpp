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

// `lifecycle { action_trigger { ... } }` of a managed resource: the
// events (keywords, each at most once) on which the listed actions run.
void Decoder::decode_action_trigger(const ContentBlock& b) {
    Content c = detail::body_content(ctx_, b.body, schema::action_trigger, nullptr);
    std::size_t events = 0;
    std::size_t actions = 0;
    if (const auto* a = c.attribute("events")) {
        std::vector<std::string> seen;
        for (const auto& e : detail::expr_list(ctx_, a->expr).value_or(std::vector<Expression>{})) {
            std::string kw = detail::expr_keyword(ctx_, e);
            if (!contains({"before_create", "after_create", "before_update", "after_update", "before_destroy",
                           "after_destroy"},
                          kw)) {
                ctx_.error(code::invalid_event_value, fmt::format("Invalid \"event\" value {}", kw),
                           "The \"event\" argument supports the following values: before_create, after_create, "
                           "before_update, after_update, before_destroy, after_destroy.",
                           e.range);
                continue;
            }
            if (std::find(seen.begin(), seen.end(), kw) != seen.end()) {
                ctx_.error(code::duplicate_event, fmt::format("Duplicate \"{}\" event", kw),
                           "The event is already defined in this action_trigger block.", e.range);
                continue;
            }
            seen.push_back(kw);
        }
        events = seen.size();
    }
    if (const auto* a = c.attribute("actions")) {
        actions = detail::expr_list(ctx_, a->expr).value_or(std::vector<Expression>{}).size();
    }
    if (const auto* a = c.attribute("on_failure")) {
        if (!contains({"halt", "taint", "continue"}, detail::expr_keyword(ctx_, a->expr))) {
            ctx_.error(code::invalid_on_failure_keyword, "Invalid \"on_failure\" keyword",
                       "The \"on_failure\" argument requires one of the following keywords: halt, taint or continue.",
                       a->expr.range);
        }
    }
    if (c.attribute("actions") && actions == 0) {
        ctx_.error(code::no_actions_specified, "No actions specified",
                   "At least one action must be specified for an action_trigger.", b.def_range);
    }
    if (c.attribute("events") && events == 0) {
        ctx_.error(code::no_events_specified, "No events specified",
                   "At least one event must be specified for an action_trigger.", b.def_range);
    }
}

void Decoder::invalid_action_trigger(const ContentBlock& b, std::string_view code, std::string_view what,
                                     std::string_view plural) {
    ctx_.error(code, fmt::format("Invalid {} lifecycle nested block", what),
               fmt::format("The lifecycle nested block \"{}\" is defined only for managed resources (\"resource\" "
                           "blocks), and is not valid for {}.",
                           b.type, plural),
               b.type_range);
}

std::optional<Provisioner> Decoder::decode_provisioner(const ContentBlock& b) {
    Provisioner p;
    p.type = b.labels[0];
    p.origin = origin(b.origin);
    if (contains({"chef", "habitat", "puppet", "salt-masterless"}, p.type)) {
        ctx_.error(code::provisioner_removed, fmt::format("The \"{}\" provisioner has been removed", p.type),
                   fmt::format("The \"{}\" provisioner was deprecated in Terraform 0.13.4 has been removed from "
                               "Terraform. Visit https://learn.hashicorp.com/collections/terraform/provision for "
                               "alternatives to using provisioners that are a better fit for the Terraform workflow.",
                               p.type),
                   b.label_ranges[0]);
        return std::nullopt;
    }
    Content c = detail::body_content(ctx_, b.body, schema::provisioner, &p.config);
    if (const auto* a = c.attribute("when")) {
        const std::size_t before = ctx_.diags->size();
        const auto* t = detail::traversal_for_expr(ctx_, a->expr, false, true, true);
        std::string kw = t && t->steps.empty() ? std::string(t->root) : std::string();
        if (kw == "create" || kw == "destroy") {
            p.when = kw;
        } else {
            ctx_.diags->resize(before);
            ctx_.error(code::invalid_when_keyword, "Invalid \"when\" keyword",
                       "The \"when\" argument requires one of the following keywords: create or destroy.",
                       a->expr.range);
        }
    }
    if (const auto* a = c.attribute("on_failure")) {
        const std::size_t before = ctx_.diags->size();
        const auto* t = detail::traversal_for_expr(ctx_, a->expr, false, true, true);
        std::string kw = t && t->steps.empty() ? std::string(t->root) : std::string();
        if (kw == "continue" || kw == "fail") {
            p.on_failure = kw;
        } else {
            ctx_.diags->resize(before);
            ctx_.error(code::invalid_on_failure_keyword, "Invalid \"on_failure\" keyword",
                       "The \"on_failure\" argument requires one of the following keywords: continue or fail.",
                       a->expr.range);
        }
    }
    p.config = settled(std::move(p.config));
    if (p.when == "destroy") only_self_refs(p.config);
    bool seen_escape = false;
    for (const auto& inner : c.blocks) {
        if (inner.type == "connection") {
            if (p.connection) {
                ctx_.error(code::duplicate_connection_block, "Duplicate connection block",
                           "This provisioner already has a connection block.", inner.def_range);
                continue;
            }
            Connection conn{settled(detail::whole_body(ctx_, inner.body)), origin(inner.origin)};
            if (p.when == "destroy") only_self_refs(conn.config);
            p.connection = std::move(conn);
        } else if (inner.type == "_") {
            if (seen_escape) {
                duplicate_escape(inner, "provisioner");
                continue;
            }
            seen_escape = true;
            detail::merge_escape_body(p.config, settled(detail::whole_body(ctx_, inner.body)));
        } else {
            ctx_.error(code::reserved_block_type_name_in_provisioner_block,
                       "Reserved block type name in provisioner block",
                       fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.",
                                   inner.type),
                       inner.type_range);
        }
    }
    return p;
}

void Decoder::check_enabled_combination(std::optional<Range> count, std::optional<Range> enabled,
                                        std::optional<Range> for_each, std::string_view instances) {
    if (!enabled || (!count && !for_each)) return;
    std::vector<std::string_view> names;
    std::vector<Range> ranges;
    if (count) {
        names.emplace_back("\"count\"");
        ranges.push_back(*count);
    }
    names.emplace_back("\"enabled\"");
    ranges.push_back(*enabled);
    if (for_each) {
        names.emplace_back("\"for_each\"");
        ranges.push_back(*for_each);
    }
    // As OpenTofu words it: "a and b", or "a, b, and c".
    std::string listed;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) listed += names.size() > 2 ? ", " : " ";
        if (i + 1 == names.size()) listed += "and ";
        listed += names[i];
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.start.byte < b.start.byte; });
    const std::string_view verb = instances == "resources" ? "may" : "should";
    ctx_.error(code::invalid_combination_of_count_enabled_and_for_each,
               fmt::format("Invalid combination of {}", listed),
               fmt::format("The {} meta-arguments are mutually-exclusive. Only one {} be used to be explicit about the "
                           "number of {} to be created.",
                           listed, verb, instances),
               Range{ranges.front().start, ranges.back().end});
}

std::optional<Range> Decoder::decode_lifecycle(const ContentBlock& b, Resource& r) {
    std::optional<Range> enabled;
    const bool managed = r.mode == ResourceMode::managed;
    ctx_.unknown_member_code = code::lifecycle_unknown_member;
    Content c =
        detail::body_content(ctx_, b.body, managed ? schema::managed_lifecycle : schema::data_lifecycle, nullptr);
    ctx_.unknown_member_code = {};
    Lifecycle& lc = r.lifecycle.edit();
    if (!managed) {
        for (const auto& a : c.attributes) {
            ctx_.error(code::invalid_data_resource_lifecycle_argument, "Invalid data resource lifecycle argument",
                       fmt::format("The lifecycle argument \"{}\" is defined only for managed resources (\"resource\" "
                                   "blocks), and is not valid for data resources.",
                                   a.name),
                       a.name_range);
        }
    } else {
        // A value that does not decode still counts as set (to false).
        if (const auto* a = c.attribute("create_before_destroy")) {
            const std::size_t mark = ctx_.diags->size();
            auto d = decode_bool(*a);
            lc.create_before_destroy = d ? *d : DecodedValue{false, a->expr.origin()};
            recode_lifecycle_value(mark, *a);
        }
        if (const auto* a = c.attribute("prevent_destroy")) {
            const std::size_t mark = ctx_.diags->size();
            auto d = decode_bool(*a);
            lc.prevent_destroy = d ? *d : DecodedValue{false, a->expr.origin()};
            recode_lifecycle_value(mark, *a);
        }
        if (const auto* a = c.attribute("replace_triggered_by")) {
            const std::size_t mark = ctx_.diags->size();
            decode_replace_triggered_by(*a, lc);
            recode_lifecycle_value(mark, *a);
        }
        if (const auto* a = c.attribute("ignore_changes")) {
            const std::size_t mark = ctx_.diags->size();
            decode_ignore_changes(*a, lc);
            recode_lifecycle_value(mark, *a);
        }
        if (const auto* a = c.attribute("destroy")) (void)decode_bool(*a);  // Terraform v1.16, OpenTofu v1.12
        if (const auto* a = c.attribute("enabled")) {
            if (engine_ != Engine::opentofu) {
                unsupported_argument(*a, code::lifecycle_unknown_member);
            } else {
                enabled = a->name_range;
            }
        }
    }
    const std::string addr = managed ? r.key() : "data." + r.key();
    for (const auto& inner : c.blocks) {
        if (inner.type == "action_trigger") {
            if (managed) {
                decode_action_trigger(inner);
            } else {
                invalid_action_trigger(inner, code::invalid_data_resource_lifecycle_nested_block, "data resource",
                                       "data resources");
            }
            continue;
        }
        Check check = decode_check_rule(inner);
        validate_self_references(check, inner.type, addr);
        (inner.type == "precondition" ? lc.preconditions : lc.postconditions).push_back(check);
    }
    return enabled;
}

// The errors of decoding a lifecycle argument that must be a literal
// (create_before_destroy, prevent_destroy, ignore_changes,
// replace_triggered_by), made since `mark`, get the lifecycle's codes:
// the shared helpers that made them do not know they are in a lifecycle
// block. Diagnostics with a code of the lifecycle's own keep it.
void Decoder::recode_lifecycle_value(std::size_t mark, const ContentAttr& a) {
    for (std::size_t i = mark; i < ctx_.diags->size(); ++i) {
        Diagnostic& d = (*ctx_.diags)[i];
        if (d.code == code::invalid_ignore_changes_wildcard || d.code == code::invalid_ignore_changes_ruleset ||
            d.code == code::invalid_replace_triggered_by_expression ||
            d.code == code::invalid_each_reference_in_replace_triggered_by_expression ||
            d.code == code::invalid_count_reference_in_replace_triggered_by_expression ||
            d.code == code::invalid_reference_in_replace_triggered_by_expression) {
            continue;
        }
        if (a.name == "ignore_changes") {
            // Terraform 0.11's quoted forms: `"aws_instance.a"`, `"all"`, `"*"`.
            if (d.code == code::quoted_references_are_deprecated) {
                d.code = code::ignore_changes_quoted_reference;
                continue;
            }
            const bool static_expression_required = d.code == code::static_list_required ||
                                                    d.code == code::static_map_required ||
                                                    d.code == code::static_reference_required;
            if (d.subject && quoted_wildcard(*d.subject)) {
                // `ignore_changes = "all"`: the wildcard's business, or no rule's.
                if (static_expression_required) d.code = code::ignore_changes_quoted_wildcard;
                continue;
            }
        }
        if (d.severity == Severity::error) d.code = code::lifecycle_value_not_literal;
    }
}

// Whether `r` of this file holds `"all"` or `"*"`, as written.
bool Decoder::quoted_wildcard(Range r) const {
    std::string_view text = ctx_.file->text();
    if (r.end.byte < r.start.byte || r.end.byte > text.size()) return false;
    std::string_view written = text.substr(r.start.byte, r.end.byte - r.start.byte);
    return written == "\"all\"" || written == "\"*\"";
}

void Decoder::decode_ignore_changes(const ContentAttr& a, Lifecycle& lc) {
    if (detail::expr_keyword(ctx_, a.expr) == "all") {
        lc.ignore_all_changes = a.expr.origin();
        return;
    }
    auto items = detail::expr_list(ctx_, a.expr);
    if (!items) return;
    std::vector<Traversal> list;
    std::optional<Range> star;
    for (const auto& e : *items) {
        cty::Value v = detail::static_value(ctx_, e, false);
        if (v.is_known() && !v.is_null() && v.type().kind() == cty::TypeKind::string && v.as_string() == "*") {
            lc.ignore_all_changes = e.origin();
            star = e.range;
            ctx_.error(code::invalid_ignore_changes_wildcard, "Invalid ignore_changes wildcard",
                       "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use "
                       "\"ignore_changes = all\" to ignore changes to all attributes.",
                       a.expr.range);
            continue;
        }
        if (const auto* t = detail::traversal_for_expr(ctx_, e, true, true, false))
            list.push_back(detail::make_traversal(ctx_, *t, e));
    }
    if (star && !list.empty()) {
        ctx_.error(code::invalid_ignore_changes_ruleset, "Invalid ignore_changes ruleset",
                   "Cannot mix wildcard string \"*\" with non-wildcard references.", *star);
    }
    lc.ignore_changes = std::move(list);
}

void Decoder::decode_replace_triggered_by(const ContentAttr& a, Lifecycle& lc) {
    auto items = detail::expr_list(ctx_, a.expr);
    if (!items) return;
    for (const auto& e : *items) {
        lc.replace_triggered_by.push_back(e);
        int resources = 0;
        bool bad = false;
        // A JSON element is a string holding an expression.
        std::vector<const hcl::ScopeTraversalExpr*> refs;
        if (e.json && e.json->is_string()) {
            Diagnostics d;
            const hcl::Expr* parsed = detail::json_string_expr(ctx_, *e.json, false, d);
            if (parsed) refs = hcl::referenced_traversals(*parsed);
        } else {
            refs = detail::expression_variables(ctx_, e);
        }
        for (const auto* t : refs) {
            if (t->root == "each") {
                if (!(t->steps.size() >= 1 && t->steps[0].kind == hcl::StepKind::attr && t->steps[0].name == "key")) {
                    ctx_.error(code::invalid_each_reference_in_replace_triggered_by_expression,
                               "Invalid each reference in replace_triggered_by expression",
                               "Only each.key may be used in replace_triggered_by.", e.range);
                }
            } else if (t->root == "count") {
                if (!(t->steps.size() >= 1 && t->steps[0].kind == hcl::StepKind::attr && t->steps[0].name == "index")) {
                    ctx_.error(code::invalid_count_reference_in_replace_triggered_by_expression,
                               "Invalid count reference in replace_triggered_by expression",
                               "Only count.index may be used in replace_triggered_by.", e.range);
                }
            } else if (!referenced_resource(*t).empty() && t->root != "data") {
                ++resources;
            } else {
                ctx_.error(code::invalid_reference_in_replace_triggered_by_expression,
                           "Invalid reference in replace_triggered_by expression",
                           "Only resources, count.index, and each.key may be used in replace_triggered_by.", e.range);
                bad = true;
            }
        }
        if (bad) continue;
        if (resources == 0) {
            ctx_.error(code::invalid_replace_triggered_by_expression, "Invalid replace_triggered_by expression",
                       "Missing resource reference in replace_triggered_by expression.", e.range);
        } else if (resources > 1) {
            ctx_.error(code::invalid_replace_triggered_by_expression, "Invalid replace_triggered_by expression",
                       "Multiple resource references in replace_triggered_by expression.", e.range);
        }
    }
}

void Decoder::decode_resource(const ContentBlock& b, ResourceMode mode) {
    // Built in its place in the file's list (reserved for the file's
    // resources beforehand), not moved there and destroyed when done.
    Resource& r = out_.resources
                      .emplace_back(std::piecewise_construct, std::forward_as_tuple(),
                                    std::forward_as_tuple(Declared{b.def_range}))
                      .first;
    r.mode = mode;
    r.type = b.labels[0];
    r.name = b.labels[1];
    r.origin = origin(b.origin);
    r.config.from_json = b.body.json != nullptr;
    const bool managed = mode == ResourceMode::managed;
    if (!detail::valid_identifier(r.type)) {
        ctx_.error(managed ? code::invalid_resource_type_name : code::invalid_data_source_name,
                   managed ? "Invalid resource type name" : "Invalid data source name", bad_identifier_detail,
                   b.label_ranges[0]);
    }
    if (!detail::valid_identifier(r.name)) {
        ctx_.error(managed ? code::invalid_resource_name : code::invalid_data_resource_name,
                   managed ? "Invalid resource name" : "Invalid data resource name", bad_identifier_detail,
                   b.label_ranges[1]);
    }
    Content c = detail::body_content(ctx_, b.body, managed ? schema::resource : schema::data, &r.config);
    std::optional<Range> count_name;
    std::optional<Range> for_each_name;
    std::optional<Range> enabled_name;
    if (const auto* a = c.attribute("count")) {
        r.count = a->expr;
        count_name = a->name_range;
    }
    if (const auto* a = c.attribute("for_each")) {
        r.for_each = a->expr;
        for_each_name = a->name_range;
        if (r.count) {
            ctx_.error(code::invalid_combination_of_count_and_for_each,
                       "Invalid combination of \"count\" and \"for_each\"",
                       "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used "
                       "to be explicit about the number of resources to be created.",
                       a->name_range);
        }
    }
    if (const auto* a = c.attribute("provider")) {
        // OpenTofu 1.9: `provider = aws.by_region[each.key]` selects an
        // instance of a provider configuration that uses for_each. The
        // instance key is an expression evaluated later; the reference
        // is the part before it.
        json::Value without_key;
        Expression ref_expr = without_instance_key(a->expr, without_key, r.provider_keyed);
        if (auto ref = decode_provider_ref(ref_expr, "provider")) {
            r.provider_ref = *ref;
            r.provider_origin = a->expr.origin();
        }
    }
    if (const auto* a = c.attribute("depends_on")) r.depends_on = decode_depends_on(*a);
    bool seen_lifecycle = false;
    bool seen_escape = false;
    for (const auto& inner : c.blocks) {
        if (inner.type == "lifecycle") {
            if (seen_lifecycle) {
                ctx_.error(code::duplicate_lifecycle_block, "Duplicate lifecycle block",
                           "This resource already has a lifecycle block.", inner.def_range);
                continue;
            }
            seen_lifecycle = true;
            enabled_name = decode_lifecycle(inner, r);
        } else if (inner.type == "connection") {
            if (r.connection) {
                ctx_.error(code::duplicate_connection_block, "Duplicate connection block",
                           "This resource already has a connection block.", inner.def_range);
                continue;
            }
            r.connection = std::make_shared<const Connection>(
                Connection{settled(detail::whole_body(ctx_, inner.body)), origin(inner.origin)});
        } else if (inner.type == "provisioner") {
            if (auto p = decode_provisioner(inner)) r.provisioners.push_back(std::move(*p));
        } else if (inner.type == "_") {
            if (seen_escape) {
                duplicate_escape(inner, managed ? "resource" : "data");
                continue;
            }
            seen_escape = true;
            detail::merge_escape_body(r.config, detail::whole_body(ctx_, inner.body));
        } else {
            ctx_.error(
                managed ? code::reserved_block_type_name_in_resource_block
                        : code::reserved_block_type_name_in_data_block,
                managed ? "Reserved block type name in resource block" : "Reserved block type name in data block",
                fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.",
                            inner.type),
                inner.type_range);
        }
    }
    if (managed) check_enabled_combination(count_name, enabled_name, for_each_name, "resources");
    if (r.connection) {
        for (const auto& p : r.provisioners) {
            if (p.when == "destroy") {
                only_self_refs(r.connection->config);
                break;
            }
        }
    }
}

}  // namespace tfsift::config
