// The two OpenPGP public keys Terraform embeds to label a provider's trust
// tier (spec online-installer 1.3 and decision 5): the key HashiCorp signs
// its official providers with, and the key it signs its partners' keys
// with. They come from Terraform v1.5.7 (MPL-2.0) and live in a file of
// their own, src/online/hashicorp_keys.cpp, which carries that licence.
//
// The v1.5.7 copy of the HashiCorp key expired on 2026-04-18. A signature
// made while the key was valid still verifies (validity is judged at the
// signature's creation time); a package signed by a newer HashiCorp subkey
// that this key does not contain is labelled by what can be proven, i.e.
// "self-signed" (see docs/network.md).
#pragma once

#include <string_view>

namespace tfsift::online {

// HashiCorp's primary key 34365D9472D7468F (fingerprint C874 011F 0AB4 0511
// 0D02 1055 3436 5D94 72D7 468F), ASCII-armored.
[[nodiscard]] std::string_view hashicorp_public_key();

// The HashiCorp Partners key 7D72D4268E4660FC, ASCII-armored.
[[nodiscard]] std::string_view hashicorp_partners_key();

}  // namespace tfsift::online
