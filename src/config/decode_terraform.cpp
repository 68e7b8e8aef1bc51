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

void Decoder::decode_terraform(const ContentBlock& b) {
    TerraformBlock tb;
    tb.origin = origin(b.origin);
    Content c = detail::body_content(ctx_, b.body, schema::terraform, nullptr);
    if (const auto* a = c.attribute("required_version")) {
        if (auto vc = decode_version_constraint(*a)) {
            tb.required_version = RequiredVersion{*vc, a->expr.origin()};
            tb.required_version_range = a->expr.range;
            // Before v1.12 OpenTofu read its own constraint from
            // `required_version`; it still does, in `.tofu` files only
            // (in `.tf` files the constraint is taken to be Terraform's).
            if (engine_ == Engine::opentofu && in_tofu_file()) check_opentofu_constraint(*vc, a->expr.range, false);
        }
    }
    if (const auto* a = c.attribute("experiments")) decode_experiments(*a, tb);
    if (const auto* a = c.attribute("language")) {
        std::string kw = detail::expr_keyword(ctx_, a->expr);
        if (kw.empty()) {
            ctx_.error(code::invalid_language_edition, "Invalid language edition",
                       "The language argument expects a bare language edition keyword. Terraform 1.3.10 supports "
                       "only language edition TF2021, which is the default.",
                       a->expr.range);
        } else if (kw != "TF2021") {
            ctx_.error(code::unsupported_language_edition, "Unsupported language edition",
                       fmt::format("Terraform v1.3.10 only supports language edition TF2021. This module requires "
                                   "{}, which is not supported by this version of Terraform.",
                                   kw),
                       a->expr.range);
        }
    }
    for (const auto& inner : c.blocks) {
        if (inner.type == "backend") {
            Backend be;
            be.type = inner.labels[0];
            be.config = detail::whole_body(ctx_, inner.body);
            be.origin = origin(inner.origin);
            tb.backends.push_back(std::move(be));
            tb.backend_ranges.push_back(inner.def_range);
        } else if (inner.type == "cloud") {
            Backend be;
            be.config = detail::whole_body(ctx_, inner.body);
            be.origin = origin(inner.origin);
            tb.clouds.push_back(std::move(be));
            tb.cloud_ranges.push_back(inner.def_range);
        } else if (inner.type == "state_store") {
            decode_state_store(inner, tb);
        } else if (inner.type == "required_providers") {
            tb.required_providers.push_back(decode_required_providers(inner));
        } else if (inner.type == "provider_meta") {
            ProviderMeta pm;
            pm.provider = inner.labels[0];
            pm.config = detail::whole_body(ctx_, inner.body);
            // provider_meta must be a static map: its values are
            // evaluated with no variables.
            for (const auto& a : pm.config.arguments) detail::static_value(ctx_, a.expr);
            for (const auto& prop : pm.config.undecided) {
                detail::static_value(ctx_, Expression{ctx_.file, prop.value->range, nullptr, prop.value});
            }
            check_provider_name_normalized(pm.provider, inner.def_range);
            pm.origin = origin(inner.origin);
            tb.provider_metas.push_back(std::move(pm));
        }
    }
    out_.terraform.push_back(std::move(tb));
}

// Terraform's pluggable state storage (v1.14, experimental): one nested
// `provider "NAME"` block without an alias names the provider that
// implements the store. OpenTofu has no such block.
void Decoder::decode_state_store(const ContentBlock& b, TerraformBlock& tb) {
    if (engine_ != Engine::terraform) {
        ctx_.error(code::unsupported_block_type, "Unsupported block type",
                   "Blocks of type \"state_store\" are not expected here.", b.type_range);
        return;
    }
    Backend store;
    store.type = b.labels[0];
    store.origin = origin(b.origin);
    Content c = detail::body_content(ctx_, b.body, schema::state_store, &store.config);
    std::vector<const ContentBlock*> providers;
    for (const auto& inner : c.blocks) {
        if (inner.type == "provider") providers.push_back(&inner);
    }
    if (providers.empty()) {
        ctx_.error(code::missing_provider_block, "Missing provider block",
                   "A 'provider' block is required in 'state_store' blocks", b.body.missing_item);
        return;
    }
    if (providers.size() > 1) {
        ctx_.error(code::duplicate_provider_block, "Duplicate provider block",
                   "Only one 'provider' block should be present in a 'state_store' block", providers[1]->def_range);
        return;
    }
    // The nested block is decoded as any provider block (a normalized name,
    // no reserved arguments or blocks), and any error there drops the
    // store; then it may not have an alias.
    const ContentBlock& p = *providers.front();
    const std::size_t mark = ctx_.diags->size();
    Range alias_at;
    std::optional<Provider> provider = decode_provider_block(p, &alias_at);
    for (std::size_t i = mark; i < ctx_.diags->size(); ++i) {
        if ((*ctx_.diags)[i].severity == Severity::error) return;
    }
    if (!provider) return;
    if (provider->alias) {
        ctx_.error(code::unexpected_provider_alias, "Unexpected provider alias",
                   "Aliases are disallowed in the 'provider' block in the 'state_store' block", alias_at);
        return;
    }
    tb.state_stores.push_back(std::move(store));
    tb.state_store_providers.emplace_back(p.labels[0]);
    tb.state_store_ranges.push_back(b.def_range);
}

bool Decoder::in_tofu_file() const {
    const std::string& p = ctx_.file->path();
    return p.ends_with(".tofu") || p.ends_with(".tofu.json");
}

// A module whose OpenTofu version constraint rejects the version tfsift
// implements cannot be loaded by it ("Incompatible module").
void Decoder::check_opentofu_constraint(const ContentAttr& a, bool warn_ineffective) {
    if (auto vc = decode_version_constraint(a)) check_opentofu_constraint(*vc, a.expr.range, warn_ineffective);
}

void Decoder::check_opentofu_constraint(const std::vector<std::string>& vc, Range range, bool warn_ineffective) {
    std::string joined;
    for (const auto& part : vc) joined += (joined.empty() ? "" : ",") + part;
    if (joined.empty()) return;
    auto parsed = providers::parse_constraints(joined);
    if (!parsed.constraints) return;
    if (!providers::constraints_allow(*parsed.constraints, opentofu_language_version())) {
        ctx_.error(code::incompatible_module, "Incompatible module",
                   fmt::format("This module is not compatible with OpenTofu v{}: its version constraint is \"{}\".",
                               opentofu_language_version().to_string(), joined),
                   range);
    } else if (warn_ineffective &&
               providers::constraints_allow(*parsed.constraints, providers::Version{1, 11, 0, {}, {}})) {
        // compatible_with was introduced in v1.12.0: older releases do not
        // read it, so accepting them through it declares nothing.
        ctx_.warning(code::ineffective_version_constraint, "Ineffective version constraint",
                     "The compatible_with.opentofu argument is understood only by OpenTofu v1.12.0 and later, so a "
                     "constraint accepting earlier versions cannot declare compatibility with them.",
                     range);
    }
}

// OpenTofu's `language` block: `edition` is a bare keyword (only
// tofu2024 exists), `experiments` a list of keywords (no experiment is
// currently available), `compatible_with.opentofu` a version constraint;
// every other argument of `compatible_with` is ignored.
void Decoder::decode_language(const ContentBlock& b) {
    Content c = detail::body_content(ctx_, b.body, schema::language, nullptr);
    if (const auto* a = c.attribute("edition")) {
        std::string kw = detail::expr_keyword(ctx_, a->expr);
        if (kw.empty()) {
            ctx_.error(code::invalid_language_edition, "Invalid language edition",
                       "The edition argument expects a bare language edition keyword, such as tofu2024.",
                       a->expr.range);
        } else if (kw != "tofu2024") {
            ctx_.error(code::unsupported_language_edition, "Unsupported language edition",
                       fmt::format("This version of OpenTofu supports only language edition tofu2024; this module "
                                   "requires {}.",
                                   kw),
                       a->expr.range);
        }
    }
    if (const auto* a = c.attribute("experiments")) {
        if (auto items = detail::expr_list(ctx_, a->expr)) {
            for (const auto& item : *items) {
                std::string kw = detail::expr_keyword(ctx_, item);
                if (kw.empty()) {
                    ctx_.error(code::invalid_experiment_keyword, "Invalid experiment keyword",
                               "Elements of \"experiments\" must be experiment keywords.", item.range);
                } else {
                    ctx_.error(code::unknown_experiment_keyword, "Unknown experiment keyword",
                               fmt::format("There is no current experiment with the keyword \"{}\".", kw), item.range);
                }
            }
        }
    }
    for (const auto& inner : c.blocks) {
        Body body = detail::whole_body(ctx_, inner.body);
        if (const Argument* arg = body.find_argument("opentofu")) {
            check_opentofu_constraint(ContentAttr{arg->name, arg->name_range, arg->expr}, true);
        }
        for (const auto& prop : body.undecided) {
            if (prop.name != "opentofu") continue;
            check_opentofu_constraint(
                ContentAttr{prop.name, prop.name_range, Expression{ctx_.file, prop.value->range, nullptr, prop.value}},
                true);
        }
    }
}

// Terraform releases (not alphas) reject any experiment before looking
// at the keywords; no experiment is ever active.
void Decoder::decode_experiments(const ContentAttr& a, TerraformBlock&) {
    auto items = detail::expr_list(ctx_, a.expr);
    if (!items || items->empty()) return;
    ctx_.error(code::module_uses_experimental_features, "Module uses experimental features",
               "Experimental features are intended only for gathering early feedback on new language designs, and "
               "so are available only in alpha releases of Terraform.",
               a.name_range);
}

RequiredProvidersBlock Decoder::decode_required_providers(const ContentBlock& b) {
    RequiredProvidersBlock rp;
    rp.origin = origin(b.origin);
    rp.def_range = b.def_range;
    std::vector<ContentAttr> attrs = just_attributes(b);
    // Terraform drops every entry after the first error in the block.
    auto block_has_errors = [&, start = ctx_.diags->size()]() {
        for (std::size_t i = start; i < ctx_.diags->size(); ++i) {
            if ((*ctx_.diags)[i].severity == Severity::error) return true;
        }
        return false;
    };
    for (const auto& a : attrs) {
        RequiredProvider e;
        e.name = a.name;
        e.origin = a.expr.origin();
        cty::Value v = detail::static_value(ctx_, a.expr, false);
        if (v.is_known() && !v.is_null() && v.type().is_primitive()) {
            // The legacy form: a version constraint string.
            auto vc = decode_version_constraint(a);
            std::string type;
            std::string err;
            if (!parse_provider_part(e.name, type, err)) {
                ctx_.error(code::invalid_provider_name, "Invalid provider name", err, a.expr.range);
                continue;
            }
            if (vc) e.version_constraints = *vc;
            e.source = default_provider_source(type);
            rp.entries.push_back(std::move(e));
            continue;
        }
        const std::size_t before = ctx_.diags->size();
        check_provider_name_normalized(e.name, a.expr.range);
        if (ctx_.diags->size() != before) continue;
        const std::optional<std::vector<detail::MapPair>> kvs = expr_map_quietly(a.expr);
        if (!kvs) {
            ctx_.error(code::invalid_required_providers_object, "Invalid required_providers object",
                       "required_providers entries must be strings or objects.", a.expr.range);
            continue;
        }
        bool have_type = false;
        for (const auto& kv : *kvs) {
            std::string key;
            if (kv.key.native) {
                cty::Value k = detail::static_value(ctx_, kv.key);
                if (!k.is_known() || k.is_null() || k.type().kind() != cty::TypeKind::string) {
                    ctx_.error(code::invalid_attribute, "Invalid Attribute",
                               "Invalid attribute value for provider requirement", kv.key.range);
                    continue;
                }
                key = k.as_string();
            } else {
                // JSON object key
                std::string_view raw = ctx_.file->text().substr(kv.key.range.start.byte + 1,
                                                                kv.key.range.end.byte - kv.key.range.start.byte - 2);
                key = std::string(raw);
            }
            if (key == "version") {
                cty::Value cv = detail::static_value(ctx_, kv.value, false);
                if (!cv.is_known() || cv.is_null() || cv.type().kind() != cty::TypeKind::string ||
                    !valid_constraint_syntax(cv.as_string())) {
                    ctx_.error(code::invalid_version_constraint, "Invalid version constraint",
                               "This string does not use correct version constraint syntax.", kv.value.range);
                    continue;
                }
                e.version_constraints = split_version_constraints(cv.as_string());
            } else if (key == "source") {
                cty::Value sv = detail::static_value(ctx_, kv.value, false);
                if (!sv.is_known() || sv.is_null() || sv.type().kind() != cty::TypeKind::string) {
                    ctx_.error(code::invalid_source, "Invalid source", "Source must be specified as a string.",
                               kv.value.range);
                    continue;
                }
                auto parsed = parse_provider_source(sv.as_string());
                if (!parsed.ok()) {
                    ctx_.error(parsed.code, parsed.summary, parsed.detail, kv.value.range);
                    continue;
                }
                e.source_as_written = sv.as_string();
                e.source = parsed.fqn;
                have_type = true;
            } else if (key == "configuration_aliases") {
                auto items = detail::expr_list(ctx_, kv.value);
                if (!items) continue;
                for (const auto& item : *items) {
                    const auto* t = detail::traversal_for_expr(ctx_, item, false, false, false);
                    if (!t) continue;
                    if (t->steps.size() != 1 || t->steps[0].kind != hcl::StepKind::attr) {
                        ctx_.error(
                            code::invalid_configuration_aliases_value, "Invalid configuration_aliases value",
                            "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias",
                            kv.value.range);
                        continue;
                    }
                    if (t->root != e.name) {
                        ctx_.error(
                            code::invalid_configuration_aliases_value, "Invalid configuration_aliases value",
                            fmt::format(
                                "Configuration aliases must be prefixed with the provider name. Expected \"{}\", but found \"{}\".",
                                e.name, t->root),
                            kv.value.range);
                        continue;
                    }
                    e.configuration_aliases.push_back(fmt::format("{}.{}", t->root, t->steps[0].name));
                }
            } else {
                ctx_.error(code::invalid_required_providers_object, "Invalid required_providers object",
                           "required_providers objects can only contain \"version\", \"source\" and "
                           "\"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block.",
                           kv.key.range);
                break;
            }
        }
        if (block_has_errors()) continue;
        if (!have_type) {
            std::string type;
            std::string err;
            if (!parse_provider_part(e.name, type, err)) {
                ctx_.error(code::invalid_provider_name, "Invalid provider name", err, a.expr.range);
            } else {
                e.source = default_provider_source(type);
            }
        }
        rp.entries.push_back(std::move(e));
    }
    return rp;
}

void Decoder::decode_provider(const ContentBlock& b) {
    if (auto p = decode_provider_block(b)) out_.providers.emplace_back(std::move(*p), Declared{b.def_range});
}

std::optional<Provider> Decoder::decode_provider_block(const ContentBlock& b, Range* alias_range) {
    Provider p;
    p.name = b.labels[0];
    p.origin = origin(b.origin);
    p.config.from_json = b.body.json != nullptr;
    Content c = detail::body_content(ctx_, b.body, schema::provider, &p.config);
    {
        // A provider whose local name is not normalized is dropped.
        const std::size_t before = ctx_.diags->size();
        check_provider_name_normalized(p.name, b.def_range);
        if (ctx_.diags->size() != before) return std::nullopt;
    }
    if (const auto* a = c.attribute("alias")) {
        if (alias_range != nullptr) *alias_range = a->name_range;
        if (auto v = decode_string(*a)) {
            p.alias = v->value.get<std::string>();
            if (!detail::valid_identifier(*p.alias)) {
                ctx_.error(code::invalid_provider_configuration_alias, "Invalid provider configuration alias",
                           fmt::format("An alias must be a valid name. {}", bad_identifier_detail), a->expr.range);
            }
        }
    }
    if (const auto* a = c.attribute("version"); a != nullptr && test_file_ && engine_ == Engine::terraform) {
        // Terraform's decodeProviderBlock for test files (provider.go:101):
        // an error, and the constraint is not read.
        ctx_.error(code::version_constraints_not_allowed_in_test_files,
                   "Version constraints are not allowed in test files",
                   "A provider block of a test file cannot constrain the provider's version: give the constraint in "
                   "the required_providers block of the module that uses the provider.",
                   a->expr.range);
    } else if (a != nullptr) {
        ctx_.warning(code::version_constraints_inside_provider_configuration_blocks_are_deprecated,
                     "Version constraints inside provider configuration blocks are deprecated",
                     "Terraform 0.13 and earlier allowed provider version constraints inside the provider "
                     "configuration block, but that is now deprecated and will be removed in a future version of "
                     "Terraform. To silence this warning, move the provider version constraint into the "
                     "required_providers block.",
                     a->expr.range);
        if (auto vc = decode_version_constraint(*a)) p.version_constraints = DecodedValue{*vc, a->expr.origin()};
    }
    if (const auto* a = c.attribute("for_each"); a && engine_ == Engine::opentofu) p.for_each = a->expr;
    for (std::string_view reserved : {"count", "depends_on", "for_each", "source"}) {
        if (engine_ == Engine::opentofu && reserved == "for_each") continue;  // OpenTofu 1.9 provider iteration
        if (const auto* a = c.attribute(reserved)) {
            ctx_.error(
                code::reserved_argument_name_in_provider_block, "Reserved argument name in provider block",
                fmt::format("The provider argument name \"{}\" is reserved for use by Terraform in a future version.",
                            reserved),
                a->name_range);
        }
    }
    bool seen_escape = false;
    for (const auto& inner : c.blocks) {
        if (inner.type == "_") {
            if (seen_escape) {
                duplicate_escape(inner, "provider");
                continue;
            }
            seen_escape = true;
            detail::merge_escape_body(p.config, detail::whole_body(ctx_, inner.body));
        } else {
            ctx_.error(code::reserved_block_type_name_in_provider_block, "Reserved block type name in provider block",
                       fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.",
                                   inner.type),
                       inner.type_range);
        }
    }
    return p;
}

}  // namespace tfsift::config
