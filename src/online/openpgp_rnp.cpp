// The OpenPGP work of a SHA256SUMS check, done with RNP: which registry key
// made the signature, its primary key ID, and the trust tier (spec
// online-installer 1.3). It runs inside the helper process (see
// openpgp_helper.hpp), never in the process that prints tfsift's output.
#include <rnp/rnp_err.h>
#include "tfsift/lazy/rnp.hpp"

#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tfsift/online/hashicorp_keys.hpp"
#include "tfsift/online/openpgp_helper.hpp"

namespace tfsift::online {

namespace {

// ---- small owners for RNP handles -------------------------------------------

struct FfiDeleter {
    void operator()(rnp_ffi_st* ffi) const { librnp::ffi_destroy(ffi); }
};
struct InputDeleter {
    void operator()(rnp_input_st* input) const { librnp::input_destroy(input); }
};
struct OutputDeleter {
    void operator()(rnp_output_st* output) const { librnp::output_destroy(output); }
};
struct VerifyDeleter {
    void operator()(rnp_op_verify_st* op) const { librnp::op_verify_destroy(op); }
};
struct KeyDeleter {
    void operator()(rnp_key_handle_st* key) const { librnp::key_handle_destroy(key); }
};
struct BufferDeleter {
    void operator()(char* text) const { librnp::buffer_destroy(text); }
};
using Ffi = std::unique_ptr<rnp_ffi_st, FfiDeleter>;
using Input = std::unique_ptr<rnp_input_st, InputDeleter>;
using Output = std::unique_ptr<rnp_output_st, OutputDeleter>;
using Verify = std::unique_ptr<rnp_op_verify_st, VerifyDeleter>;
using Key = std::unique_ptr<rnp_key_handle_st, KeyDeleter>;
using Buffer = std::unique_ptr<char, BufferDeleter>;

std::string rnp_text(rnp_result_t code) {
    const char* text = librnp::result_to_string(code);
    return text != nullptr ? std::string(text) : "RNP error " + std::to_string(code);
}

// RNP's texts are terse ("Bad state"); say what failed and keep its word.
std::string signature_problem(rnp_result_t code) {
    switch (code) {
        case RNP_ERROR_SIGNATURE_INVALID: return "invalid signature: it does not match the signed data";
        case RNP_ERROR_SIGNATURE_EXPIRED: return "the signature has expired";
        default: return "the signature could not be verified (RNP: " + rnp_text(code) + ")";
    }
}

// Memory inputs do not copy: `bytes` must outlive the input.
Input memory_input(std::string_view bytes) {
    rnp_input_t raw = nullptr;
    // RNP refuses a null pointer even for zero bytes.
    static const std::uint8_t kEmpty = 0;
    const auto* data = bytes.empty() ? &kEmpty : reinterpret_cast<const std::uint8_t*>(bytes.data());
    if (librnp::input_from_memory(&raw, data, bytes.size(), false) != RNP_SUCCESS) return nullptr;
    return Input(raw);
}

Ffi new_ffi() {
    rnp_ffi_t raw = nullptr;
    if (librnp::ffi_create(&raw, "GPG", "GPG") != RNP_SUCCESS) return nullptr;
    return Ffi(raw);
}

// A keyring holding the public keys of one ASCII-armored block, or why not.
struct Keyring {
    Ffi ffi;
    std::string error;  // without the "error decoding signing key: " prefix
};

Keyring load_armored_keys(std::string_view armor) {
    Keyring ring;
    // Terraform reads the registry's keys with ReadArmoredKeyRing, which
    // wants armor; RNP would also take binary keys, so insist on it here.
    if (armor.find("-----BEGIN PGP") == std::string_view::npos) {
        ring.error = "no armored data found";
        return ring;
    }
    ring.ffi = new_ffi();
    auto input = memory_input(armor);
    if (!ring.ffi || !input) {
        ring.error = "cannot create an OpenPGP context";
        return ring;
    }
    if (const auto rc = librnp::import_keys(ring.ffi.get(), input.get(), RNP_LOAD_SAVE_PUBLIC_KEYS, nullptr);
        rc != RNP_SUCCESS) {
        ring.error = "not a readable OpenPGP public key (RNP: " + rnp_text(rc) + ")";
        return ring;
    }
    std::size_t count = 0;
    if (librnp::get_public_key_count(ring.ffi.get(), &count) != RNP_SUCCESS || count == 0) {
        ring.error = "the armored block holds no public key";
    }
    return ring;
}

// The outcome of one detached-signature check against one keyring.
struct Check {
    enum class Kind : std::uint8_t { good, unknown_issuer, failed } kind = Kind::failed;
    std::string error;                        // failed: RNP's reason
    std::string primary_key_id;               // good: the primary key of the key that signed
    std::optional<std::uint64_t> valid_till;  // good: until when the signing key is valid
};

std::string primary_key_id(rnp_ffi_t ffi, rnp_key_handle_t key) {
    bool is_primary = true;
    if (librnp::key_is_primary(key, &is_primary) != RNP_SUCCESS) return {};
    Key primary_owner;
    rnp_key_handle_t primary = key;
    if (!is_primary) {
        char* grip_raw = nullptr;
        if (librnp::key_get_primary_grip(key, &grip_raw) != RNP_SUCCESS || grip_raw == nullptr) return {};
        const Buffer grip(grip_raw);
        rnp_key_handle_t found = nullptr;
        if (librnp::locate_key(ffi, "grip", grip.get(), &found) != RNP_SUCCESS || found == nullptr) return {};
        primary_owner.reset(found);
        primary = found;
    }
    char* id_raw = nullptr;
    if (librnp::key_get_keyid(primary, &id_raw) != RNP_SUCCESS || id_raw == nullptr) return {};
    const Buffer id(id_raw);
    return id.get();
}

Check check_detached(rnp_ffi_t ffi, std::string_view data, std::string_view signature) {
    Check check;
    auto data_in = memory_input(data);
    auto sig_in = memory_input(signature);
    rnp_op_verify_t raw = nullptr;
    if (!data_in || !sig_in ||
        librnp::op_verify_detached_create(&raw, ffi, data_in.get(), sig_in.get()) != RNP_SUCCESS) {
        check.error = "cannot create a signature check";
        return check;
    }
    const Verify op(raw);
    const auto executed = librnp::op_verify_execute(op.get());
    std::size_t count = 0;
    if (librnp::op_verify_get_signature_count(op.get(), &count) != RNP_SUCCESS || count == 0) {
        // Nothing readable as a signature (truncated or not OpenPGP at all).
        check.error = "not a readable OpenPGP signature" +
                      (executed != RNP_SUCCESS ? " (RNP: " + rnp_text(executed) + ")" : std::string());
        return check;
    }
    // Like go-crypto's CheckDetachedSignature: a signature by a key we have
    // decides; signatures by other keys only make the issuer unknown.
    bool all_unknown = true;
    std::string first_error;
    for (std::size_t i = 0; i < count; ++i) {
        rnp_op_verify_signature_t sig = nullptr;
        if (librnp::op_verify_get_signature_at(op.get(), i, &sig) != RNP_SUCCESS) continue;
        const auto status = librnp::op_verify_signature_get_status(sig);
        if (status == RNP_ERROR_KEY_NOT_FOUND) continue;
        all_unknown = false;
        if (status != RNP_SUCCESS) {
            if (first_error.empty()) first_error = signature_problem(status);
            continue;
        }
        rnp_key_handle_t key_raw = nullptr;
        if (librnp::op_verify_signature_get_key(sig, &key_raw) != RNP_SUCCESS || key_raw == nullptr) continue;
        const Key key(key_raw);
        check.kind = Check::Kind::good;
        check.primary_key_id = primary_key_id(ffi, key.get());
        if (std::uint64_t till = 0; librnp::key_valid_till64(key.get(), &till) == RNP_SUCCESS) check.valid_till = till;
        return check;
    }
    if (all_unknown) {
        check.kind = Check::Kind::unknown_issuer;
        return check;
    }
    check.error = first_error.empty() ? signature_problem(executed) : first_error;
    return check;
}

// The binary body of an ASCII-armored block.
std::optional<std::string> dearmor(std::string_view armored, std::string& error) {
    auto input = memory_input(armored);
    rnp_output_t out_raw = nullptr;
    if (!input || librnp::output_to_memory(&out_raw, 0) != RNP_SUCCESS) {
        error = "cannot create a buffer";
        return std::nullopt;
    }
    const Output output(out_raw);
    if (armored.find("-----BEGIN PGP") == std::string_view::npos) {
        error = "no armored data found";
        return std::nullopt;
    }
    if (const auto rc = librnp::dearmor(input.get(), output.get()); rc != RNP_SUCCESS) {
        error = "not readable armor (RNP: " + rnp_text(rc) + ")";
        return std::nullopt;
    }
    std::uint8_t* bytes = nullptr;
    std::size_t length = 0;
    if (librnp::output_memory_get_buf(output.get(), &bytes, &length, false) != RNP_SUCCESS) {
        error = "cannot read the de-armored bytes";
        return std::nullopt;
    }
    if (length == 0) return std::string();
    return std::string(reinterpret_cast<const char*>(bytes), length);
}

bool verifies_with_embedded_key(std::string_view embedded_armor, std::string_view data, std::string_view signature) {
    auto ring = load_armored_keys(embedded_armor);
    if (!ring.error.empty()) return false;
    return check_detached(ring.ffi.get(), data, signature).kind == Check::Kind::good;
}

bool expired(const Check& check) {
    if (!check.valid_till) return false;
    const auto now = static_cast<std::uint64_t>(std::time(nullptr));
    return *check.valid_till < now;
}

std::string expiry_warning(const std::string& key_id) {
    return "the signing key " + key_id +
           " has expired; the signature was accepted because OPENTOFU_ENFORCE_GPG_EXPIRATION is not true";
}

}  // namespace

namespace {

SignatureVerdict check_signature(const OpenPgpRequest& request);

}  // namespace

SignatureVerdict check_signature_in_this_process(const OpenPgpRequest& request) {
    auto verdict = check_signature(request);
    // OpenTofu reports every failure to find a valid signing key inside one
    // sentence of its own.
    if (!verdict.ok && request.engine == Engine::opentofu) {
        verdict.error = "the provider is not signed with a valid signing key; please contact the provider author (" +
                        verdict.error + ")";
    }
    return verdict;
}

namespace {

SignatureVerdict check_signature(const OpenPgpRequest& request) {
    SignatureVerdict verdict;

    // OpenTofu's keyless rule: its own registry may publish a provider
    // without keys, and then the signature is not checked at all.
    if (request.engine == Engine::opentofu && request.keys.empty() && request.hostname == "registry.opentofu.org" &&
        !request.enforce_gpg_validation) {
        verdict.ok = true;
        verdict.tier = TrustTier::unsigned_;
        return verdict;
    }

    // Registries serve the binary signature; go-crypto reads only packets,
    // and a packet's tag byte always has its top bit set. That refuses an
    // ASCII-armored signature, which RNP would otherwise accept.
    if (request.signature.empty() || (static_cast<unsigned char>(request.signature.front()) & 0x80U) == 0) {
        verdict.error = "error checking signature: openpgp: invalid data: tag byte does not have MSB set";
        return verdict;
    }

    // Find the key that made the signature: keys in the registry's order, a
    // key that did not sign is skipped, anything else ends the search.
    const SigningKey* signer = nullptr;
    Check signer_check;
    for (const auto& key : request.keys) {
        auto ring = load_armored_keys(key.ascii_armor);
        if (!ring.error.empty()) {
            verdict.error = "error decoding signing key: " + ring.error;
            return verdict;
        }
        auto check = check_detached(ring.ffi.get(), request.document, request.signature);
        if (check.kind == Check::Kind::unknown_issuer) continue;
        if (check.kind == Check::Kind::failed) {
            verdict.error = "error checking signature: " + check.error;
            return verdict;
        }
        // OpenTofu prefers a key that has not expired; Terraform takes the
        // first key that verifies, expired or not.
        if (request.engine == Engine::opentofu && expired(check)) {
            if (signer == nullptr) {
                signer = &key;
                signer_check = std::move(check);
            }
            continue;
        }
        signer = &key;
        signer_check = std::move(check);
        break;
    }
    if (signer == nullptr) {
        verdict.error = "authentication signature from unknown issuer";
        return verdict;
    }
    verdict.key_id = signer_check.primary_key_id.empty() ? "n/a" : signer_check.primary_key_id;

    if (request.engine == Engine::opentofu) {
        if (expired(signer_check)) {
            if (request.enforce_gpg_expiration) {
                verdict.error = "error checking signature: the signing key " + verdict.key_id +
                                " has expired (OPENTOFU_ENFORCE_GPG_EXPIRATION is true)";
                return verdict;
            }
            verdict.warnings.push_back(expiry_warning(verdict.key_id));
        }
        // OpenTofu has no HashiCorp tiers: a verified signature is "signed".
        verdict.ok = true;
        verdict.tier = TrustTier::community;
        return verdict;
    }

    // Terraform's tiers: HashiCorp's own key first, then a partner's trust
    // signature, otherwise the author signed for themselves.
    if (verifies_with_embedded_key(hashicorp_public_key(), request.document, request.signature)) {
        verdict.ok = true;
        verdict.tier = TrustTier::official;
        return verdict;
    }
    if (!signer->trust_signature.empty()) {
        std::string error;
        const auto author_key = dearmor(signer->ascii_armor, error);
        if (!author_key) {
            verdict.error = "error decoding signing key: " + error;
            return verdict;
        }
        const auto trust_signature = dearmor(signer->trust_signature, error);
        if (!trust_signature) {
            verdict.error = "error decoding trust signature: " + error;
            return verdict;
        }
        auto partners = load_armored_keys(hashicorp_partners_key());
        if (!partners.error.empty()) {
            verdict.error = "error creating HashiCorp Partners keyring: " + partners.error;
            return verdict;
        }
        const auto check = check_detached(partners.ffi.get(), *author_key, *trust_signature);
        if (check.kind != Check::Kind::good) {
            const std::string reason =
                check.kind == Check::Kind::unknown_issuer
                    ? std::string("signature made by a key other than the HashiCorp Partners key")
                    : check.error;
            verdict.error = "error verifying trust signature: " + reason;
            return verdict;
        }
        verdict.ok = true;
        verdict.tier = TrustTier::partner;
        return verdict;
    }
    verdict.ok = true;
    verdict.tier = TrustTier::community;
    return verdict;
}

}  // namespace

}  // namespace tfsift::online
