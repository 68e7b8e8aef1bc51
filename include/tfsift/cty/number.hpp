// cty's number: an arbitrary-precision binary float with the semantics of Go's
// big.Float as go-cty uses it (512-bit mantissa for parsed numbers, round to
// nearest even, signed zeros and infinities, no NaN).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tfsift::cty {

class Number {
public:
    // The precision, in mantissa bits, of every number parsed from text.
    static constexpr long parse_precision = 512;

    Number();  // +0

    // Parses decimal text as Go's big.ParseFloat(s, 10, 512, ToNearestEven):
    // [sign] (digits [. digits] | . digits) [(e|E) [sign] digits], or
    // [sign] Inf / inf. Returns nullopt for anything else.
    static std::optional<Number> parse(std::string_view text);
    // An exact integer (64-bit precision, like big.Float.SetInt64).
    static Number from_int(std::int64_t v);

    // Arithmetic with the precision rules of big.Float and go-cty. Each
    // returns nullopt where big.Float would panic with ErrNaN (inf - inf,
    // 0 * inf, 0 / 0, inf / inf).
    [[nodiscard]] std::optional<Number> add(const Number& other) const;
    [[nodiscard]] std::optional<Number> subtract(const Number& other) const;
    [[nodiscard]] std::optional<Number> multiply(const Number& other) const;
    [[nodiscard]] std::optional<Number> divide(const Number& other) const;
    // go-cty's Modulo: truncated quotient, so the result has the sign of the
    // dividend; x % 0 is x.
    [[nodiscard]] std::optional<Number> modulo(const Number& other) const;
    [[nodiscard]] Number negate() const;

    // -1, 0 or 1 as for big.Float.Cmp (-0 equals +0).
    [[nodiscard]] int compare(const Number& other) const;
    // go-cty's number equality: same sign and same shortest decimal text.
    [[nodiscard]] bool equals(const Number& other) const;

    [[nodiscard]] bool is_zero() const;
    [[nodiscard]] bool is_infinite() const;
    [[nodiscard]] bool is_negative() const;  // sign bit set, including -0 and -Inf
    [[nodiscard]] bool is_integer() const;   // finite and without fraction
    [[nodiscard]] long precision() const;
    // The value as int64 when it is an integer in range.
    [[nodiscard]] std::optional<std::int64_t> to_int64() const;
    // The nearest double (for consumers that need one; loses precision).
    [[nodiscard]] double to_double() const;

    // Go's big.Float.Text('f', -1): plain decimal, no exponent, the fewest
    // digits that identify the value at its precision. "-0" for negative
    // zero, "+Inf"/"-Inf" for infinities.
    [[nodiscard]] std::string text() const;

    struct Impl;

private:
    explicit Number(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;  // immutable, shared between copies
};

}  // namespace tfsift::cty
