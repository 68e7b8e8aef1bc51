// cty's type conversions (package convert): which conversions exist between
// two types, converting values, and unifying several types into one.
//
// A "safe" conversion never fails for a known value (number -> string,
// tuple -> list of a common type, ...). An "unsafe" one may fail depending on
// the value (string -> number, string -> bool, map -> object, list -> set).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "tfsift/cty/type.hpp"
#include "tfsift/cty/value.hpp"

namespace tfsift::cty {

enum class Safety : bool { safe, unsafe };

// The result of converting one value: the value, or an error message such as
// "a number is required" (prefixed with the path inside the value, if any).
struct Converted {
    Value value;
    std::string error;
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Whether a conversion from `in` to `out` exists at all (cty GetConversion /
// GetConversionUnsafe returning non-nil). Equal types always convert.
[[nodiscard]] bool can_convert(const Type& in, const Type& out, Safety safety);

// Applies the conversion from v's type to `out` (v.type() must satisfy
// can_convert). Unknown and null values convert to unknown / null of `out`.
[[nodiscard]] Converted convert(const Value& v, const Type& out, Safety safety);

// cty convert.Convert: identity when the type already matches, otherwise the
// unsafe conversion; an error when none exists.
[[nodiscard]] Converted convert(const Value& v, const Type& out);

// A unification: the common type, and how to turn a value of one of the
// given types into it.
struct Unification {
    Type type;
    // cty gives up on predicting a type when a dynamic type sits beside a
    // structural one; every input then converts to an unknown value.
    bool to_unknown = false;

    [[nodiscard]] Converted apply(const Value& v, Safety safety) const;
};

// cty Unify (safe) / UnifyUnsafe: the type every given type converts to, or
// nullopt when there is none.
[[nodiscard]] std::optional<Unification> unify(std::span<const Type> types, Safety safety);

// cty's MismatchMessage, simplified: why a value of `got` is not a `want`.
[[nodiscard]] std::string mismatch_message(const Type& got, const Type& want);

}  // namespace tfsift::cty
