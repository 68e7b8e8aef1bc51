#include "tfsift/config/decode.hpp"

#include <algorithm>
#include <span>

#include <fmt/core.h>

#include "body_content.hpp"
#include "tfsift/config/override_merger.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/config/type_constraint.hpp"
#include "tfsift/config/version_constraints.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/providers/version.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

using detail::BodyRef;
using detail::Content;
using detail::ContentAttr;
using detail::ContentBlock;
using detail::DecodeContext;

std::unique_ptr<ParsedFile> parse_config_file(const std::shared_ptr<const SourceFile>& source, FileSyntax syntax) {
    auto out = std::make_unique<ParsedFile>();
    out->source = source;
    out->syntax = syntax;
    if (syntax == FileSyntax::native) {
        out->native = hcl::parse(source);
        out->parse_diagnostics = out->native->diagnostics;
    } else {
        out->json = json::parse(source);
        out->parse_diagnostics = out->json->diagnostics;
        const json::Value& root = out->json->root;
        if (!out->json->has_errors() && !root.is_object()) {
            bool array_of_objects = root.is_array();
            for (const auto& i : root.items) array_of_objects = array_of_objects && i.is_object();
            if (!array_of_objects) {
                Diagnostic d;
                d.code = code::root_value_must_be_object;
                d.summary = "Root value must be object";
                d.detail = "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.";
                d.filename = source->path();
                d.subject = root.range;
                out->parse_diagnostics.push_back(std::move(d));
            }
        }
    }
    return out;
}

namespace {

constexpr const char* bad_identifier_detail =
    "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

bool contains(std::initializer_list<std::string_view> names, std::string_view n) {
    for (auto x : names) {
        if (x == n) return true;
    }
    return false;
}

class Decoder {
public:
    Decoder(ParsedFile& file, bool is_override, Diagnostics& diags, Engine engine) : pf_(file), engine_(engine) {
        ctx_.file = file.source.get();
        ctx_.arena = file.arena.get();
        ctx_.scratch = &file.scratch;
        ctx_.diags = &diags;
        ctx_.is_override = is_override;
        out_.source = file.source.get();
        out_.is_override = is_override;
    }

    ConfigFile run() {
        if (pf_.native) {
            decode_root(BodyRef{pf_.native->body, nullptr, {}});
        } else if (pf_.json) {
            const json::Value& root = pf_.json->root;
            if (root.is_object()) {
                decode_root(BodyRef{nullptr, &root, {}});
            } else if (root.is_array()) {
                for (const auto& item : root.items) {
                    if (item.is_object()) decode_root(BodyRef{nullptr, &item, {}});
                }
            }
        }
        return std::move(out_);
    }

private:
    Origin origin(Pos p) const { return Origin{ctx_.file, p}; }

    void decode_root(const BodyRef& body) {
        Content c = detail::body_content(ctx_, body, schema::file, nullptr);
        reserve_for(c.blocks);
        for (const auto& b : c.blocks) {
            if (b.type == "terraform") {
                decode_terraform(b);
            } else if (b.type == "tofu") {
                if (engine_ == Engine::opentofu) {
                    decode_terraform(b);
                } else {
                    ctx_.error(code::unsupported_block_type, "Unsupported block type", "Blocks of type \"tofu\" are not expected here.", b.type_range);
                }
            } else if (b.type == "ephemeral") {
                // Ephemeral resources (OpenTofu, and Terraform since v1.10)
                // are newer than the reference loader and are not part of the
                // effective document.
                decode_ephemeral(b);
            } else if (b.type == "action") {
                if (engine_ == Engine::terraform) {
                    decode_action(b);
                } else {
                    ctx_.error(code::unsupported_block_type, "Unsupported block type",
                               fmt::format("Blocks of type \"{}\" are not expected here.", b.type), b.type_range);
                }
            } else if (b.type == "language") {
                if (engine_ == Engine::opentofu) {
                    decode_language(b);
                } else {
                    ctx_.error(code::unsupported_block_type, "Unsupported block type",
                               fmt::format("Blocks of type \"{}\" are not expected here.", b.type), b.type_range);
                }
            } else if (b.type == "required_providers") {
                ctx_.error(code::invalid_required_providers_block, "Invalid required_providers block",
                           "A \"required_providers\" block must be nested inside a \"terraform\" block.", b.type_range);
            } else if (b.type == "provider") {
                decode_provider(b);
            } else if (b.type == "variable") {
                decode_variable(b);
            } else if (b.type == "locals") {
                decode_locals(b);
            } else if (b.type == "output") {
                decode_output(b);
            } else if (b.type == "module") {
                decode_module(b);
            } else if (b.type == "resource") {
                decode_resource(b, ResourceMode::managed);
            } else if (b.type == "data") {
                decode_resource(b, ResourceMode::data);
            } else if (b.type == "moved") {
                decode_moved(b);
            } else if (b.type == "import") {
                decode_import(b);
            }
            // import, check and removed blocks are newer than the reference
            // loader and are not part of the effective document; import
            // blocks are decoded for the checks that involve them.
        }
    }

    // Room for the file's declarations up front: a variable or resource is
    // large, and a vector growing one block at a time moves every earlier
    // one again.
    void reserve_for(const std::vector<ContentBlock>& blocks) {
        std::size_t variables = 0;
        std::size_t outputs = 0;
        std::size_t resources = 0;
        std::size_t module_calls = 0;
        for (const auto& b : blocks) {
            if (b.type == "variable") ++variables;
            if (b.type == "output") ++outputs;
            if (b.type == "resource" || b.type == "data") ++resources;
            if (b.type == "module") ++module_calls;
        }
        out_.variables.reserve(out_.variables.size() + variables);
        out_.outputs.reserve(out_.outputs.size() + outputs);
        out_.resources.reserve(out_.resources.size() + resources);
        out_.module_calls.reserve(out_.module_calls.size() + module_calls);
    }

    // ---- value helpers ------------------------------------------------------

    // gohcl.DecodeExpression into a Go string / bool.
    std::optional<cty::Value> decode_typed(const Expression& e, const cty::Type& want) {
        const std::size_t before = ctx_.diags->size();
        cty::Value v = detail::static_value(ctx_, e);
        for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
            if ((*ctx_.diags)[i].severity == Severity::error) return std::nullopt;
        }
        Range start{e.range.start, e.range.start};
        auto conv = cty::convert(v, want);
        if (!conv.ok()) {
            ctx_.error(code::unsuitable_value_type, "Unsuitable value type", "Unsuitable value: " + conv.error, start);
            return std::nullopt;
        }
        if (conv.value.is_null()) {
            ctx_.error(code::unsuitable_value_type, "Unsuitable value type", "Unsuitable value: value must not be null", start);
            return std::nullopt;
        }
        if (!conv.value.is_known()) {
            ctx_.error(code::unsuitable_value_type, "Unsuitable value type", "Unsuitable value: value must be known", start);
            return std::nullopt;
        }
        return conv.value;
    }

    std::optional<DecodedValue> decode_string(const ContentAttr& a) {
        // A literal string cannot fail to decode: its value is its text (in
        // NFC, as cty keeps strings), with no evaluation and no conversion.
        if (a.expr.native) {
            if (auto text = detail::literal_template_text(*a.expr.native)) {
                return DecodedValue{cty::normalize_nfc(*text), a.expr.origin()};
            }
        }
        auto v = decode_typed(a.expr, cty::Type::string());
        if (!v) return std::nullopt;
        return DecodedValue{v->as_string(), a.expr.origin()};
    }

    std::optional<DecodedValue> decode_bool(const ContentAttr& a) {
        auto v = decode_typed(a.expr, cty::Type::boolean());
        if (!v) return std::nullopt;
        return DecodedValue{v->as_bool(), a.expr.origin()};
    }

    // decodeVersionConstraint: a string (or null) in go-version's syntax.
    std::optional<std::vector<std::string>> decode_version_constraint(const ContentAttr& a) {
        const std::size_t before = ctx_.diags->size();
        cty::Value v = detail::static_value(ctx_, a.expr);
        for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
            if ((*ctx_.diags)[i].severity == Severity::error) return std::nullopt;
        }
        auto conv = cty::convert(v, cty::Type::string());
        if (!conv.ok()) {
            ctx_.error(code::invalid_version_constraint, "Invalid version constraint", fmt::format("A string value is required for {}.", a.name), a.expr.range);
            return std::nullopt;
        }
        if (conv.value.is_null()) return std::vector<std::string>{};
        if (!conv.value.is_known()) {
            ctx_.error(code::invalid_version_constraint, "Invalid version constraint", "Version constraints must be known.", a.expr.range);
            return std::nullopt;
        }
        const std::string& text = conv.value.as_string();
        if (!valid_constraint_syntax(text)) {
            ctx_.error(code::invalid_version_constraint, "Invalid version constraint", "This string does not use correct version constraint syntax.",
                       a.expr.range);
            return std::nullopt;
        }
        return split_version_constraints(text);
    }

    // hashicorp/go-version's constraint grammar: comma-separated
    // `[op] [v]N[.N]*[-pre][+meta]`.
    static bool valid_constraint_syntax(std::string_view s) {
        auto parts = split_version_constraints(s);
        if (parts.empty()) return false;
        for (const auto& p : parts) {
            std::string_view v = p;
            for (std::string_view op : {"~>", ">=", "<=", "=>", "=<", "!=", ">", "<", "="}) {
                if (v.starts_with(op)) {
                    v.remove_prefix(op.size());
                    break;
                }
            }
            while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
            if (!v.empty() && v.front() == 'v') v.remove_prefix(1);
            std::size_t i = 0;
            bool digits = false;
            bool need_digit = true;
            while (i < v.size() && (std::isdigit(static_cast<unsigned char>(v[i])) || v[i] == '.')) {
                if (v[i] == '.') {
                    if (need_digit) return false;
                    need_digit = true;
                } else {
                    digits = true;
                    need_digit = false;
                }
                ++i;
            }
            if (!digits || need_digit) return false;
            for (; i < v.size(); ++i) {
                char c = v[i];
                if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '+' || c == '~')) return false;
            }
        }
        return true;
    }

    void check_provider_name_normalized(std::string_view name, Range where) {
        std::string norm;
        std::string err;
        if (!parse_provider_part(name, norm, err)) {
            ctx_.error(code::invalid_provider_local_name, "Invalid provider local name", fmt::format("{} is an invalid provider local name: {}", name, err), where);
            return;
        }
        if (norm != name) {
            ctx_.error(code::invalid_provider_local_name, "Invalid provider local name",
                       fmt::format("Provider names must be normalized. Replace \"{}\" with \"{}\" to fix this error.", name, norm),
                       where);
        }
    }

    std::vector<Traversal> decode_depends_on(const ContentAttr& a) {
        std::vector<Traversal> out;
        auto items = detail::expr_list(ctx_, a.expr);
        if (!items) return out;
        for (const auto& e : *items) {
            if (const auto* t = detail::traversal_for_expr(ctx_, e, false, true, false)) out.push_back(detail::make_traversal(ctx_, *t, e));
        }
        return out;
    }

    // decodeProviderConfigRef: "aws" or "aws.alias".
    std::optional<std::string> decode_provider_ref(const Expression& e, std::string_view arg_name, Range* name_range = nullptr) {
        const std::size_t before = ctx_.diags->size();
        const hcl::ScopeTraversalExpr* t = detail::traversal_for_expr(ctx_, e, false, true, false);
        if (!t || t->steps.size() > 1) {
            // Only our own errors, not the generic traversal ones.
            ctx_.diags->resize(before);
            if (detail::is_native_quoted_string(e) && !t) {
                ctx_.error(code::invalid_provider_configuration_reference, "Invalid provider configuration reference", "A provider configuration reference must not be given in quotes.", e.range);
            } else {
                ctx_.error(code::invalid_provider_configuration_reference, "Invalid provider configuration reference",
                           fmt::format("The {} argument requires a provider type name, optionally followed by a period and then a configuration alias.", arg_name),
                           e.range);
            }
            return std::nullopt;
        }
        const std::size_t mid = ctx_.diags->size();
        check_provider_name_normalized(t->root, t->root_range());
        for (std::size_t i = mid; i < ctx_.diags->size(); ++i) {
            if ((*ctx_.diags)[i].severity == Severity::error) return std::nullopt;
        }
        if (name_range) *name_range = t->root_range();
        std::string out(t->root);
        if (!t->steps.empty()) {
            const auto& step = t->steps[0];
            if (step.kind != hcl::StepKind::attr) {
                ctx_.error(code::invalid_provider_configuration_reference, "Invalid provider configuration reference",
                           "Provider name must either stand alone or be followed by a period and then a configuration alias.", step.range);
                return std::nullopt;
            }
            out += ".";
            out += step.name;
        }
        return out;
    }

    Check decode_check_rule(const ContentBlock& b) {
        Check c;
        c.origin = origin(b.origin);
        Content content = detail::body_content(ctx_, b.body, schema::validation, nullptr);
        if (const auto* a = content.attribute("condition")) {
            c.condition = a->expr;
            if (b.type != "validation" && detail::expression_variables(ctx_, a->expr).empty()) {
                ctx_.error(b.type == "precondition" ? code::invalid_precondition_expression
                                                   : code::invalid_postcondition_expression,
                           fmt::format("Invalid {} expression", b.type),
                           "The condition expression must refer to at least one object from elsewhere in the "
                           "configuration, or else its result would not be checking anything.",
                           a->expr.range);
            }
        }
        if (const auto* a = content.attribute("error_message")) c.error_message = a->expr;
        if (ctx_.is_override && b.type != "validation") {
            ctx_.error(b.type == "precondition" ? code::cant_override_precondition_blocks : code::cant_override_postcondition_blocks,
                        fmt::format("Can't override {} blocks", b.type),
                       fmt::format("Override files cannot override \"{}\" blocks.", b.type), b.def_range);
        }
        return c;
    }

    // ---- terraform ------------------------------------------------------------

    void decode_terraform(const ContentBlock& b) {
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
    void decode_state_store(const ContentBlock& b, TerraformBlock& tb) {
        if (engine_ != Engine::terraform) {
            ctx_.error(code::unsupported_block_type, "Unsupported block type", "Blocks of type \"state_store\" are not expected here.", b.type_range);
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
            ctx_.error(code::missing_provider_block, "Missing provider block", "A 'provider' block is required in 'state_store' blocks",
                       b.body.missing_item);
            return;
        }
        if (providers.size() > 1) {
            ctx_.error(code::duplicate_provider_block, "Duplicate provider block", "Only one 'provider' block should be present in a 'state_store' block",
                       providers[1]->def_range);
            return;
        }
        const ContentBlock& p = *providers.front();
        Body provider_config;
        Content pc = detail::body_content(ctx_, p.body, schema::provider, &provider_config);
        if (const auto* a = pc.attribute("alias")) {
            ctx_.error(code::unexpected_provider_alias, "Unexpected provider alias", "Aliases are disallowed in the 'provider' block in the 'state_store' block",
                       a->name_range);
            return;
        }
        tb.state_stores.push_back(std::move(store));
        tb.state_store_providers.emplace_back(p.labels[0]);
        tb.state_store_ranges.push_back(b.def_range);
    }

    // ---- language (OpenTofu) ---------------------------------------------------

    // The OpenTofu release whose language rules tfsift applies: version
    // constraints in `language.compatible_with.opentofu` (and the legacy
    // `required_version` of `.tofu` files) are checked against it.
    static providers::Version opentofu_language_version() { return providers::Version{1, 12, 0, {}, {}}; }

    bool in_tofu_file() const {
        const std::string& p = ctx_.file->path();
        return p.ends_with(".tofu") || p.ends_with(".tofu.json");
    }

    // A module whose OpenTofu version constraint rejects the version tfsift
    // implements cannot be loaded by it ("Incompatible module").
    void check_opentofu_constraint(const ContentAttr& a, bool warn_ineffective) {
        if (auto vc = decode_version_constraint(a)) check_opentofu_constraint(*vc, a.expr.range, warn_ineffective);
    }

    void check_opentofu_constraint(const std::vector<std::string>& vc, Range range, bool warn_ineffective) {
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
        } else if (warn_ineffective && providers::constraints_allow(*parsed.constraints, providers::Version{1, 11, 0, {}, {}})) {
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
    void decode_language(const ContentBlock& b) {
        Content c = detail::body_content(ctx_, b.body, schema::language, nullptr);
        if (const auto* a = c.attribute("edition")) {
            std::string kw = detail::expr_keyword(ctx_, a->expr);
            if (kw.empty()) {
                ctx_.error(code::invalid_language_edition, "Invalid language edition",
                           "The edition argument expects a bare language edition keyword, such as tofu2024.", a->expr.range);
            } else if (kw != "tofu2024") {
                ctx_.error(code::unsupported_language_edition, "Unsupported language edition",
                           fmt::format("This version of OpenTofu supports only language edition tofu2024; this module "
                                       "requires {}.", kw),
                           a->expr.range);
            }
        }
        if (const auto* a = c.attribute("experiments")) {
            if (auto items = detail::expr_list(ctx_, a->expr)) {
                for (const auto& item : *items) {
                    std::string kw = detail::expr_keyword(ctx_, item);
                    if (kw.empty()) {
                        ctx_.error(code::invalid_experiment_keyword, "Invalid experiment keyword", "Elements of \"experiments\" must be experiment keywords.",
                                   item.range);
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
    void decode_experiments(const ContentAttr& a, TerraformBlock&) {
        auto items = detail::expr_list(ctx_, a.expr);
        if (!items || items->empty()) return;
        ctx_.error(code::module_uses_experimental_features, "Module uses experimental features",
                   "Experimental features are intended only for gathering early feedback on new language designs, and "
                   "so are available only in alpha releases of Terraform.",
                   a.name_range);
    }

    RequiredProvidersBlock decode_required_providers(const ContentBlock& b) {
        RequiredProvidersBlock rp;
        rp.origin = origin(b.origin);
        rp.def_range = b.def_range;
        // JustAttributes: every argument is an entry; nested blocks are errors.
        std::vector<ContentAttr> attrs;
        if (b.body.native) {
            for (const auto& a : b.body.native->attributes) {
                attrs.push_back(ContentAttr{a.name, a.name_range(), Expression{ctx_.file, a.expr->range, a.expr, nullptr}});
            }
            for (const auto& nb : b.body.native->blocks) {
                ctx_.error(code::unexpected_block, fmt::format("Unexpected \"{}\" block", nb.type), "Blocks are not allowed here.", nb.type_range());
            }
        } else if (b.body.json) {
            for (const auto& m : b.body.json->members) {
                if (m.name == "//") continue;
                attrs.push_back(ContentAttr{m.name, m.name_range, Expression{ctx_.file, m.value.range, nullptr, &m.value}});
            }
        }
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
            std::optional<std::vector<detail::MapPair>> kvs;
            {
                Diagnostics scratch;
                Diagnostics* saved = ctx_.diags;
                const_cast<DecodeContext&>(ctx_).diags = &scratch;
                kvs = detail::expr_map(ctx_, a.expr);
                const_cast<DecodeContext&>(ctx_).diags = saved;
            }
            if (!kvs) {
                ctx_.error(code::invalid_required_providers_object, "Invalid required_providers object", "required_providers entries must be strings or objects.", a.expr.range);
                continue;
            }
            bool have_type = false;
            for (const auto& kv : *kvs) {
                std::string key;
                if (kv.key.native) {
                    cty::Value k = detail::static_value(ctx_, kv.key);
                    if (!k.is_known() || k.is_null() || k.type().kind() != cty::TypeKind::string) {
                        ctx_.error(code::invalid_attribute, "Invalid Attribute", "Invalid attribute value for provider requirement", kv.key.range);
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
                        ctx_.error(code::invalid_version_constraint, "Invalid version constraint", "This string does not use correct version constraint syntax.", kv.value.range);
                        continue;
                    }
                    e.version_constraints = split_version_constraints(cv.as_string());
                } else if (key == "source") {
                    cty::Value sv = detail::static_value(ctx_, kv.value, false);
                    if (!sv.is_known() || sv.is_null() || sv.type().kind() != cty::TypeKind::string) {
                        ctx_.error(code::invalid_source, "Invalid source", "Source must be specified as a string.", kv.value.range);
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
                            ctx_.error(code::invalid_configuration_aliases_value, "Invalid configuration_aliases value",
                                       "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias",
                                       kv.value.range);
                            continue;
                        }
                        if (t->root != e.name) {
                            ctx_.error(code::invalid_configuration_aliases_value, "Invalid configuration_aliases value",
                                       fmt::format("Configuration aliases must be prefixed with the provider name. Expected \"{}\", but found \"{}\".",
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

    // ---- provider -------------------------------------------------------------

    void decode_provider(const ContentBlock& b) {
        Provider p;
        p.name = b.labels[0];
        p.origin = origin(b.origin);
        p.config.from_json = b.body.json != nullptr;
        Content c = detail::body_content(ctx_, b.body, schema::provider, &p.config);
        {
            // A provider whose local name is not normalized is dropped.
            const std::size_t before = ctx_.diags->size();
            check_provider_name_normalized(p.name, b.def_range);
            if (ctx_.diags->size() != before) return;
        }
        if (const auto* a = c.attribute("alias")) {
            if (auto v = decode_string(*a)) {
                p.alias = v->value.get<std::string>();
                if (!detail::valid_identifier(*p.alias)) {
                    ctx_.error(code::invalid_provider_configuration_alias, "Invalid provider configuration alias",
                               fmt::format("An alias must be a valid name. {}", bad_identifier_detail), a->expr.range);
                }
            }
        }
        if (const auto* a = c.attribute("version")) {
            ctx_.warning(code::version_constraints_inside_provider_configuration_blocks_are_deprecated, "Version constraints inside provider configuration blocks are deprecated",
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
                ctx_.error(code::reserved_argument_name_in_provider_block, "Reserved argument name in provider block",
                           fmt::format("The provider argument name \"{}\" is reserved for use by Terraform in a future version.", reserved),
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
                           fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.", inner.type),
                           inner.type_range);
            }
        }
        out_.providers.emplace_back(std::move(p), Declared{b.def_range});
    }

    void duplicate_escape(const ContentBlock& b, std::string_view what) {
        ctx_.error(code::duplicate_escaping_block, "Duplicate escaping block",
                   fmt::format("The special block type \"_\" can be used to force particular arguments to be "
                               "interpreted as {}-type-specific rather than as meta-arguments, but each {} block can have "
                               "only one such block.",
                               what, what),
                   b.def_range);
    }

    // ---- variable -------------------------------------------------------------

    void decode_variable(const ContentBlock& b) {
        Variable v;
        v.name = b.labels[0];
        v.origin = origin(b.origin);
        v.constraint_type = cty::Type::dynamic();
        if (!detail::valid_identifier(v.name)) {
            ctx_.error(code::invalid_variable_name, "Invalid variable name", bad_identifier_detail, b.label_ranges[0]);
        }
        if (contains({"source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals"}, v.name)) {
            ctx_.error(code::invalid_variable_name, "Invalid variable name",
                       fmt::format("The variable name \"{}\" is reserved due to its special meaning inside module blocks.", v.name),
                       b.label_ranges[0]);
        }
        Content c = detail::body_content(ctx_, b.body, schema::variable, nullptr);
        if (const auto* a = c.attribute("description")) v.description = decode_string(*a);
        if (const auto* a = c.attribute("deprecated"); a && engine_ == Engine::opentofu) {
            check_variable_deprecation(*a, b.label_ranges[0]);
        }
        if (const auto* a = c.attribute("type")) {
            v.type_expr = a->expr;
            decode_variable_type(*a, v);
        }
        v.has_type = v.type_expr || !ctx_.is_override;
        if (const auto* a = c.attribute("sensitive")) {
            if (auto d = decode_bool(*a)) v.sensitive = *d;
        }
        if (const auto* a = c.attribute("nullable")) {
            if (auto d = decode_bool(*a)) v.nullable = *d;
        }
        if (const auto* a = c.attribute("ephemeral")) {
            if (auto d = decode_bool(*a)) v.ephemeral = d->value.get<bool>();
        }
        if (const auto* a = c.attribute("const")) {
            if (auto d = decode_bool(*a)) v.is_const = d->value.get<bool>();
        }
        if (v.is_const && engine_ == Engine::terraform) {
            // Terraform v1.15: a const variable is known while loading, so
            // its value may be neither hidden nor left out of the plan.
            if (v.sensitive.value.get<bool>()) {
                ctx_.error(code::const_variable_cannot_be_sensitive, "Const variable cannot be sensitive",
                           "A variable that is marked as \"const\" cannot also be marked as \"sensitive\".", b.def_range);
            }
            if (v.ephemeral) {
                ctx_.error(code::const_variable_cannot_be_ephemeral, "Const variable cannot be ephemeral",
                           "A variable that is marked as \"const\" cannot also be marked as \"ephemeral\".", b.def_range);
            }
        }
        if (const auto* a = c.attribute("default")) {
            v.default_expr = a->expr;
            cty::Value val = detail::static_value(ctx_, a->expr);
            cty::Value shown = val;
            if (v.type_expr) {
                if (v.type_defaults && !val.is_null()) val = apply_type_defaults(*v.type_defaults, val);
                auto conv = cty::convert(val, v.constraint_type);
                if (!conv.ok()) {
                    ctx_.error(code::variable_default_type_mismatch, "Invalid default value for variable",
                               fmt::format("This default value is not compatible with the variable's type constraint: {}.", conv.error),
                               a->expr.range);
                    val = shown;
                } else {
                    val = conv.value;
                    if (engine_ == Engine::opentofu) {
                        warn_ignored_object_attributes(a->expr.native, a->expr.json, v.constraint_type);
                    }
                }
            }
            if (!v.nullable.value.get<bool>() && val.is_null()) {
                ctx_.error(code::variable_default_not_nullable, "Invalid default value for variable", "A null default value is not valid when nullable=false.",
                           a->expr.range);
            }
            v.default_cty = val;
        }
        for (const auto& inner : c.blocks) {
            if (inner.type != "validation") continue;
            Check check = decode_check_rule(inner);
            if (ctx_.is_override) {
                ctx_.error(code::cant_override_validations, "Can't override validations", "Override files cannot override variable validations.", inner.def_range);
            }
            if (check.condition) {
                bool refers_to_self = false;
                for (const auto* t : detail::expression_variables(ctx_, *check.condition)) {
                    if (t->root == "var" && !t->steps.empty() && t->steps[0].kind == hcl::StepKind::attr && t->steps[0].name == v.name) {
                        refers_to_self = true;
                    }
                }
                if (!refers_to_self) {
                    ctx_.error(code::invalid_variable_validation_condition, "Invalid variable validation condition",
                               fmt::format("The condition for variable \"{}\" must refer to var.{} in order to test incoming values.", v.name, v.name),
                               check.condition->range);
                }
            }
            v.validations.push_back(check);
        }
        out_.variables.emplace_back(std::move(v), Declared{b.def_range});
    }

    void decode_variable_type(const ContentAttr& a, Variable& v) {
        const Expression& e = a.expr;
        // Terraform 0.11 wrote type constraints in quotes.
        if (detail::is_native_quoted_string(e)) {
            const auto& lit = hcl::as<hcl::LiteralExpr>(*hcl::as<hcl::TemplateExpr>(*e.native).parts[0]);
            std::string_view s = lit.text;
            if (s == "string" || s == "list" || s == "map") {
                std::string detail =
                    "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now "
                    "deprecated and will be removed in a future version of Terraform. ";
                if (s == "string") {
                    detail += "Remove the quotes around \"string\".";
                } else {
                    detail += fmt::format("Remove the quotes around \"{}\" and write {}(string) instead to explicitly "
                                          "indicate that the {} elements are strings.",
                                          s, s, s);
                }
                ctx_.error(code::invalid_quoted_type_constraints, "Invalid quoted type constraints", detail, e.range);
            } else {
                ctx_.error(code::invalid_legacy_variable_type_hint, "Invalid legacy variable type hint",
                           "To provide a full type expression, remove the surrounding quotes and give the type expression directly.",
                           e.range);
            }
            v.constraint_type = cty::Type::dynamic();
            return;
        }
        std::string kw = detail::expr_keyword(ctx_, e);
        if (kw == "list" || kw == "map") {
            v.constraint_type = kw == "list" ? cty::Type::list(cty::Type::dynamic()) : cty::Type::map(cty::Type::dynamic());
            return;
        }
        const hcl::Expr* native = e.native;
        if (e.json) {
            if (!e.json->is_string()) {
                ctx_.error(code::invalid_type_specification, "Invalid type specification",
                           "A type specification is either a primitive type keyword (bool, number, string) or a complex "
                           "type constructor call, like list(string).",
                           e.range);
                v.constraint_type = cty::Type::dynamic();
                return;
            }
            native = detail::json_string_expr(ctx_, *e.json, false, *ctx_.diags);
        }
        std::optional<TypeConstraint> tc;
        if (e.native) {
            // Native syntax is remembered by its text (a type read from a
            // JSON string is not: its text is not the file's).
            const Range r = e.native->range;
            const std::string_view text = ctx_.file->text().substr(r.start.byte, r.end.byte - r.start.byte);
            tc = parse_type_constraint(*e.native, text, ctx_.file->path(), *ctx_.diags);
        } else if (native) {
            tc = parse_type_constraint(*native, ctx_.file->path(), *ctx_.diags);
        }
        if (!tc) {
            v.constraint_type = cty::Type::dynamic();
            return;
        }
        v.constraint_type = tc->type;
        v.type_defaults = tc->defaults;
    }

    // ---- locals ---------------------------------------------------------------

    void decode_locals(const ContentBlock& b) {
        std::vector<ContentAttr> attrs;
        if (b.body.native) {
            for (const auto& a : b.body.native->attributes) {
                attrs.push_back(ContentAttr{a.name, a.name_range(), Expression{ctx_.file, a.expr->range, a.expr, nullptr}});
            }
            for (const auto& nb : b.body.native->blocks) {
                ctx_.error(code::unexpected_block, fmt::format("Unexpected \"{}\" block", nb.type), "Blocks are not allowed here.", nb.type_range());
            }
        } else if (b.body.json) {
            for (const auto& m : b.body.json->members) {
                if (m.name == "//") continue;
                attrs.push_back(ContentAttr{m.name, m.name_range, Expression{ctx_.file, m.value.range, nullptr, &m.value}});
            }
        }
        for (auto& a : attrs) {
            if (!detail::valid_identifier(a.name)) {
                ctx_.error(code::invalid_local_value_name, "Invalid local value name", bad_identifier_detail, a.name_range);
            }
            out_.locals.emplace_back(Local{std::string(a.name), a.expr}, Declared{a.name_range});
        }
    }

    // ---- output ---------------------------------------------------------------

    void decode_output(const ContentBlock& b) {
        Output o;
        o.name = b.labels[0];
        o.origin = origin(b.origin);
        if (!detail::valid_identifier(o.name)) ctx_.error(code::invalid_output_name, "Invalid output name", bad_identifier_detail, b.label_ranges[0]);
        Content c = detail::body_content(ctx_, b.body, schema::output, nullptr);
        if (const auto* a = c.attribute("description")) o.description = decode_string(*a);
        if (const auto* a = c.attribute("value")) o.value = a->expr;
        if (const auto* a = c.attribute("type")) {
            if (engine_ == Engine::terraform) {
                // Terraform v1.15: a type constraint as a variable's.
                Variable scratch;
                decode_variable_type(*a, scratch);
                o.type_expr = a->expr;
            } else {
                unsupported_argument(*a);
            }
        }
        if (const auto* a = c.attribute("sensitive")) {
            if (auto d = decode_bool(*a)) o.sensitive = *d;
        }
        if (const auto* a = c.attribute("depends_on")) o.depends_on = decode_depends_on(*a);
        if (const auto* a = c.attribute("deprecated"); a && engine_ == Engine::opentofu) check_deprecation_message(*a);
        for (const auto& inner : c.blocks) {
            if (inner.type == "precondition") {
                o.preconditions.push_back(decode_check_rule(inner));
            } else if (inner.type == "postcondition") {
                ctx_.error(code::postconditions_are_not_allowed, "Postconditions are not allowed", "Output values can only have preconditions, not postconditions.",
                           inner.type_range);
            }
        }
        out_.outputs.emplace_back(std::move(o), Declared{b.def_range});
    }

    // Ephemeral resources (OpenTofu, Terraform v1.10+), checked as the loaders check them but
    // not kept in the model (they are newer than the reference loader and
    // not part of the effective document). They take the meta-arguments of
    // a data resource; they are never created nor destroyed, so the
    // lifecycle arguments about replacing and destroying, connection blocks
    // and provisioners have no meaning for them and are errors.
    void decode_ephemeral(const ContentBlock& b) {
        Resource r;
        r.mode = ResourceMode::ephemeral;
        r.type = b.labels[0];
        r.name = b.labels[1];
        r.origin = origin(b.origin);
        if (!detail::valid_identifier(b.labels[0])) {
            ctx_.error(code::invalid_ephemeral_resource_type_name, "Invalid ephemeral resource type name", bad_identifier_detail, b.label_ranges[0]);
        }
        if (!detail::valid_identifier(b.labels[1])) {
            ctx_.error(code::invalid_ephemeral_resource_name, "Invalid ephemeral resource name", bad_identifier_detail, b.label_ranges[1]);
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
                    ctx_.error(code::duplicate_lifecycle_block, "Duplicate lifecycle block", "This ephemeral resource already has a lifecycle block.",
                               inner.def_range);
                    continue;
                }
                seen_lifecycle = true;
                Content lc = detail::body_content(ctx_, inner.body, schema::data_lifecycle, nullptr);
                for (const auto& a : lc.attributes) {
                    ctx_.error(code::invalid_ephemeral_resource_lifecycle_argument, "Invalid ephemeral resource lifecycle argument",
                               fmt::format("The lifecycle argument \"{}\" applies only to managed resources "
                                           "(\"resource\" blocks); an ephemeral resource is never planned for "
                                           "replacement or destruction.",
                                           a.name),
                               a.name_range);
                }
                for (const auto& cond : lc.blocks) {
                    if (cond.type == "action_trigger") {
                        invalid_action_trigger(cond, code::invalid_ephemeral_resource_lifecycle_nested_block, "ephemeral resource",
                                               "ephemeral resources");
                    } else {
                        (void)decode_check_rule(cond);
                    }
                }
            } else if (inner.type == "connection" || inner.type == "provisioner") {
                ctx_.error(code::invalid_block_in_ephemeral_resource, fmt::format("Invalid {} block in ephemeral resource", inner.type),
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
                ctx_.error(code::reserved_block_type_name_in_ephemeral_block, "Reserved block type name in ephemeral block",
                           fmt::format("The block type name \"{}\" is reserved for use by a future version of the language.",
                                       inner.type),
                           inner.type_range);
            }
        }
        r.config = std::move(remain);
        out_.others.emplace_back(std::move(r), Declared{b.def_range});
    }

    // ---- actions (Terraform v1.14) ------------------------------------------------

    // An `action` block: a provider-defined operation, configured in one
    // `config` block, run by a resource's `action_trigger` or by `-invoke`.
    void decode_action(const ContentBlock& b) {
        Resource r;
        r.mode = ResourceMode::action;
        r.type = b.labels[0];
        r.name = b.labels[1];
        r.origin = origin(b.origin);
        if (!detail::valid_identifier(r.type)) ctx_.error(code::invalid_action_type_name, "Invalid action type name", bad_identifier_detail, b.label_ranges[0]);
        if (!detail::valid_identifier(r.name)) ctx_.error(code::invalid_action_name, "Invalid action name", bad_identifier_detail, b.label_ranges[1]);
        Content c = detail::body_content(ctx_, b.body, schema::action, nullptr);
        if (const auto* a = c.attribute("count")) r.count = a->expr;
        if (const auto* a = c.attribute("for_each")) {
            r.for_each = a->expr;
            if (r.count) {
                ctx_.error(code::invalid_combination_of_count_and_for_each, "Invalid combination of \"count\" and \"for_each\"",
                           "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used.",
                           a->name_range);
            }
        }
        bool seen_config = false;
        for (const auto& inner : c.blocks) {
            if (seen_config) {
                ctx_.error(code::duplicate_config_block, "Duplicate config block", "An action must contain only one nested \"config\" block.",
                           inner.def_range);
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

    // `lifecycle { action_trigger { ... } }` of a managed resource: the
    // events (keywords, each at most once) on which the listed actions run.
    void decode_action_trigger(const ContentBlock& b) {
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
                    ctx_.error(code::duplicate_event, fmt::format("Duplicate \"{}\" event", kw), "The event is already defined in this action_trigger block.",
                               e.range);
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
            ctx_.error(code::no_actions_specified, "No actions specified", "At least one action must be specified for an action_trigger.", b.def_range);
        }
        if (c.attribute("events") && events == 0) {
            ctx_.error(code::no_events_specified, "No events specified", "At least one event must be specified for an action_trigger.", b.def_range);
        }
    }

    void invalid_action_trigger(const ContentBlock& b, std::string_view code, std::string_view what,
                                std::string_view plural) {
        ctx_.error(code, fmt::format("Invalid {} lifecycle nested block", what),
                   fmt::format("The lifecycle nested block \"{}\" is defined only for managed resources (\"resource\" "
                               "blocks), and is not valid for {}.",
                               b.type, plural),
                   b.type_range);
    }

    // What hcl says of an argument its schema does not name, for the
    // arguments only one of the two engines knows.
    void unsupported_argument(const ContentAttr& a, std::string_view code = code::unsupported_argument) {
        ctx_.error(code, "Unsupported argument", fmt::format("An argument named \"{}\" is not expected here.", a.name),
                   a.name_range);
    }

    // OpenTofu warns about attributes of a variable default that the type
    // constraint's object types do not declare: conversion drops them, so
    // they are probably a mistake. Walks the default as written, alongside
    // the type (objects, and the elements of maps, lists and sets).
    void warn_ignored_object_attributes(const hcl::Expr* native, const json::Value* js, const cty::Type& type) {
        while (native && native->kind == hcl::ExprKind::parentheses) native = hcl::as<hcl::ParenthesesExpr>(*native).inner;
        auto visit = [&](const std::string& name, Range name_range, const hcl::Expr* vn, const json::Value* vj) {
            if (type.is_object()) {
                if (!type.has_attribute(name)) {
                    ctx_.warning(code::object_attribute_is_ignored, "Object attribute is ignored",
                                 fmt::format("The object type for this variable does not declare an attribute named "
                                             "\"{}\", so this value will be discarded when the default is converted.",
                                             name),
                                 name_range);
                } else {
                    warn_ignored_object_attributes(vn, vj, type.attributes().find(name)->second);
                }
            } else if (type.is_map()) {
                warn_ignored_object_attributes(vn, vj, type.element());
            }
        };
        if (type.is_list() || type.is_set()) {
            if (native && native->kind == hcl::ExprKind::tuple) {
                for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(*native).items) {
                    warn_ignored_object_attributes(item, nullptr, type.element());
                }
            } else if (js && js->kind == json::Kind::array) {
                for (const auto& item : js->items) warn_ignored_object_attributes(nullptr, &item, type.element());
            }
            return;
        }
        if (!type.is_object() && !type.is_map()) return;
        if (native && native->kind == hcl::ExprKind::object) {
            for (const auto& item : hcl::as<hcl::ObjectExpr>(*native).items) {
                const hcl::Expr* key = item.key;
                if (key->kind == hcl::ExprKind::object_key) key = hcl::as<hcl::ObjectKeyExpr>(*key).wrapped;
                std::string name;
                if (key->kind == hcl::ExprKind::scope_traversal && hcl::as<hcl::ScopeTraversalExpr>(*key).steps.empty()) {
                    name = std::string(hcl::as<hcl::ScopeTraversalExpr>(*key).root);
                } else {
                    cty::Value kv = detail::static_value(ctx_, Expression{ctx_.file, key->range, key, nullptr}, false);
                    if (kv.is_null() || !kv.is_known() || !(kv.type() == cty::Type::string())) continue;
                    name = kv.as_string();
                }
                visit(name, item.key->range, item.value, nullptr);
            }
        } else if (js && js->is_object()) {
            for (const auto& m : js->members) visit(m.name, m.name_range, nullptr, &m.value);
        }
    }

    // OpenTofu's `deprecated` argument (outputs, variables): a message for
    // the module's callers, so it must be a non-empty string.
    void check_deprecation_message(const ContentAttr& a) {
        auto v = decode_typed(a.expr, cty::Type::string());
        if (v && !v->is_null() && v->is_known() && v->as_string().empty()) {
            ctx_.error(code::invalid_deprecated_value, "Invalid deprecated value",
                       "The deprecated argument must be a non-empty message telling callers what to do instead.",
                       a.expr.range);
        }
    }

    // OpenTofu's `deprecated` on a variable: the message shown to callers
    // that still set it. Blank text (only white space) is rejected like an
    // empty string, at the variable's name.
    void check_variable_deprecation(const ContentAttr& a, Range name_range) {
        auto v = decode_typed(a.expr, cty::Type::string());
        if (!v) return;
        if (v->as_string().find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
            ctx_.error(code::invalid_deprecated_value, "Invalid `deprecated` value",
                       "The \"deprecated\" argument must not be blank: it should tell the module's callers how to stop "
                       "using this variable.",
                       name_range);
        }
    }

    // ---- module ---------------------------------------------------------------

    void decode_module(const ContentBlock& b) {
        ModuleCall mc;
        mc.name = b.labels[0];
        mc.origin = origin(b.origin);
        mc.config.from_json = b.body.json != nullptr;
        if (!detail::valid_identifier(mc.name)) ctx_.error(code::invalid_module_instance_name, "Invalid module instance name", bad_identifier_detail, b.label_ranges[0]);
        Content c = detail::body_content(ctx_, b.body, schema::module_call, &mc.config);
        // OpenTofu (1.8+) evaluates module `source` and `version` with the
        // module's variables and locals in scope. tfsift does not evaluate
        // them statically, so such a source is not loaded and such a version
        // is not checked (nor taken as a reason to read the source as a
        // registry address).
        // Terraform v1.15 does the same with `const` variables and locals.
        auto needs_static_evaluation = [&](const ContentAttr* a) {
            return a != nullptr && !detail::expression_variables(ctx_, a->expr).empty();
        };
        const ContentAttr* version = c.attribute("version");
        // A `version` makes the source a registry address. OpenTofu decides
        // that after evaluating it (a version that is null does not count);
        // Terraform whenever the argument is written.
        const bool has_version =
            version != nullptr && (engine_ == Engine::terraform || !needs_static_evaluation(version));
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
            if (auto vc = decode_version_constraint(*version)) mc.version_constraints = DecodedValue{*vc, version->expr.origin()};
        }
        if (const auto* a = source_attr) {
            if (auto sv = decode_string(*a)) {
                ModuleSource src;
                src.as_written = sv->value.get<std::string>();
                src.origin = a->expr.origin();
                auto parsed = parse_module_source(src.as_written, has_version);
                if (parsed.error.empty()) {
                    src.value = parsed.normalized;
                } else if (parsed.maybe_relative) {
                    ctx_.error(code::invalid_module_source_address, "Invalid module source address", parsed.error, a->expr.range);
                } else if (has_version) {
                    ctx_.error(code::invalid_registry_module_source_address, "Invalid registry module source address",
                               fmt::format("Failed to parse module registry address: {}.\n\nTerraform assumed that you "
                                           "intended a module registry source address because you also set the argument "
                                           "\"version\", which applies only to registry modules.",
                                           parsed.error),
                               a->expr.range);
                } else {
                    ctx_.error(code::invalid_module_source_address, "Invalid module source address", fmt::format("Failed to parse module source address: {}.", parsed.error),
                               a->expr.range);
                }
                mc.source = std::move(src);
            }
        }
        if (const auto* a = c.attribute("count")) mc.count = a->expr;
        if (const auto* a = c.attribute("for_each")) {
            mc.for_each = a->expr;
            if (mc.count) {
                ctx_.error(code::invalid_combination_of_count_and_for_each, "Invalid combination of \"count\" and \"for_each\"",
                           "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used "
                           "to be explicit about the number of module instances to be created.",
                           a->name_range);
            }
        }
        if (const auto* a = c.attribute("depends_on")) mc.depends_on = decode_depends_on(*a);
        if (const auto* a = c.attribute("providers")) {
            if (auto pairs = detail::expr_map(ctx_, a->expr)) {
                std::map<std::string, Range> seen;
                for (const auto& pair : *pairs) {
                    std::optional<std::string> key;
                    if (pair.key.native) {
                        key = decode_provider_ref(pair.key, "providers");
                    } else {
                        // A JSON key: the text between the quotes.
                        Diagnostics d;
                        json::Value fake;
                        fake.kind = json::Kind::string;
                        fake.range = pair.key.range;
                        std::string_view raw = ctx_.file->text().substr(pair.key.range.start.byte + 1,
                                                                         pair.key.range.end.byte - pair.key.range.start.byte - 2);
                        fake.text = std::string(raw);
                        const hcl::Expr* e = detail::json_string_expr(ctx_, fake, false, d);
                        if (e && e->kind == hcl::ExprKind::scope_traversal) {
                            key = hcl::render_traversal(hcl::as<hcl::ScopeTraversalExpr>(*e));
                        } else {
                            ctx_.error(code::invalid_provider_configuration_reference, "Invalid provider configuration reference",
                                       "The providers argument requires a provider type name, optionally followed by a period and then a configuration alias.",
                                       pair.key.range);
                        }
                    }
                    json::Value value_without_key;
                    bool keyed = false;
                    auto value = decode_provider_ref(without_instance_key(pair.value, value_without_key, keyed), "providers");
                    if (!key || !value) continue;
                    if (auto it = seen.find(*key); it != seen.end()) {
                        ctx_.error(code::duplicate_provider_address, "Duplicate provider address",
                                   fmt::format("A provider configuration was already passed to {} at {}:{}. Each child "
                                               "provider configuration can be assigned only once.",
                                               *key, ctx_.file->path(), ctx_.file->line(it->second.start)),
                                   pair.key.range);
                        continue;
                    }
                    seen.emplace(*key, pair.key.range);
                    mc.providers.push_back(ProviderPassing{*key, *value, pair.key.origin(), pair.value.origin(), keyed});
                }
            }
        }
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
                (void)detail::body_content(ctx_, inner.body, schema::module_lifecycle, nullptr);
            } else {
                ctx_.error(code::reserved_block_type_name_in_module_block, "Reserved block type name in module block",
                           fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.", inner.type),
                           inner.type_range);
            }
        }
        out_.module_calls.emplace_back(std::move(mc), Declared{b.def_range});
    }

    // ---- resource and data ------------------------------------------------------

    // A reference's resource address ("aws_instance.web", "data.x.y"), or "".
    static std::string referenced_resource(const hcl::ScopeTraversalExpr& t) {
        static constexpr std::string_view not_resources[] = {"var", "local", "module", "path", "terraform", "count",
                                                             "each", "self", "resource", "template", "iterator"};
        for (auto n : not_resources) {
            if (t.root == n) return {};
        }
        if (t.root == "data") {
            if (t.steps.size() < 2 || t.steps[0].kind != hcl::StepKind::attr || t.steps[1].kind != hcl::StepKind::attr) return {};
            return fmt::format("data.{}.{}", t.steps[0].name, t.steps[1].name);
        }
        if (t.steps.empty() || t.steps[0].kind != hcl::StepKind::attr) return {};
        return fmt::format("{}.{}", t.root, t.steps[0].name);
    }

    void validate_self_references(const Check& c, std::string_view check_type, const std::string& addr) {
        for (const auto* e : {&c.condition, &c.error_message}) {
            if (!*e) continue;
            for (const auto* t : detail::expression_variables(ctx_, **e)) {
                if (referenced_resource(*t) == addr) {
                    ctx_.error(code::invalid_self_reference, fmt::format("Invalid reference in {}", check_type),
                               fmt::format("Configuration for {} may not refer to itself.", addr), (*e)->range);
                    break;
                }
            }
        }
    }

    // Destroy-time provisioners may only refer to self, count.index, each.key.
    void only_self_refs(const Body& body) {
        for (const auto& a : body.arguments) {
            for (const auto* t : detail::expression_variables(ctx_, a.expr)) {
                bool valid = t->root == "self" || t->root == "path" || t->root == "terraform";
                if (t->steps.size() == 1 && t->steps[0].kind == hcl::StepKind::attr) {
                    if (t->root == "count" && t->steps[0].name == "index") valid = true;
                    if (t->root == "each" && t->steps[0].name == "key") valid = true;
                }
                if (!valid) {
                    ctx_.error(code::invalid_reference_from_destroy_provisioner, "Invalid reference from destroy provisioner",
                               "Destroy-time provisioners and their connection configurations may only reference "
                               "attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n"
                               "References to other resources during the destroy phase can cause dependency cycles and "
                               "interact poorly with create_before_destroy.",
                               a.expr.range);
                }
            }
        }
    }

    // A JSON body's undecided properties read as plain arguments (provisioner
    // and connection bodies have no nested blocks).
    static Body settled(Body body) {
        if (!body.undecided.empty()) resolve_json_body(body, {});
        return body;
    }

    std::optional<Provisioner> decode_provisioner(const ContentBlock& b) {
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
                ctx_.error(code::invalid_when_keyword, "Invalid \"when\" keyword", "The \"when\" argument requires one of the following keywords: create or destroy.",
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
                           "The \"on_failure\" argument requires one of the following keywords: continue or fail.", a->expr.range);
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
                ctx_.error(code::reserved_block_type_name_in_provisioner_block, "Reserved block type name in provisioner block",
                           fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.", inner.type),
                           inner.type_range);
            }
        }
        return p;
    }

    void decode_lifecycle(const ContentBlock& b, Resource& r) {
        const bool managed = r.mode == ResourceMode::managed;
        ctx_.unknown_member_code = code::lifecycle_unknown_member;
        Content c = detail::body_content(ctx_, b.body, managed ? schema::managed_lifecycle : schema::data_lifecycle, nullptr);
        ctx_.unknown_member_code = {};
        Lifecycle& lc = r.lifecycle;
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
            if (const auto* a = c.attribute("enabled"); a && engine_ != Engine::opentofu) {
                unsupported_argument(*a, code::lifecycle_unknown_member);
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
    }

    // The errors of decoding a lifecycle argument that must be a literal
    // (create_before_destroy, prevent_destroy, ignore_changes,
    // replace_triggered_by), made since `mark`, get the lifecycle's codes:
    // the shared helpers that made them do not know they are in a lifecycle
    // block. Diagnostics with a code of the lifecycle's own keep it.
    void recode_lifecycle_value(std::size_t mark, const ContentAttr& a) {
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
    bool quoted_wildcard(Range r) const {
        std::string_view text = ctx_.file->text();
        if (r.end.byte < r.start.byte || r.end.byte > text.size()) return false;
        std::string_view written = text.substr(r.start.byte, r.end.byte - r.start.byte);
        return written == "\"all\"" || written == "\"*\"";
    }

    void decode_ignore_changes(const ContentAttr& a, Lifecycle& lc) {
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
            if (const auto* t = detail::traversal_for_expr(ctx_, e, true, true, false)) list.push_back(detail::make_traversal(ctx_, *t, e));
        }
        if (star && !list.empty()) {
            ctx_.error(code::invalid_ignore_changes_ruleset, "Invalid ignore_changes ruleset", "Cannot mix wildcard string \"*\" with non-wildcard references.", *star);
        }
        lc.ignore_changes = std::move(list);
    }

    void decode_replace_triggered_by(const ContentAttr& a, Lifecycle& lc) {
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
                        ctx_.error(code::invalid_each_reference_in_replace_triggered_by_expression, "Invalid each reference in replace_triggered_by expression",
                                   "Only each.key may be used in replace_triggered_by.", e.range);
                    }
                } else if (t->root == "count") {
                    if (!(t->steps.size() >= 1 && t->steps[0].kind == hcl::StepKind::attr && t->steps[0].name == "index")) {
                        ctx_.error(code::invalid_count_reference_in_replace_triggered_by_expression, "Invalid count reference in replace_triggered_by expression",
                                   "Only count.index may be used in replace_triggered_by.", e.range);
                    }
                } else if (!referenced_resource(*t).empty() && t->root != "data") {
                    ++resources;
                } else {
                    ctx_.error(code::invalid_reference_in_replace_triggered_by_expression, "Invalid reference in replace_triggered_by expression",
                               "Only resources, count.index, and each.key may be used in replace_triggered_by.", e.range);
                    bad = true;
                }
            }
            if (bad) continue;
            if (resources == 0) {
                ctx_.error(code::invalid_replace_triggered_by_expression, "Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression.", e.range);
            } else if (resources > 1) {
                ctx_.error(code::invalid_replace_triggered_by_expression, "Invalid replace_triggered_by expression", "Multiple resource references in replace_triggered_by expression.", e.range);
            }
        }
    }

    void decode_resource(const ContentBlock& b, ResourceMode mode) {
        Resource r;
        r.mode = mode;
        r.type = b.labels[0];
        r.name = b.labels[1];
        r.origin = origin(b.origin);
        r.config.from_json = b.body.json != nullptr;
        const bool managed = mode == ResourceMode::managed;
        if (!detail::valid_identifier(r.type)) {
            ctx_.error(managed ? code::invalid_resource_type_name : code::invalid_data_source_name,
                       managed ? "Invalid resource type name" : "Invalid data source name", bad_identifier_detail, b.label_ranges[0]);
        }
        if (!detail::valid_identifier(r.name)) {
            ctx_.error(managed ? code::invalid_resource_name : code::invalid_data_resource_name,
                       managed ? "Invalid resource name" : "Invalid data resource name", bad_identifier_detail, b.label_ranges[1]);
        }
        Content c = detail::body_content(ctx_, b.body, managed ? schema::resource : schema::data, &r.config);
        if (const auto* a = c.attribute("count")) r.count = a->expr;
        if (const auto* a = c.attribute("for_each")) {
            r.for_each = a->expr;
            if (r.count) {
                ctx_.error(code::invalid_combination_of_count_and_for_each, "Invalid combination of \"count\" and \"for_each\"",
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
                    ctx_.error(code::duplicate_lifecycle_block, "Duplicate lifecycle block", "This resource already has a lifecycle block.", inner.def_range);
                    continue;
                }
                seen_lifecycle = true;
                decode_lifecycle(inner, r);
            } else if (inner.type == "connection") {
                if (r.connection) {
                    ctx_.error(code::duplicate_connection_block, "Duplicate connection block", "This resource already has a connection block.", inner.def_range);
                    continue;
                }
                r.connection = Connection{settled(detail::whole_body(ctx_, inner.body)), origin(inner.origin)};
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
                ctx_.error(managed ? code::reserved_block_type_name_in_resource_block
                                   : code::reserved_block_type_name_in_data_block,
                           managed ? "Reserved block type name in resource block" : "Reserved block type name in data block",
                           fmt::format("The block type name \"{}\" is reserved for use by Terraform in a future version.", inner.type),
                           inner.type_range);
            }
        }
        if (r.connection) {
            for (const auto& p : r.provisioners) {
                if (p.when == "destroy") {
                    only_self_refs(r.connection->config);
                    break;
                }
            }
        }
        out_.resources.emplace_back(std::move(r), Declared{b.def_range});
    }

    // OpenTofu 1.9: a reference to a provider configuration with for_each
    // names one of its instances, `aws.by_region[each.key]`. The key is an
    // expression evaluated per instance; what is checked statically is the
    // reference before it. Returns that part (for JSON, in `scratch`) and
    // sets `keyed`; any other expression, and every expression for
    // Terraform, is returned as it is.
    Expression without_instance_key(const Expression& e, json::Value& scratch, bool& keyed) const {
        if (engine_ != Engine::opentofu) return e;
        if (e.native && e.native->kind == hcl::ExprKind::index) {
            const auto& idx = hcl::as<hcl::IndexExpr>(*e.native);
            keyed = true;
            return Expression{ctx_.file, idx.collection->range, idx.collection, nullptr};
        }
        // A constant key (`aws.by_region["eu"]`) is the last step of the traversal.
        auto key_dropped = [&](std::span<const hcl::TraversalStep> steps) {
            return !steps.empty() && steps.back().kind == hcl::StepKind::index && !steps.back().legacy_index;
        };
        if (e.native && e.native->kind == hcl::ExprKind::scope_traversal) {
            const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e.native);
            if (key_dropped(t.steps)) {
                keyed = true;
                const auto* ref = ctx_.arena->make<hcl::ScopeTraversalExpr>(
                    hcl::Expr{hcl::ExprKind::scope_traversal, e.range}, t.root_end, t.root, t.steps.first(t.steps.size() - 1));
                return Expression{ctx_.file, e.range, ref, nullptr};
            }
        }
        if (e.native && e.native->kind == hcl::ExprKind::relative_traversal) {
            const auto& t = hcl::as<hcl::RelativeTraversalExpr>(*e.native);
            if (key_dropped(t.steps)) {
                keyed = true;
                const auto* ref = ctx_.arena->make<hcl::RelativeTraversalExpr>(
                    hcl::Expr{hcl::ExprKind::relative_traversal, e.range}, t.source, t.steps.first(t.steps.size() - 1));
                return Expression{ctx_.file, e.range, ref, nullptr};
            }
        }
        if (e.json && e.json->is_string()) {
            const std::string& text = e.json->text;
            std::size_t open = text.find('[');
            if (open != std::string::npos && open > 0 && text.ends_with("]")) {
                scratch = *e.json;
                scratch.text = text.substr(0, open);
                Expression out = e;
                out.json = &scratch;
                keyed = true;
                return out;
            }
        }
        return e;
    }

    // ---- moved ----------------------------------------------------------------

    void decode_moved(const ContentBlock& b) {
        Content c = detail::body_content(ctx_, b.body, schema::moved, nullptr);
        const auto* from = c.attribute("from");
        const auto* to = c.attribute("to");
        if (!from || !to) return;
        const auto* ft = detail::traversal_for_expr(ctx_, from->expr, false, false, false);
        const auto* tt = detail::traversal_for_expr(ctx_, to->expr, false, false, false);
        if (!ft || !tt) return;
        Moved m;
        m.from = detail::make_traversal(ctx_, *ft, from->expr);
        m.to = detail::make_traversal(ctx_, *tt, to->expr);
        m.origin = origin(b.origin);
        out_.moved.emplace_back(std::move(m), Declared{b.def_range});
    }

    // ---- import ---------------------------------------------------------------

    // The names along an import target address, instance keys left out:
    // `module.net["a"].aws_subnet.main[each.key]` gives module, net,
    // aws_subnet, main. The keys may be any expression (they are evaluated
    // for each import), so only the traversal around them matters here.
    // False when the expression is not an address.
    static bool import_address_names(const hcl::Expr* e, std::vector<std::string>& out) {
        if (e == nullptr) return false;
        switch (e->kind) {
            case hcl::ExprKind::index:
                return import_address_names(hcl::as<hcl::IndexExpr>(*e).collection, out);
            case hcl::ExprKind::relative_traversal: {
                const auto& rt = hcl::as<hcl::RelativeTraversalExpr>(*e);
                if (!import_address_names(rt.source, out)) return false;
                for (const auto& step : rt.steps) {
                    if (step.kind == hcl::StepKind::attr) out.emplace_back(step.name);
                }
                return true;
            }
            case hcl::ExprKind::scope_traversal: {
                const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
                out.emplace_back(t.root);
                for (const auto& step : t.steps) {
                    if (step.kind == hcl::StepKind::attr) out.emplace_back(step.name);
                }
                return true;
            }
            default:
                return false;
        }
    }

    // The same for a JSON string: the text with its bracketed keys removed,
    // split at the dots.
    static bool import_address_names(std::string_view text, std::vector<std::string>& out) {
        std::string name;
        int depth = 0;
        for (char ch : text) {
            if (ch == '[') {
                ++depth;
            } else if (ch == ']') {
                if (--depth < 0) return false;
            } else if (depth == 0) {
                if (ch == '.') {
                    out.push_back(std::move(name));
                    name.clear();
                } else {
                    name += ch;
                }
            }
        }
        out.push_back(std::move(name));
        return depth == 0;
    }

    // The instance key at the end of an import target address.
    static Import::Key import_to_key(const hcl::Expr* e) {
        if (e == nullptr) return Import::Key::none;
        auto last_step = [](std::span<const hcl::TraversalStep> steps) {
            if (steps.empty() || steps.back().kind != hcl::StepKind::index) return Import::Key::none;
            const hcl::LiteralExpr* key = steps.back().key();
            if (key == nullptr) return Import::Key::expression;
            if (key->literal == hcl::LiteralKind::string) return Import::Key::string;
            if (key->literal == hcl::LiteralKind::number) return Import::Key::number;
            return Import::Key::expression;
        };
        switch (e->kind) {
            case hcl::ExprKind::index:
                return Import::Key::expression;
            case hcl::ExprKind::relative_traversal:
                return last_step(hcl::as<hcl::RelativeTraversalExpr>(*e).steps);
            case hcl::ExprKind::scope_traversal:
                return last_step(hcl::as<hcl::ScopeTraversalExpr>(*e).steps);
            default:
                return Import::Key::none;
        }
    }

    static Import::Key import_to_key(std::string_view text) {
        if (text.empty() || text.back() != ']') return Import::Key::none;
        const auto open = text.rfind('[');
        if (open == std::string_view::npos) return Import::Key::expression;
        std::string_view key = text.substr(open + 1, text.size() - open - 2);
        if (key.size() >= 2 && key.front() == '"' && key.back() == '"' && key.find("${") == std::string_view::npos) {
            return Import::Key::string;
        }
        if (!key.empty() && key.find_first_not_of("0123456789") == std::string_view::npos) return Import::Key::number;
        return Import::Key::expression;
    }

    void decode_import(const ContentBlock& b) {
        // Terraform v1.12 imports by `identity` as well as by `id`.
        const bool terraform = engine_ == Engine::terraform;
        Content c = detail::body_content(ctx_, b.body, terraform ? schema::terraform_import : schema::import, nullptr);
        Import imp;
        imp.origin = origin(b.origin);
        if (const auto* a = c.attribute("id")) imp.id = a->expr;
        if (const auto* a = c.attribute("for_each")) imp.for_each = a->expr;
        if (terraform) {
            const bool identity = c.attribute("identity") != nullptr;
            if (!imp.id && !identity) {
                ctx_.error(code::invalid_import_block, "Invalid import block", "At least one of 'id' or 'identity' must be specified.", b.def_range);
            } else if (imp.id && identity) {
                ctx_.error(code::invalid_import_block, "Invalid import block", "Only one of 'id' or 'identity' can be specified.", b.def_range);
            }
        }
        if (const auto* a = c.attribute("to")) {
            imp.to = a->expr;
            imp.to_key = a->expr.json ? (a->expr.json->is_string() ? import_to_key(a->expr.json->text) : Import::Key::none)
                                      : import_to_key(a->expr.native);
            imp.to_text = std::string(a->expr.source_text());
            std::vector<std::string> names;
            bool ok = a->expr.json ? a->expr.json->is_string() && import_address_names(a->expr.json->text, names)
                                   : import_address_names(a->expr.native, names);
            if (!ok) {
                ctx_.error(code::invalid_import_address_expression, "Invalid import address expression",
                           "An import address must be the address of a resource, optionally inside modules, with "
                           "instance keys that may be any expression: module.network[\"eu\"].aws_subnet.main[each.key].",
                           a->expr.range);
                return;
            }
            std::size_t i = 0;
            while (i + 1 < names.size() && names[i] == "module") {
                imp.to_module = true;
                i += 2;
            }
            if (!imp.to_module && i + 1 < names.size() && names[i] != "data") {
                imp.to_resource = names[i] + "." + names[i + 1];
            }
        }
        if (const auto* a = c.attribute("provider")) {
            if (imp.to_module) {
                ctx_.error(code::invalid_import_provider_argument, "Invalid import provider argument",
                           "Only an import block that generates configuration may name a provider. An import into a "
                           "module uses the provider configurations the module block passes to that module (its "
                           "providers argument).",
                           a->name_range);
            }
            if (auto ref = decode_provider_ref(a->expr, "provider")) {
                imp.provider_ref = *ref;
                imp.provider_origin = origin(a->name_range.start);
            }
        }
        out_.imports.emplace_back(std::move(imp), Declared{b.def_range});
    }

    ParsedFile& pf_;
    Engine engine_;
    DecodeContext ctx_;
    ConfigFile out_;
};

}  // namespace

ConfigFile decode_config_file(ParsedFile& file, bool is_override, Diagnostics& diags, Engine engine) {
    Decoder d(file, is_override, diags, engine);
    return d.run();
}

}  // namespace tfsift::config
