// IDNA processing as golang.org/x/net/idna's `Lookup` profile does it
// (UTS-46 mapping, non-transitional, STD3 ASCII rules, hyphen, joiner and
// bidi checks, no DNS length limits). Terraform's hostnames and provider
// name parts go through exactly this profile, so tfsift must too.
#pragma once

#include <string>
#include <string_view>

namespace tfsift::providers::idna {

struct Result {
    std::string value;  // the processed domain (meaningful only when ok)
    std::string error;  // Go's error text, e.g. `idna: disallowed rune U+005F`
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Lookup.ToASCII: labels that are not ASCII come back punycode-encoded.
[[nodiscard]] Result to_ascii(std::string_view domain);

// Lookup.ToUnicode: punycode labels come back decoded.
[[nodiscard]] Result to_unicode(std::string_view domain);

}  // namespace tfsift::providers::idna
