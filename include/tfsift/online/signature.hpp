// Checking a registry's detached OpenPGP signature over a provider's
// SHA256SUMS document, the way `terraform init` / `tofu init` authenticate a
// package (spec online-installer 1.3): the registry's keys are tried in
// order, a key that did not make the signature is skipped, and the key that
// did decides the trust tier printed beside "Retrieved ...". The OpenPGP work
// itself is done by RNP, never by tfsift's own code.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/engine.hpp"

namespace tfsift::online {

// One entry of a registry download document's `signing_keys.gpg_public_keys`.
struct SigningKey {
    std::string key_id;
    std::string ascii_armor;
    std::string trust_signature;  // empty unless a HashiCorp partner key
    std::string source;
    std::string source_url;
};

// How far a verified signature can be trusted, as Terraform labels it.
enum class TrustTier : unsigned char {
    official,   // "signed by HashiCorp"
    partner,    // "signed by a HashiCorp partner"
    community,  // "self-signed"
    unsigned_,  // OpenTofu only: no keys published, signature check skipped
};

// "signed by HashiCorp", "signed by a HashiCorp partner", "self-signed",
// "signing skipped".
[[nodiscard]] std::string_view trust_label(TrustTier tier);

// The label as the engine prints it: OpenTofu has no HashiCorp tiers and
// says "signed" for any verified signature ("signing skipped" stays).
[[nodiscard]] std::string_view trust_label(TrustTier tier, Engine engine);

// What the caller knows about the package whose SHA256SUMS is checked.
struct SignatureContext {
    Engine engine = Engine::terraform;
    std::string hostname;  // the provider's registry host, for OpenTofu's keyless rule
};

struct SignatureVerdict {
    bool ok = false;
    TrustTier tier = TrustTier::community;
    std::string key_id;  // the primary key's ID (16 upper-case hex digits) of the key that signed
    std::string error;   // upstream wording when !ok, e.g. "authentication signature from unknown issuer"
    std::vector<std::string> warnings;  // e.g. an expired key that OpenTofu accepts
};

// Verifies `signature` (binary, detached) over `document` (the SHA256SUMS
// bytes) against `keys`. Never throws for bad input; never writes to the
// process's stderr.
[[nodiscard]] SignatureVerdict verify_sums_signature(std::string_view document, std::string_view signature,
                                                     std::span<const SigningKey> keys, const SignatureContext& context);

}  // namespace tfsift::online
