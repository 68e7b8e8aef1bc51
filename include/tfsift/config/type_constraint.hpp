// Variable type constraints as Terraform reads them (hcl's typeexpr with
// defaults, plus Terraform's legacy `list` / `map` keywords): the cty type,
// the optional() attribute defaults, their canonical text, and applying the
// defaults to a value before it is converted.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tfsift/cty/type.hpp"
#include "tfsift/cty/value.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::config {

// typeexpr.Defaults: default values of optional object attributes, for one
// level of a type, and the defaults of the levels below it. Child keys are
// attribute names (objects), "" (a collection's element) or the element
// index in decimal (tuples).
struct TypeDefaults {
    cty::Type type;
    std::map<std::string, cty::Value, std::less<>> values;
    std::map<std::string, std::shared_ptr<const TypeDefaults>, std::less<>> children;
};

struct TypeConstraint {
    cty::Type type;
    std::shared_ptr<const TypeDefaults> defaults;  // null when no optional() gives a default
};

// typeexpr.TypeConstraintWithDefaults on a native expression. Errors are
// appended to `diags` (with `filename`), and the result is then nullopt.
std::optional<TypeConstraint> parse_type_constraint(const hcl::Expr& expr, const std::string& filename,
                                                    Diagnostics& diags);

// The same, remembering what parses without errors by `text`, the
// expression's source text, on the calling thread. A configuration repeats
// its type constraints across variables, files and modules (`map(string)`, an
// object type shared by modules), and building cty types takes many
// allocations; types are immutable, so equal texts share one.
std::optional<TypeConstraint> parse_type_constraint(const hcl::Expr& expr, std::string_view text,
                                                    const std::string& filename, Diagnostics& diags);

// The canonical text of a type constraint: `list(string)`,
// `object({a=string,b=optional(number)})`, `any` for the dynamic type.
std::string type_constraint_text(const cty::Type& type);

// The effective document's `optional_defaults`: attribute paths (`tier`,
// `net.mtu`, `[*].name`, `[0].x`) to default values in cty's JSON form.
nlohmann::json optional_defaults_json(const TypeDefaults& defaults);

// typeexpr Defaults.Apply: fills null or absent optional attributes of a
// known, non-null value with their defaults, recursively.
cty::Value apply_type_defaults(const TypeDefaults& defaults, const cty::Value& value);

// A decoded value in the effective document's JSON form: cty's JSON, with
// the elements of sets of primitives in cty's order (strings byte-wise,
// numbers ascending, false before true). null when not wholly known.
nlohmann::json document_json(const cty::Value& value);

}  // namespace tfsift::config
