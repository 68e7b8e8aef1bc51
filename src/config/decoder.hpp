// The decoder of one configuration file: its blocks decoded against their
// schemas into a ConfigFile, with Terraform's diagnostics. Private to
// src/config/; the entry point is decode_config_file (config/decode.hpp).
// The methods are defined one file per block family, as Terraform's
// internal/configs does:
//   decode.cpp                    entry point and dispatch of the top-level blocks
//   decode_shared.cpp             helpers every family uses (values, references, conditions)
//   decode_terraform.cpp          `terraform` / `tofu` blocks, required_providers, provider blocks
//   decode_values.cpp             variables, locals and outputs
//   decode_module.cpp             module calls
//   decode_resource.cpp           resources and data sources: lifecycle, provisioners, action triggers
//   decode_ephemeral_action.cpp   ephemeral resources and actions (newer than the reference loader)
//   decode_moved_import.cpp       moved, import and removed blocks
//   decode_test_file.cpp          test files (`*.tftest.hcl`)
//   decode_mock_data_file.cpp     mock data files (`*.tfmock.hcl`)
//   decode_query_file.cpp         query files (`*.tfquery.hcl`)
//   decode_migration_file.cpp     state migration files (`*.tfmigrate.hcl`)
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "body_content.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::config {

using detail::BodyRef;
using detail::Content;
using detail::ContentAttr;
using detail::ContentBlock;
using detail::DecodeContext;

inline constexpr const char* bad_identifier_detail =
    "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

inline bool contains(std::initializer_list<std::string_view> names, std::string_view n) {
    for (auto x : names) {
        if (x == n) return true;
    }
    return false;
}

class Decoder {
public:
    // `left_out` (may be null): decoding keeps at most
    // max_diagnostics_per_kind diagnostics of one kind and puts what it left
    // out there; null: every diagnostic is kept.
    Decoder(ParsedFile& file, bool is_override, Diagnostics& diags, Engine engine,
            std::vector<LeftOutDiagnostics>* left_out = nullptr);

    ConfigFile run();
    TestFile run_test_file();
    MockDataFile run_mock_data_file();
    QueryFile run_query_file();
    MigrationFile run_migration_file();

private:
    Origin origin(Pos p) const { return Origin{ctx_.file, p}; }

    // Calls `decode` with each top-level body of the file: the native body,
    // or the JSON root object, or each object of a JSON root array.
    template <class Decode>
    void for_each_root_body(Decode&& decode) {
        if (pf_.native) {
            decode(BodyRef{pf_.native->body, nullptr, {}});
        } else if (pf_.json) {
            const json::Value& root = pf_.json->root;
            if (root.is_object()) {
                decode(BodyRef{nullptr, &root, {}});
            } else if (root.is_array()) {
                for (const auto& item : root.items) {
                    if (item.is_object()) decode(BodyRef{nullptr, &item, {}});
                }
            }
        }
    }

    void decode_root(const BodyRef& body);
    // Applies the limit to the diagnostics added since the last call: only
    // between two top-level blocks, where no decoding looks back at them.
    void limit_diagnostics();

    // Room for the file's declarations up front: a variable or resource is
    // large, and a vector growing one block at a time moves every earlier
    // one again.
    void reserve_for(const std::vector<ContentBlock>& blocks);

    // ---- value helpers ------------------------------------------------------

    // gohcl.DecodeExpression into a Go string / bool.
    std::optional<cty::Value> decode_typed(const Expression& e, const cty::Type& want);

    // The arguments of a block whose body holds arguments only (HCL's
    // JustAttributes): nested blocks are errors, JSON "//" comments skipped.
    std::vector<ContentAttr> just_attributes(const ContentBlock& b);
    std::optional<DecodedValue> decode_string(const ContentAttr& a);
    // hcl.ExprMap over `e` with its own diagnostics set aside, for a caller
    // that reports Terraform's message instead; `had_errors` (may be null)
    // says whether it gave an error.
    std::optional<std::vector<detail::MapPair>> expr_map_quietly(const Expression& e, bool* had_errors = nullptr);

    std::optional<DecodedValue> decode_bool(const ContentAttr& a);

    // decodeVersionConstraint: a string (or null) in go-version's syntax.
    std::optional<std::vector<std::string>> decode_version_constraint(const ContentAttr& a);

    // hashicorp/go-version's constraint grammar: comma-separated
    // `[op] [v]N[.N]*[-pre][+meta]`.
    static bool valid_constraint_syntax(std::string_view s);

    void check_provider_name_normalized(std::string_view name, Range where);

    std::vector<Traversal> decode_depends_on(const ContentAttr& a);

    // decodeProviderConfigRef: "aws" or "aws.alias".
    std::optional<std::string> decode_provider_ref(const Expression& e, std::string_view arg_name,
                                                   Range* name_range = nullptr);

    Check decode_check_rule(const ContentBlock& b);

    // ---- terraform ------------------------------------------------------------

    void decode_terraform(const ContentBlock& b);

    // Terraform's pluggable state storage (v1.14, experimental): one nested
    // `provider "NAME"` block without an alias names the provider that
    // implements the store. OpenTofu has no such block.
    void decode_state_store(const ContentBlock& b, TerraformBlock& tb);

    // ---- language (OpenTofu) ---------------------------------------------------

    // The OpenTofu release whose language rules tfsift applies: version
    // constraints in `language.compatible_with.opentofu` (and the legacy
    // `required_version` of `.tofu` files) are checked against it.
    static providers::Version opentofu_language_version() { return providers::Version{1, 12, 0, {}, {}}; }

    bool in_tofu_file() const;

    // A module whose OpenTofu version constraint rejects the version tfsift
    // implements cannot be loaded by it ("Incompatible module").
    void check_opentofu_constraint(const ContentAttr& a, bool warn_ineffective);

    void check_opentofu_constraint(const std::vector<std::string>& vc, Range range, bool warn_ineffective);

    // OpenTofu's `language` block: `edition` is a bare keyword (only
    // tofu2024 exists), `experiments` a list of keywords (no experiment is
    // currently available), `compatible_with.opentofu` a version constraint;
    // every other argument of `compatible_with` is ignored.
    void decode_language(const ContentBlock& b);

    // Terraform releases (not alphas) reject any experiment before looking
    // at the keywords; no experiment is ever active.
    void decode_experiments(const ContentAttr& a, TerraformBlock&);

    RequiredProvidersBlock decode_required_providers(const ContentBlock& b);

    // ---- provider -------------------------------------------------------------

    void decode_provider(const ContentBlock& b);
    // A `provider` block as Terraform's decodeProviderBlock reads it, not
    // added to the file; unset when its name is not normalized. With
    // `alias_range`, where its `alias` argument is written.
    std::optional<Provider> decode_provider_block(const ContentBlock& b, Range* alias_range = nullptr);

    void duplicate_escape(const ContentBlock& b, std::string_view what);

    // ---- variable -------------------------------------------------------------

    void decode_variable(const ContentBlock& b);

    void decode_variable_type(const ContentAttr& a, Variable& v);

    // ---- locals ---------------------------------------------------------------

    void decode_locals(const ContentBlock& b);

    // ---- output ---------------------------------------------------------------

    void decode_output(const ContentBlock& b);

    // Ephemeral resources (OpenTofu, Terraform v1.10+), checked as the loaders check them but
    // not kept in the model (they are newer than the reference loader and
    // not part of the effective document). They take the meta-arguments of
    // a data resource; they are never created nor destroyed, so the
    // lifecycle arguments about replacing and destroying, connection blocks
    // and provisioners have no meaning for them and are errors.
    void decode_ephemeral(const ContentBlock& b);

    // ---- actions (Terraform v1.14) ------------------------------------------------

    // An `action` block: a provider-defined operation, configured in one
    // `config` block, run by a resource's `action_trigger` or by `-invoke`.
    void decode_action(const ContentBlock& b);

    // `lifecycle { action_trigger { ... } }` of a managed resource: the
    // events (keywords, each at most once) on which the listed actions run.
    void decode_action_trigger(const ContentBlock& b);

    void invalid_action_trigger(const ContentBlock& b, std::string_view code, std::string_view what,
                                std::string_view plural);

    // What hcl says of an argument its schema does not name, for the
    // arguments only one of the two engines knows.
    void unsupported_argument(const ContentAttr& a, std::string_view code = code::unsupported_argument);

    // OpenTofu warns about attributes of a variable default that the type
    // constraint's object types do not declare: conversion drops them, so
    // they are probably a mistake. Walks the default as written, alongside
    // the type (objects, and the elements of maps, lists and sets).
    void warn_ignored_object_attributes(const hcl::Expr* native, const json::Value* js, const cty::Type& type);

    // OpenTofu's `deprecated` argument (outputs, variables): a message for
    // the module's callers, so it must be a non-empty string.
    void check_deprecation_message(const ContentAttr& a);

    // OpenTofu's `deprecated` on a variable: the message shown to callers
    // that still set it. Blank text (only white space) is rejected like an
    // empty string, at the variable's name.
    void check_variable_deprecation(const ContentAttr& a, Range name_range);

    // ---- module ---------------------------------------------------------------

    void decode_module(const ContentBlock& b);

    // A `source` that parses without a version but not as a registry
    // address, in a call whose `version` is null: an error only for the
    // releases before Terraform v1.15.5 and OpenTofu v1.10, which took the
    // argument alone as making the source a registry address. Reported
    // under its own code; the lint keeps it for those releases only
    // (lint/engine_gate.hpp).
    void null_version_source(const std::string& source, Range range);

    // ---- resource and data ------------------------------------------------------

    // A reference's resource address ("aws_instance.web", "data.x.y"), or "".
    static std::string referenced_resource(const hcl::ScopeTraversalExpr& t);

    void validate_self_references(const Check& c, std::string_view check_type, const std::string& addr);

    // Destroy-time provisioners may only refer to self, count.index, each.key.
    void only_self_refs(const Body& body);

    // A JSON body's undecided properties read as plain arguments (provisioner
    // and connection bodies have no nested blocks).
    static Body settled(Body body);

    std::optional<Provisioner> decode_provisioner(const ContentBlock& b);

    // Returns where `enabled` (OpenTofu v1.11) is named, if it is.
    std::optional<Range> decode_lifecycle(const ContentBlock& b, Resource& r);

    // OpenTofu: `enabled` is a third way to say how many instances there
    // are, exclusive with `count` and `for_each` (name ranges of those
    // given). A `count` beside a `for_each` alone has its own error.
    void check_enabled_combination(std::optional<Range> count, std::optional<Range> enabled,
                                   std::optional<Range> for_each, std::string_view instances);

    // The errors of decoding a lifecycle argument that must be a literal
    // (create_before_destroy, prevent_destroy, ignore_changes,
    // replace_triggered_by), made since `mark`, get the lifecycle's codes:
    // the shared helpers that made them do not know they are in a lifecycle
    // block. Diagnostics with a code of the lifecycle's own keep it.
    void recode_lifecycle_value(std::size_t mark, const ContentAttr& a);

    // Whether `r` of this file holds `"all"` or `"*"`, as written.
    bool quoted_wildcard(Range r) const;

    void decode_ignore_changes(const ContentAttr& a, Lifecycle& lc);

    void decode_replace_triggered_by(const ContentAttr& a, Lifecycle& lc);

    void decode_resource(const ContentBlock& b, ResourceMode mode);

    // OpenTofu 1.9: a reference to a provider configuration with for_each
    // names one of its instances, `aws.by_region[each.key]`. The key is an
    // expression evaluated per instance; what is checked statically is the
    // reference before it. Returns that part (for JSON, in `scratch`) and
    // sets `keyed`; any other expression, and every expression for
    // Terraform, is returned as it is.
    Expression without_instance_key(const Expression& e, json::Value& scratch, bool& keyed) const;

    // ---- moved ----------------------------------------------------------------

    void decode_moved(const ContentBlock& b);

    // ---- import ---------------------------------------------------------------

    // The names along an import target address, instance keys left out:
    // `module.net["a"].aws_subnet.main[each.key]` gives module, net,
    // aws_subnet, main. The keys may be any expression (they are evaluated
    // for each import), so only the traversal around them matters here.
    // False when the expression is not an address.
    static bool import_address_names(const hcl::Expr* e, std::vector<std::string>& out);

    // The same for a JSON string: the text with its bracketed keys removed,
    // split at the dots.
    static bool import_address_names(std::string_view text, std::vector<std::string>& out);

    // The instance key at the end of an import target address.
    static Import::Key import_to_key(const hcl::Expr* e);

    static Import::Key import_to_key(std::string_view text);

    void decode_import(const ContentBlock& b);

    // ---- test files (decode_test_file.cpp) ------------------------------------

    void decode_test_root(const BodyRef& body);
    // Terraform's `test` block: `parallel`, and the experimental `skip_cleanup`.
    void decode_test_config(const ContentBlock& b);
    TestRun decode_test_run(const ContentBlock& b);
    void decode_plan_options(const ContentBlock& b, TestRun& r);
    std::optional<TestRunModule> decode_test_run_module(const ContentBlock& b);
    std::optional<TestOverride> decode_test_override(const ContentBlock& b);
    std::optional<TestProvider> decode_mock_provider(const ContentBlock& b);
    void decode_override_during(const ContentAttr& a);
    // Keeps the first override of each target, reporting the others.
    void check_duplicate_overrides(std::vector<TestOverride>& overrides, std::string_view where);
    void check_expect_failure(const Traversal& t);
    void check_run_state(const TestRun& run, std::map<std::string, std::string>& backends,
                         std::map<std::string, std::string>& skip_cleanups);
    void add_test_provider(TestProvider&& p, std::map<std::string, std::pair<std::string, Range>>& seen);
    void experimental_test_attribute(const ContentAttr& a);
    [[nodiscard]] std::string test_range_string(Range r) const;

    // ---- mock data files (decode_mock_data_file.cpp) ----------------------------

    void decode_mock_data_root(const BodyRef& body, MockDataFile& out);

    // ---- query files (decode_query_file.cpp) ------------------------------------

    void decode_query_root(const BodyRef& body, QueryFile& out);
    QueryList decode_query_list(const ContentBlock& b);

    // ---- state migration files (decode_migration_file.cpp) --------------------------

    void decode_migration_root(const BodyRef& body, MigrationFile& out);
    // A `from` block: what it gives goes to `out` when it decodes without
    // errors (true).
    bool decode_migration_from(const ContentBlock& b, MigrationFile& out);
    // The one entry of a `state_store_provider` block; unset after an error.
    std::optional<MigrationProvider> decode_state_store_provider(const ContentBlock& b);

    // A `providers` map (module calls, test runs): which configuration each
    // child key receives.
    std::vector<ProviderPassing> decode_passed_providers(const ContentAttr& a);

    ParsedFile& pf_;
    Engine engine_;
    DecodeContext ctx_;
    std::vector<LeftOutDiagnostics>* left_out_ = nullptr;
    DiagnosticLimit limit_;
    std::size_t limited_up_to_ = 0;  // the diagnostics before this index went through limit_
    ConfigFile out_;
    TestFile test_out_;
    bool test_file_ = false;                       // decoding a test file (run_test_file)
    bool test_skip_cleanup_ = false;               // the file's `test` block sets skip_cleanup
    std::optional<Range> run_skip_cleanup_range_;  // of the run being decoded, if it skips cleanup
    Range run_backend_range_;                      // of the run being decoded
    std::vector<std::size_t> decoded_runs_;        // the runs decoded without errors
};

}  // namespace tfsift::config
