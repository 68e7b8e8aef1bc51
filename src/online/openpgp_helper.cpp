// The helper half of the OpenPGP check: the JSON both processes exchange,
// and the body of `tfsift debug openpgp-verify`.
#include "tfsift/online/openpgp_helper.hpp"

#include <openssl/evp.h>

#include <cstdlib>
#include <string>
#include <nlohmann/json.hpp>

namespace tfsift::online {

namespace {

using nlohmann::json;

// Requests carry raw bytes (a hostile SUMS need not be UTF-8), so the
// documents travel base64-encoded.
std::string to_base64(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
    return out;
}

std::optional<std::string> from_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out(3 * (text.size() / 4) + 1, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    if (n < 0) return std::nullopt;
    auto length = static_cast<std::size_t>(n);
    // EVP_DecodeBlock counts the padding as zero bytes.
    if (!text.empty() && text.back() == '=') --length;
    if (text.size() >= 2 && text[text.size() - 2] == '=') --length;
    out.resize(length);
    return out;
}

std::string_view tier_name(TrustTier tier) {
    switch (tier) {
        case TrustTier::official: return "official";
        case TrustTier::partner: return "partner";
        case TrustTier::community: return "community";
        case TrustTier::unsigned_: return "unsigned";
    }
    return "community";
}

std::optional<TrustTier> tier_from_name(std::string_view name) {
    if (name == "official") return TrustTier::official;
    if (name == "partner") return TrustTier::partner;
    if (name == "community") return TrustTier::community;
    if (name == "unsigned") return TrustTier::unsigned_;
    return std::nullopt;
}

bool env_is_true(const char* name) {
    const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read-only use of the environment
    return value != nullptr && std::string_view(value) == "true";
}

}  // namespace

OpenPgpRequest make_openpgp_request(std::string_view document, std::string_view signature,
                                    std::span<const SigningKey> keys, const SignatureContext& context) {
    OpenPgpRequest request;
    request.document = document;
    request.signature = signature;
    request.keys.assign(keys.begin(), keys.end());
    request.engine = context.engine;
    request.hostname = context.hostname;
    request.enforce_gpg_validation = env_is_true("OPENTOFU_ENFORCE_GPG_VALIDATION");
    request.enforce_gpg_expiration = env_is_true("OPENTOFU_ENFORCE_GPG_EXPIRATION");
    return request;
}

std::string encode_openpgp_request(const OpenPgpRequest& request) {
    json keys = json::array();
    for (const auto& key : request.keys) {
        keys.push_back({{"key_id", to_base64(key.key_id)},
                        {"ascii_armor", to_base64(key.ascii_armor)},
                        {"trust_signature", to_base64(key.trust_signature)}});
    }
    const json doc = {{"document", to_base64(request.document)},
                      {"signature", to_base64(request.signature)},
                      {"keys", std::move(keys)},
                      {"engine", std::string(to_string(request.engine))},
                      {"hostname", to_base64(request.hostname)},
                      {"enforce_gpg_validation", request.enforce_gpg_validation},
                      {"enforce_gpg_expiration", request.enforce_gpg_expiration}};
    return doc.dump();
}

std::optional<OpenPgpRequest> decode_openpgp_request(std::string_view text) {
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
    const auto bytes = [&](const json& object, const char* name) -> std::optional<std::string> {
        const auto it = object.find(name);
        if (it == object.end() || !it->is_string()) return std::nullopt;
        return from_base64(it->get_ref<const std::string&>());
    };
    OpenPgpRequest request;
    auto document = bytes(doc, "document");
    auto signature = bytes(doc, "signature");
    auto hostname = bytes(doc, "hostname");
    if (!document || !signature || !hostname) return std::nullopt;
    request.document = std::move(*document);
    request.signature = std::move(*signature);
    request.hostname = std::move(*hostname);
    const auto engine = doc.find("engine");
    if (engine == doc.end() || !engine->is_string()) return std::nullopt;
    request.engine = engine->get_ref<const std::string&>() == "opentofu" ? Engine::opentofu : Engine::terraform;
    const auto flag = [&](const char* name) {
        const auto it = doc.find(name);
        return it != doc.end() && it->is_boolean() && it->get<bool>();
    };
    request.enforce_gpg_validation = flag("enforce_gpg_validation");
    request.enforce_gpg_expiration = flag("enforce_gpg_expiration");
    const auto keys = doc.find("keys");
    if (keys == doc.end() || !keys->is_array()) return std::nullopt;
    for (const auto& entry : *keys) {
        if (!entry.is_object()) return std::nullopt;
        auto key_id = bytes(entry, "key_id");
        auto armor = bytes(entry, "ascii_armor");
        auto trust = bytes(entry, "trust_signature");
        if (!key_id || !armor || !trust) return std::nullopt;
        SigningKey key;
        key.key_id = std::move(*key_id);
        key.ascii_armor = std::move(*armor);
        key.trust_signature = std::move(*trust);
        request.keys.push_back(std::move(key));
    }
    return request;
}

std::string encode_signature_verdict(const SignatureVerdict& verdict) {
    // Error texts quote RNP and the registry's data; replace what is not
    // UTF-8 rather than fail to answer.
    const json doc = {{"ok", verdict.ok},
                      {"tier", std::string(tier_name(verdict.tier))},
                      {"key_id", verdict.key_id},
                      {"error", verdict.error},
                      {"warnings", verdict.warnings}};
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<SignatureVerdict> decode_signature_verdict(std::string_view text) {
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
    SignatureVerdict verdict;
    const auto ok = doc.find("ok");
    const auto tier = doc.find("tier");
    const auto key_id = doc.find("key_id");
    const auto error = doc.find("error");
    const auto warnings = doc.find("warnings");
    if (ok == doc.end() || !ok->is_boolean() || tier == doc.end() || !tier->is_string() || key_id == doc.end() ||
        !key_id->is_string() || error == doc.end() || !error->is_string() || warnings == doc.end() ||
        !warnings->is_array()) {
        return std::nullopt;
    }
    const auto parsed_tier = tier_from_name(tier->get_ref<const std::string&>());
    if (!parsed_tier) return std::nullopt;
    verdict.ok = ok->get<bool>();
    verdict.tier = *parsed_tier;
    verdict.key_id = key_id->get<std::string>();
    verdict.error = error->get<std::string>();
    for (const auto& warning : *warnings) {
        if (!warning.is_string()) return std::nullopt;
        verdict.warnings.push_back(warning.get<std::string>());
    }
    return verdict;
}

int run_openpgp_helper(std::FILE* in, std::FILE* out) {
    std::string input;
    char buffer[8192];
    for (;;) {
        const std::size_t n = std::fread(buffer, 1, sizeof buffer, in);
        input.append(buffer, n);
        if (n < sizeof buffer) break;
    }
    if (std::ferror(in) != 0) return 2;
    const auto request = decode_openpgp_request(input);
    if (!request) {
        std::fputs("tfsift debug openpgp-verify: the request on stdin is not valid (an internal command)\n", stderr);
        return 2;
    }
    const auto answer = encode_signature_verdict(check_signature_in_this_process(*request));
    if (std::fwrite(answer.data(), 1, answer.size(), out) != answer.size() || std::fflush(out) != 0) return 2;
    return 0;
}

bool is_openpgp_helper_invocation(int argc, const char* const* argv) {
    return argc == 3 && std::string_view(argv[1]) == kOpenPgpHelperCommand[0] &&
           std::string_view(argv[2]) == kOpenPgpHelperCommand[1];
}

}  // namespace tfsift::online
