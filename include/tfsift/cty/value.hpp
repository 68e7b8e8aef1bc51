// A cty value: a type plus either a known payload, "unknown", or null.
// Values are immutable and cheap to copy (the payload is shared).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tfsift/cty/number.hpp"
#include "tfsift/cty/type.hpp"

namespace tfsift::cty {

class Value {
public:
    using Elements = std::vector<Value>;                           // tuple, list, set
    using Attributes = std::map<std::string, Value, std::less<>>;  // object, map (byte-wise key order)

    Value();  // the unknown value of the dynamic pseudo-type (cty.DynamicVal)

    static Value unknown(Type type);
    static Value null(Type type);
    static Value dynamic_unknown() { return unknown(Type::dynamic()); }
    static Value dynamic_null() { return null(Type::dynamic()); }

    // Strings are normalised to Unicode NFC, as cty.StringVal does (invalid
    // UTF-8 is kept as is).
    static Value string(std::string_view s);
    static Value number(Number n);
    static Value boolean(bool b);
    static Value tuple(Elements elements);
    // Attribute names are NFC-normalised.
    static Value object(Attributes attributes);
    // Collections: every element must have exactly `element_type` (checked,
    // throws std::invalid_argument: a programming error, not bad input).
    static Value list(Type element_type, Elements elements);
    static Value set(Type element_type, Elements elements);  // duplicates are dropped
    static Value map(Type element_type, Attributes elements);

    [[nodiscard]] const Type& type() const { return type_; }
    [[nodiscard]] bool is_known() const { return state_ != State::unknown; }
    [[nodiscard]] bool is_null() const { return state_ == State::null; }
    // Known, and every nested value known too.
    [[nodiscard]] bool is_wholly_known() const;

    // Payload accessors: only for known, non-null values of the right type.
    [[nodiscard]] bool as_bool() const;
    [[nodiscard]] const Number& as_number() const;
    [[nodiscard]] const std::string& as_string() const;
    [[nodiscard]] const Elements& elements() const;      // tuple, list, set
    [[nodiscard]] const Attributes& attributes() const;  // object, map
    [[nodiscard]] std::size_t length() const;            // collections and structural types

    // Same type, same knownness and nullness, same payload.
    [[nodiscard]] bool raw_equals(const Value& other) const;
    // cty's Equals: a bool value, unknown when the answer depends on unknowns.
    // No conversion: values of different types are unequal (nulls are equal
    // whatever their types).
    [[nodiscard]] Value equals(const Value& other) const;

private:
    enum class State : std::uint8_t { known, unknown, null };
    using Payload = std::variant<bool, Number, std::string, Elements, Attributes>;

    Value(Type type, State state, std::shared_ptr<const Payload> payload)
        : type_(std::move(type)), state_(state), payload_(std::move(payload)) {}

    Type type_;
    State state_ = State::unknown;
    std::shared_ptr<const Payload> payload_;
};

// Unicode NFC normalisation of UTF-8 text (invalid UTF-8 is returned as is).
std::string normalize_nfc(std::string_view s);

}  // namespace tfsift::cty
