// Punycode (RFC 3492): the ASCII encoding of Unicode domain name labels.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tfsift::providers::punycode {

// Encodes the code points of one label (without the "xn--" prefix).
// Fails (nullopt) only on arithmetic overflow.
[[nodiscard]] std::optional<std::string> encode(std::u32string_view label);

// Decodes one label given without its "xn--" prefix. Fails on characters
// outside the basic set, truncated input and overflow.
[[nodiscard]] std::optional<std::u32string> decode(std::string_view encoded);

}  // namespace tfsift::providers::punycode
