// cty's JSON encoding of a value with its own type (ctyjson.Marshal(v,
// v.Type())): strings, numbers in plain shortest decimal, bools, null, arrays
// for tuples/lists/sets and objects for objects/maps.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tfsift/cty/value.hpp"

namespace tfsift::cty {

// The exact JSON text (numbers keep every digit). nullopt when the value
// cannot be encoded: it is not wholly known, or holds an infinity.
[[nodiscard]] std::optional<std::string> to_json_text(const Value& v);

// The same as an nlohmann::json document. Numbers become integers when they
// are integral and fit 64 bits, doubles otherwise, so digits beyond double
// precision are lost (and a magnitude beyond 1.8e308 becomes infinite, which
// nlohmann prints as null); use to_json_text when the exact text matters.
[[nodiscard]] std::optional<nlohmann::json> to_json(const Value& v);

// A JSON string literal for UTF-8 text (invalid sequences become U+FFFD, as
// Go's encoder does).
void append_json_string(std::string& out, std::string_view s);

}  // namespace tfsift::cty
