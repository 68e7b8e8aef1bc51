// State migration files, decoded one at a time as Terraform's loader reads
// them for `terraform state migrate` (internal/configs/state_migrate_file.go,
// loadStateMigrationFile): `state_store_provider` and `from` blocks only. A
// `from` block holds a `backend` or a `state_store` block (decoded as in a
// `terraform` block); a `state_store_provider` block holds one entry,
// `NAME = { source = "...", version = "1.2.3" }`, whose version is one exact
// release. A second block of a kind in the file is an error at the later
// one, and so is a `from` block holding both a backend and a state store,
// or a backend beside a `state_store_provider`. What the file contributes to
// the module is checked across its migration files in migration_checks.cpp.
#include <fmt/core.h>

#include "decoder.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::config {

namespace {

// Whether any of `diags` from index `mark` on is an error.
bool errors_since(const Diagnostics& diags, std::size_t mark) {
    for (std::size_t i = mark; i < diags.size(); ++i) {
        if (diags[i].severity == Severity::error) return true;
    }
    return false;
}

void bad_exact_version(const DecodeContext& ctx, std::string_view given, Range where) {
    ctx.error(
        code::invalid_provider_version_in_state_store_provider_configuration_block,
        "Invalid provider version in \"state_store_provider\" configuration block",
        fmt::format("The version must be a string naming one exact release, such as \"1.0.0\"; got {}.",
                    given.empty() ? std::string("a value that is not such a string") : fmt::format("\"{}\"", given)),
        where);
}

}  // namespace

std::optional<MigrationProvider> Decoder::decode_state_store_provider(const ContentBlock& b) {
    const std::vector<ContentAttr> attrs = just_attributes(b);
    if (attrs.size() != 1) {
        // Terraform's summary ends with a full stop, which no other summary
        // has; it is left out so that "summary: detail" reads well.
        ctx_.error(code::unexpected_number_of_state_store_providers,
                   "Unexpected number of providers described in \"state_store_provider\" configuration block",
                   fmt::format("A \"state_store_provider\" block names exactly one provider; this one names {}.",
                               attrs.size()),
                   b.def_range);
        return std::nullopt;
    }
    const ContentAttr& a = attrs.front();
    MigrationProvider out;
    out.local_name = std::string(a.name);
    out.decl_range = Range{a.name_range.start, a.expr.range.end};
    {
        const std::size_t mark = ctx_.diags->size();
        check_provider_name_normalized(a.name, a.expr.range);
        if (errors_since(*ctx_.diags, mark)) return std::nullopt;
    }
    // hcl.ExprMap's own diagnostics give way to Terraform's message.
    bool map_failed = false;
    std::optional<std::vector<detail::MapPair>> kvs = expr_map_quietly(a.expr, &map_failed);
    if (map_failed) kvs.reset();
    if (!kvs) {
        ctx_.error(code::invalid_state_store_provider_object, "Invalid \"state_store_provider\" object",
                   "The provider a \"state_store_provider\" block describes must be an object with \"source\" and "
                   "\"version\".",
                   a.expr.range);
        return std::nullopt;
    }
    // The first problem ends the decoding of the entry, as in Terraform.
    for (const auto& kv : *kvs) {
        const std::size_t mark = ctx_.diags->size();
        const cty::Value k = detail::static_value(ctx_, kv.key);
        if (errors_since(*ctx_.diags, mark)) return std::nullopt;
        if (!k.is_known() || k.is_null() || k.type().kind() != cty::TypeKind::string) {
            ctx_.error(code::invalid_attribute, "Invalid Attribute",
                       "The key of an entry of a \"state_store_provider\" provider must be \"source\" or \"version\".",
                       kv.key.range);
            return std::nullopt;
        }
        const std::string& key = k.as_string();
        if (key == "version") {
            const cty::Value v = detail::static_value(ctx_, kv.value, false);
            if (!v.is_known() || v.is_null() || v.type().kind() != cty::TypeKind::string) {
                bad_exact_version(ctx_, "", kv.value.range);
                return std::nullopt;
            }
            // One release, as "1.0.0": no operator, no list, no range.
            if (!providers::parse_version(v.as_string()).version) {
                bad_exact_version(ctx_, v.as_string(), kv.value.range);
                return std::nullopt;
            }
        } else if (key == "source") {
            const cty::Value v = detail::static_value(ctx_, kv.value, false);
            if (!v.is_known() || v.is_null() || v.type().kind() != cty::TypeKind::string) {
                ctx_.error(code::invalid_source_in_state_store_provider_configuration_block,
                           "Invalid source in \"state_store_provider\" configuration block",
                           "Source must be specified as a string.", kv.value.range);
                return std::nullopt;
            }
            const ProviderSourceResult parsed = parse_provider_source(v.as_string());
            if (!parsed.ok()) {
                ctx_.error(parsed.code, parsed.summary, parsed.detail, kv.value.range);
                return std::nullopt;
            }
            out.type = parsed.fqn.substr(parsed.fqn.rfind('/') + 1);
            out.has_source = true;
        } else {
            ctx_.error(code::invalid_state_store_provider_object, "Invalid state_store_provider object",
                       "The provider a \"state_store_provider\" block describes may only have \"source\" and "
                       "\"version\" attributes.",
                       kv.key.range);
            return std::nullopt;
        }
    }
    return out;
}

bool Decoder::decode_migration_from(const ContentBlock& b, MigrationFile& out) {
    const std::size_t mark = ctx_.diags->size();
    Content c = detail::body_content(ctx_, b.body, schema::migration_from, nullptr);
    std::optional<MigrationSource> state_store;
    std::optional<MigrationSource> backend;
    for (const auto& inner : c.blocks) {
        MigrationSource s{std::string(inner.labels[0]), {}, inner.def_range, b.def_range};
        if (inner.type == "state_store") {
            // Decoded as in a `terraform` block, before the duplicate check,
            // so a second block's own problems are reported too.
            TerraformBlock scratch;
            decode_state_store(inner, scratch);
            if (state_store) {
                ctx_.error(code::duplicate_state_store_configuration_block,
                           "Duplicate \"state_store\" configuration block",
                           "A \"from\" block may hold only one \"state_store\" block: it names the one state store "
                           "to migrate state from.",
                           inner.def_range);
                continue;
            }
            if (scratch.state_stores.empty()) continue;
            s.provider_name = scratch.state_store_providers.front();
            state_store = std::move(s);
        } else if (inner.type == "backend") {
            if (backend) {
                ctx_.error(code::duplicate_backend_configuration_block, "Duplicate \"backend\" configuration block",
                           "A \"from\" block may hold only one \"backend\" block: it names the one backend to "
                           "migrate state from.",
                           inner.def_range);
                continue;
            }
            backend = std::move(s);
        }
    }
    // A `from` block with any problem contributes nothing.
    if (errors_since(*ctx_.diags, mark)) return false;
    out.state_store = std::move(state_store);
    out.backend = std::move(backend);
    return true;
}

void Decoder::decode_migration_root(const BodyRef& body, MigrationFile& out) {
    Content c = detail::body_content(ctx_, body, schema::migration_file, nullptr);
    // Terraform counts a `from` block as taken once one has given a backend
    // or a state store: after an empty `from`, or one with errors, another
    // is not a duplicate.
    for (const auto& b : c.blocks) {
        if (b.type == "state_store_provider") {
            std::optional<MigrationProvider> p = decode_state_store_provider(b);
            if (out.provider) {
                ctx_.error(code::duplicate_state_store_provider_configuration_block,
                           "Duplicate \"state_store_provider\" configuration block",
                           "A module's state migration files may have only one \"state_store_provider\" block.",
                           b.def_range);
                continue;
            }
            if (p) out.provider = std::move(p);
        } else if (b.type == "from") {
            if (out.state_store || out.backend) {
                // Not decoded: Terraform looks no further into it.
                ctx_.error(code::duplicate_from_configuration_block, "Duplicate \"from\" configuration block",
                           "A module's state migration files may have only one \"from\" block.", b.def_range);
                continue;
            }
            decode_migration_from(b, out);
        }
    }
    if (out.backend && out.state_store) {
        ctx_.error(code::invalid_combination_of_backend_and_state_store,
                   "Invalid combination of \"backend\" and \"state_store\"",
                   "A \"from\" block names either the backend or the state store to migrate state from, not both: "
                   "remove one of them.",
                   out.backend->from_range);
    }
    // Terraform gives this one no position; the provider block it blames
    // when the two come from different files is where it points here.
    if (out.backend && out.provider) {
        ctx_.error(code::invalid_combination_of_backend_and_state_store_provider,
                   "Invalid combination of \"backend\" and \"state_store_provider\"",
                   "A \"state_store_provider\" block goes with a \"state_store\" block in \"from\", not with a "
                   "\"backend\": remove the \"state_store_provider\" block, or migrate from a state store instead.",
                   out.provider->decl_range);
    }
}

MigrationFile Decoder::run_migration_file() {
    MigrationFile out;
    out.source = ctx_.file;
    // Terraform reads only the native syntax (`.tfmigrate.hcl`).
    if (pf_.native) decode_migration_root(BodyRef{pf_.native->body, nullptr, {}}, out);
    return out;
}

MigrationFile decode_migration_file(ParsedFile& file, Diagnostics& diags) {
    // Migration files exist only for Terraform.
    Decoder d(file, false, diags, Engine::terraform);
    return d.run_migration_file();
}

}  // namespace tfsift::config
