// The configuration model: one module's blocks decoded the way Terraform's
// loader decodes them at load time. Arguments stay expressions (with source
// text and ranges); the few settings Terraform decodes while loading are
// kept as values. The same model holds a single file, a merged primary set,
// and the effective module after override files are applied.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tfsift/config/rarely_set.hpp"
#include "tfsift/config/shared_vector.hpp"
#include "tfsift/cty/type.hpp"
#include "tfsift/cty/value.hpp"
#include "tfsift/source.hpp"

namespace tfsift::hcl {
struct Expr;
}
namespace tfsift::json {
struct Value;
}

namespace tfsift::config {

struct TypeDefaults;

// Where something was written: its file (named relative to the root module
// directory) and position. Printed as "FILE:LINE".
struct Origin {
    const SourceFile* file = nullptr;
    Pos pos;

    [[nodiscard]] std::string to_string() const;
};

// An argument's expression as written. Exactly one of `native` and `json`
// is set for expressions read from a file.
struct Expression {
    const SourceFile* file = nullptr;
    Range range;
    const hcl::Expr* native = nullptr;
    const json::Value* json = nullptr;

    [[nodiscard]] Origin origin() const { return {file, range.start}; }
    // The raw source bytes of the expression.
    [[nodiscard]] std::string_view source_text() const;
    // The source text normalized as the effective document writes it.
    [[nodiscard]] std::string text() const;
    // True when the expression is the literal `null` (native or JSON).
    [[nodiscard]] bool is_null_literal() const;
};

// A value Terraform decodes at load time, in cty's JSON form. No origin when
// the value is a default rather than something written.
struct DecodedValue {
    nlohmann::json value;
    std::optional<Origin> origin;
};

struct Argument {
    std::string name;
    Range name_range;
    Expression expr;
};

// A property of a JSON body whose role (argument or nested block) is not
// known until the bodies of a merge are compared (see the effective
// configuration spec, "Bodies").
struct JsonProperty {
    std::string name;
    Range name_range;
    const json::Value* value = nullptr;
    const SourceFile* file = nullptr;
};

struct NestedBlock;

// What is left of a block after Terraform's meta-arguments are taken out.
// The lists are shared by the copies of a body (the decoded file's and the
// merged module's) until one of them changes (config/shared_vector.hpp).
struct Body {
    SharedVector<Argument> arguments;      // source order; `_` escaping block's arguments joined in
    SharedVector<NestedBlock> blocks;      // source order
    SharedVector<JsonProperty> undecided;  // JSON bodies only
    bool from_json = false;

    [[nodiscard]] const Argument* find_argument(std::string_view name) const;
};

struct NestedBlock {
    std::string type;
    std::vector<std::string> labels;
    Origin origin;
    Body body;
};

// A condition block: `validation`, `precondition`, `postcondition`.
struct Check {
    std::optional<Expression> condition;
    std::optional<Expression> error_message;
    Origin origin;
};

// A reference decoded as a traversal (`depends_on`, `ignore_changes`, ...),
// in the text form of the parse dump's refs: `aws_instance.web`, `tags["Name"]`.
struct Traversal {
    std::string text;
    Range range;
    const SourceFile* file = nullptr;

    [[nodiscard]] Origin origin() const { return {file, range.start}; }
};

// ---- terraform block ------------------------------------------------------------

struct RequiredVersion {
    std::vector<std::string> constraints;
    Origin origin;
};

struct RequiredProvider {
    std::string name;
    std::optional<std::string> source;  // fully qualified, nullopt when invalid
    std::optional<std::string> source_as_written;
    std::vector<std::string> version_constraints;
    std::vector<std::string> configuration_aliases;  // "aws.east"
    Origin origin;
};

struct Backend {
    std::string type;  // empty for `cloud`
    Body config;
    Origin origin;
};

struct ProviderMeta {
    std::string provider;
    Body config;
    Origin origin;
};

struct TerraformSettings {
    std::vector<RequiredVersion> required_version;
    std::map<std::string, RequiredProvider> required_providers;
    std::optional<Backend> backend;
    std::optional<Backend> cloud;
    // Terraform's pluggable state storage (`state_store "TYPE"`, experimental
    // since v1.14): `type` is the store type, `provider` the local name of its
    // nested `provider` block. Not part of the effective document.
    std::optional<Backend> state_store;
    std::string state_store_provider;
    std::map<std::string, ProviderMeta> provider_meta;
    std::vector<std::string> experiments;
};

// ---- top-level objects -------------------------------------------------------------

struct Provider {
    std::string name;
    std::optional<std::string> alias;
    std::optional<DecodedValue> version_constraints;  // legacy `version`
    std::optional<Expression> for_each;               // OpenTofu: one instance per element
    Body config;
    Origin origin;
    std::vector<Origin> overridden_by;

    [[nodiscard]] std::string key() const { return alias ? name + "." + *alias : name; }
    // True when the block sets anything besides its meta-arguments: an
    // argument, a nested block or the legacy `version`. An empty block (with
    // or without an alias) is a proxy that only receives a configuration
    // from the caller.
    [[nodiscard]] bool configures() const;
};

struct Variable {
    std::string name;
    std::optional<Expression> type_expr;  // as written; decoded into `constraint_type`
    std::optional<Expression> default_expr;
    // What the conversion works with: the constraint (dynamic when no type
    // is given), its optional() defaults, and the default as a cty value
    // (converted when the block has a type). A default that is not wholly
    // known is printed as `{}`.
    cty::Type constraint_type;
    std::shared_ptr<const TypeDefaults> type_defaults;
    std::optional<cty::Value> default_cty;
    std::optional<DecodedValue> description;
    DecodedValue sensitive{false, std::nullopt};
    DecodedValue nullable{true, std::nullopt};
    // Newer than the reference loader, not part of the effective document:
    // `ephemeral` (Terraform v1.10, OpenTofu v1.11) and `const` (Terraform
    // v1.15: known while loading, so it may set a module's `source`).
    bool ephemeral = false;
    bool is_const = false;
    // `const` is written (true or false). OpenTofu v1.12 keeps a variable
    // written `const = false` out of static evaluation; one without `const`
    // is evaluated when it can be.
    bool const_written = false;
    // A primary block always has a type (`any` when none is written); an
    // override block only when it writes one, or it would replace the base's.
    bool has_type = true;
    // Shared by the copies of the variable (config/shared_vector.hpp).
    // With the flags together, a variable and its map entry fit 448 bytes,
    // one of the allocator's size classes (the merged module holds every
    // variable once more, and a module can declare thousands).
    SharedVector<Check> validations;
    Origin origin;
    std::vector<Origin> overridden_by;

    // The effective document's forms of the type and the default. Loading
    // and merging never read them, and most variables are never printed, so
    // they are derived from the values above when asked for rather than
    // built (and copied at every merge) for every variable.
    [[nodiscard]] std::optional<DecodedValue> type() const;                 // canonical type text
    [[nodiscard]] std::optional<nlohmann::json> optional_defaults() const;  // from type_defaults
    [[nodiscard]] std::optional<DecodedValue> default_value() const;        // default_cty in the document's JSON form
};

struct Local {
    std::string name;
    Expression expr;
};

struct Output {
    std::string name;
    std::optional<Expression> value;
    std::optional<Expression> type_expr;  // Terraform v1.15; not part of the effective document
    std::optional<DecodedValue> description;
    DecodedValue sensitive{false, std::nullopt};
    std::vector<Traversal> depends_on;
    std::vector<Check> preconditions;
    Origin origin;
    std::vector<Origin> overridden_by;
};

struct ModuleSource {
    std::optional<std::string> value;  // normalized; nullopt when invalid
    std::string as_written;
    Origin origin;
};

// A `source` or `version` that refers to variables or local values (OpenTofu
// v1.8, Terraform v1.15: evaluated before planning). The tree loader works
// it out for each call (config/static_evaluation.hpp).
struct DynamicSetting {
    Expression expr;
};

struct ProviderPassing {
    std::string child_key;  // "aws" or "aws.east"
    std::string parent_key;
    Origin origin;              // the key in the map
    Origin parent_origin;       // the value
    bool parent_keyed = false;  // OpenTofu: `aws.west[each.key]`, an instance of a for_each provider
};

struct ModuleCall {
    std::string name;
    std::optional<ModuleSource> source;
    std::optional<DecodedValue> version_constraints;
    std::optional<DynamicSetting> dynamic_source;
    std::optional<DynamicSetting> dynamic_version;
    std::optional<Expression> count;
    std::optional<Expression> for_each;
    std::optional<Expression> enabled;  // OpenTofu v1.11: `lifecycle { enabled }`
    std::vector<ProviderPassing> providers;
    std::vector<Traversal> depends_on;
    Body config;
    Origin origin;
    std::vector<Origin> overridden_by;
};

struct Lifecycle {
    std::optional<DecodedValue> create_before_destroy;
    std::optional<DecodedValue> prevent_destroy;
    std::optional<std::vector<Traversal>> ignore_changes;  // nullopt: no list given
    std::optional<Origin> ignore_all_changes;              // set when `all`
    std::vector<Expression> replace_triggered_by;
    std::vector<Check> preconditions;
    std::vector<Check> postconditions;
};

struct Connection {
    Body config;
    Origin origin;
};

struct Provisioner {
    std::string type;
    std::string when = "create";
    std::string on_failure = "fail";
    Body config;
    std::optional<Connection> connection;
    Origin origin;
};

// `ephemeral` (Terraform v1.10, OpenTofu v1.11) and `action` (Terraform
// v1.14) blocks are kept as resources of their own mode: like resources they
// name a type whose provider they use, and they have no place in the
// effective document.
enum class ResourceMode : std::uint8_t { managed, data, ephemeral, action };

struct ProviderAssignment {
    std::string value;                  // "aws" or "aws.west"
    std::optional<std::string> source;  // fully qualified address
    bool explicit_ = false;
    std::optional<Origin> origin;
};

struct Resource {
    ResourceMode mode = ResourceMode::managed;
    std::string type;
    std::string name;
    std::optional<std::string> provider_ref;  // `provider` argument, "aws.west"
    std::optional<Origin> provider_origin;
    bool provider_keyed = false;  // OpenTofu: `aws.west[each.key]`, an instance of a for_each provider
    // Filled once required_providers is final; the resources of a module that
    // imply the same provider share one.
    RarelySet<ProviderAssignment> provider;
    std::optional<Expression> count;
    std::optional<Expression> for_each;
    std::vector<Traversal> depends_on;
    Body config;
    RarelySet<Lifecycle> lifecycle;  // the default when the resource has no lifecycle block
    std::vector<Provisioner> provisioners;
    std::shared_ptr<const Connection> connection;  // null: no connection block
    Origin origin;
    std::vector<Origin> overridden_by;

    // "TYPE.NAME", in one string (the merge keys every resource by it).
    [[nodiscard]] std::string key() const {
        std::string out;
        out.reserve(type.size() + 1 + name.size());
        out.append(type).append(1, '.').append(name);
        return out;
    }
};

struct Moved {
    Traversal from;
    Traversal to;
    Origin origin;
};

// An `import` block (Terraform 1.5, OpenTofu): where it imports into and the
// provider configuration it names. Not part of the effective document.
struct Import {
    std::string to_text;                      // the `to` address as written
    bool to_module = false;                   // the address is inside a called module
    std::string to_resource;                  // "aws_instance.web": a managed resource of this module, else empty
    std::optional<std::string> provider_ref;  // `provider` argument, "aws.west"
    std::optional<Origin> provider_origin;    // where the `provider` argument starts
    Origin origin;                            // the `import` keyword
    // The instance key written after the resource in `to`: none, a literal
    // string or number, or an expression (`[each.key]`) known only later.
    enum class Key : std::uint8_t { none, string, number, expression };
    Key to_key = Key::none;
    std::optional<Expression> to;
    std::optional<Expression> id;
    std::optional<Expression> for_each;  // Terraform v1.7, OpenTofu v1.7
};

// One module's configuration: a file's contents, or a whole directory after
// merging.
struct Module {
    TerraformSettings terraform;
    std::map<std::string, Provider> providers;  // by key()
    std::map<std::string, Variable> variables;
    std::map<std::string, Local> locals;
    std::map<std::string, Output> outputs;
    std::map<std::string, ModuleCall> module_calls;
    std::map<std::string, Resource> resources;  // managed, by key()
    std::map<std::string, Resource> data;       // data, by key()
    std::map<std::string, Resource> ephemeral;  // ephemeral resources, by key()
    std::map<std::string, Resource> actions;    // actions, by key()
    std::vector<Moved> moved;
    std::vector<Import> imports;  // source order, primary files only
};

}  // namespace tfsift::config
