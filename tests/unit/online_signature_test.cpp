// The OpenPGP check of a registry's SHA256SUMS signature, against Terraform
// v1.5.7's own test vectors (fixtures/online/terraform-v1.5.7-signatures,
// MPL-2.0) and the rules of spec online-installer 1.3.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>
#include <catch2/catch.hpp>

#include "support/scoped_env.hpp"
#include "tfsift/online/hashicorp_keys.hpp"
#include "tfsift/online/openpgp_helper.hpp"
#include "tfsift/online/signature.hpp"

namespace {

namespace fs = std::filesystem;
using tfsift::Engine;
using tfsift::online::SignatureContext;
using tfsift::online::SignatureVerdict;
using tfsift::online::SigningKey;
using tfsift::online::TrustTier;
using tfsift::online::verify_sums_signature;
using tfsift::testing::ScopedEnv;

std::string vector_file(const std::string& name) {
    const fs::path path = fs::path(TFSIFT_SOURCE_DIR) / "fixtures/online/terraform-v1.5.7-signatures" / name;
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

SigningKey key_from_armor(std::string armor, std::string trust_signature = {}) {
    SigningKey key;
    key.ascii_armor = std::move(armor);
    key.trust_signature = std::move(trust_signature);
    return key;
}

SignatureVerdict verify(const std::string& document, const std::string& signature, const std::vector<SigningKey>& keys,
                        Engine engine = Engine::terraform, const std::string& host = "registry.terraform.io") {
    SignatureContext context;
    context.engine = engine;
    context.hostname = host;
    return verify_sums_signature(document, signature, keys, context);
}

const std::string kAuthorKeyId = "37A6AB3BCF2C170A";
const std::string kHashiCorpKeyId = "34365D9472D7468F";

}  // namespace

TEST_CASE("signature: the HashiCorp-signed null 3.1.0 SHA256SUMS is official", "[online][signature]") {
    const auto verdict = verify(vector_file("terraform-provider-null_3.1.0_SHA256SUMS"),
                                vector_file("terraform-provider-null_3.1.0_SHA256SUMS.sig"),
                                {key_from_armor(std::string(tfsift::online::hashicorp_public_key()))});
    INFO(verdict.error);
    CHECK(verdict.ok);
    CHECK(verdict.tier == TrustTier::official);
    // A subkey (B0B441097685B676) made the signature; the primary key's ID
    // is the one reported, as Terraform prints it.
    CHECK(verdict.key_id == kHashiCorpKeyId);
    CHECK(verdict.error.empty());
    CHECK(tfsift::online::trust_label(verdict.tier) == "signed by HashiCorp");
}

TEST_CASE("signature: an author key with a partner trust signature is a partner", "[online][signature]") {
    const auto verdict =
        verify(vector_file("example_shasums_data.txt"), vector_file("example_shasums_data.txt.sig"),
               {key_from_armor(vector_file("author_key.asc"), vector_file("author_key_trust_signature.asc"))});
    INFO(verdict.error);
    CHECK(verdict.ok);
    CHECK(verdict.tier == TrustTier::partner);
    CHECK(verdict.key_id == kAuthorKeyId);
    CHECK(tfsift::online::trust_label(verdict.tier) == "signed by a HashiCorp partner");
}

TEST_CASE("signature: an author key without a trust signature is self-signed", "[online][signature]") {
    const auto verdict = verify(vector_file("example_shasums_data.txt"), vector_file("example_shasums_data.txt.sig"),
                                {key_from_armor(vector_file("author_key.asc"))});
    INFO(verdict.error);
    CHECK(verdict.ok);
    CHECK(verdict.tier == TrustTier::community);
    CHECK(verdict.key_id == kAuthorKeyId);
    CHECK(tfsift::online::trust_label(verdict.tier) == "self-signed");
    CHECK(tfsift::online::trust_label(verdict.tier, Engine::opentofu) == "signed");
}

TEST_CASE("signature: keys that did not sign are skipped", "[online][signature]") {
    const auto verdict = verify(vector_file("example_shasums_data.txt"), vector_file("example_shasums_data.txt.sig"),
                                {key_from_armor(std::string(tfsift::online::hashicorp_partners_key())),
                                 key_from_armor(std::string(tfsift::online::hashicorp_public_key())),
                                 key_from_armor(vector_file("author_key.asc"))});
    INFO(verdict.error);
    CHECK(verdict.ok);
    CHECK(verdict.tier == TrustTier::community);
    CHECK(verdict.key_id == kAuthorKeyId);
}

TEST_CASE("signature: failures carry Terraform's wording", "[online][signature]") {
    const auto placeholder = vector_file("example_shasums_data.txt");
    const auto good = vector_file("example_shasums_data.txt.sig");
    const auto author = vector_file("author_key.asc");

    SECTION("a key that is not armor") {
        const auto verdict = verify(placeholder, good, {key_from_armor("invalid PGP armor value")});
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == "error decoding signing key: no armored data found");
    }
    SECTION("armor that holds garbage") {
        const auto verdict = verify(
            placeholder, good,
            {key_from_armor(
                "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n=AAAA\n-----END PGP PUBLIC KEY BLOCK-----\n")});
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error decoding signing key: "));
    }
    SECTION("a truncated signature") {
        const auto verdict = verify(placeholder, vector_file("bad_signature.sig"), {key_from_armor(author)});
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error checking signature: "));
    }
    SECTION("no key made the signature") {
        const auto verdict =
            verify(placeholder, good, {key_from_armor(std::string(tfsift::online::hashicorp_public_key()))});
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == "authentication signature from unknown issuer");
    }
    SECTION("no keys at all") {
        const auto verdict = verify(placeholder, good, {});
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == "authentication signature from unknown issuer");
    }
    SECTION("a trust signature that is not armor") {
        const auto verdict = verify(placeholder, good, {key_from_armor(author, "invalid PGP armor value")});
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error decoding trust signature: "));
    }
    SECTION("a trust signature over another key") {
        const auto verdict =
            verify(placeholder, good, {key_from_armor(author, vector_file("other_key_trust_signature.asc"))});
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error verifying trust signature: "));
    }
    SECTION("a signature over other data") {
        auto tampered = vector_file("terraform-provider-null_3.1.0_SHA256SUMS");
        tampered[0] = tampered[0] == '0' ? '1' : '0';
        const auto verdict = verify(tampered, vector_file("terraform-provider-null_3.1.0_SHA256SUMS.sig"),
                                    {key_from_armor(std::string(tfsift::online::hashicorp_public_key()))});
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error checking signature: "));
    }
    SECTION("an ASCII-armored signature is refused") {
        // Registries serve binary signatures; the armored trust signature
        // stands in for any armored one: its first byte is '-'.
        const auto verdict =
            verify(placeholder, vector_file("author_key_trust_signature.asc"), {key_from_armor(author)});
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == "error checking signature: openpgp: invalid data: tag byte does not have MSB set");
    }
    SECTION("an empty signature") {
        const auto verdict = verify(placeholder, "", {key_from_armor(author)});
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error checking signature: "));
    }
    SECTION("random bytes as a signature") {
        std::string noise(300, '\0');
        for (std::size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<char>((i * 131U + 0x85U) & 0xFFU);
        const auto verdict = verify(placeholder, noise, {key_from_armor(author)});
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error checking signature: "));
    }
}

TEST_CASE("signature: OpenTofu's keyless rule and GPG variables", "[online][signature]") {
    const auto placeholder = vector_file("example_shasums_data.txt");
    const auto good = vector_file("example_shasums_data.txt.sig");
    const ScopedEnv no_enforce_validation("OPENTOFU_ENFORCE_GPG_VALIDATION", nullptr);
    const ScopedEnv no_enforce_expiration("OPENTOFU_ENFORCE_GPG_EXPIRATION", nullptr);

    SECTION("no keys on registry.opentofu.org: the check is skipped") {
        const auto verdict = verify(placeholder, good, {}, Engine::opentofu, "registry.opentofu.org");
        CHECK(verdict.ok);
        CHECK(verdict.tier == TrustTier::unsigned_);
        CHECK(tfsift::online::trust_label(verdict.tier, Engine::opentofu) == "signing skipped");
    }
    // OpenTofu wraps the reason in a sentence of its own.
    const std::string unknown_issuer =
        "the provider is not signed with a valid signing key; please contact the provider author "
        "(authentication signature from unknown issuer)";
    SECTION("no keys, OPENTOFU_ENFORCE_GPG_VALIDATION=true: unknown issuer") {
        const ScopedEnv enforce("OPENTOFU_ENFORCE_GPG_VALIDATION", "true");
        const auto verdict = verify(placeholder, good, {}, Engine::opentofu, "registry.opentofu.org");
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == unknown_issuer);
    }
    SECTION("no keys on another host: unknown issuer") {
        const auto verdict = verify(placeholder, good, {}, Engine::opentofu, "registry.example.test");
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == unknown_issuer);
    }
    SECTION("no keys on registry.opentofu.org under Terraform's rules: unknown issuer") {
        const auto verdict = verify(placeholder, good, {}, Engine::terraform, "registry.opentofu.org");
        CHECK_FALSE(verdict.ok);
    }
    SECTION("a verified author key: signed, no HashiCorp tiers") {
        const auto verdict =
            verify(placeholder, good,
                   {key_from_armor(vector_file("author_key.asc"), vector_file("author_key_trust_signature.asc"))},
                   Engine::opentofu, "registry.opentofu.org");
        INFO(verdict.error);
        CHECK(verdict.ok);
        CHECK(verdict.tier == TrustTier::community);
        CHECK(verdict.key_id == kAuthorKeyId);
        CHECK(verdict.warnings.empty());  // the test author key never expires
    }
    SECTION("an expired signing key: a warning, or an error when enforced") {
        // HashiCorp's signing subkey of the null 3.1.0 release expired in
        // 2022 (and the v1.5.7 primary key in April 2026).
        const auto sums = vector_file("terraform-provider-null_3.1.0_SHA256SUMS");
        const auto sig = vector_file("terraform-provider-null_3.1.0_SHA256SUMS.sig");
        const std::vector<SigningKey> keys{key_from_armor(std::string(tfsift::online::hashicorp_public_key()))};
        const auto warned = verify(sums, sig, keys, Engine::opentofu, "registry.opentofu.org");
        INFO(warned.error);
        CHECK(warned.ok);
        REQUIRE(warned.warnings.size() == 1);
        CHECK_THAT(warned.warnings[0], Catch::Contains(kHashiCorpKeyId) && Catch::Contains("expired"));

        const ScopedEnv enforce("OPENTOFU_ENFORCE_GPG_EXPIRATION", "true");
        const auto refused = verify(sums, sig, keys, Engine::opentofu, "registry.opentofu.org");
        CHECK_FALSE(refused.ok);
        CHECK_THAT(refused.error,
                   Catch::StartsWith("the provider is not signed with a valid signing key; please contact the "
                                     "provider author (") &&
                       Catch::Contains("expired") && Catch::Contains("OPENTOFU_ENFORCE_GPG_EXPIRATION"));

        // Terraform ignores key expiry.
        const auto terraform = verify(sums, sig, keys);
        CHECK(terraform.ok);
        CHECK(terraform.warnings.empty());
    }
}

namespace {

// Counts SIGCHLD: one per helper process that ended.
volatile std::sig_atomic_t g_children_exited = 0;
extern "C" void count_child_exit(int /*signal*/) { g_children_exited = g_children_exited + 1; }
}  // namespace

TEST_CASE("signature: RNP's log output never reaches tfsift's stderr", "[online][signature]") {
    // Importing HashiCorp's key makes Debian's librnp print warnings to
    // stderr. Capture fd 2 around a check done through the helper process,
    // and around the same check done in this process, which shows the
    // capture would see them.
    const auto sums = vector_file("terraform-provider-null_3.1.0_SHA256SUMS");
    const auto sig = vector_file("terraform-provider-null_3.1.0_SHA256SUMS.sig");
    const std::vector<SigningKey> keys{key_from_armor(std::string(tfsift::online::hashicorp_public_key()))};

    const auto captured = [](const auto& action) {
        char name[] = "/tmp/tfsift-stderr-XXXXXX";
        const int capture = ::mkstemp(name);
        REQUIRE(capture >= 0);
        std::fflush(stderr);
        const int saved = ::dup(2);
        ::dup2(capture, 2);
        action();
        std::fflush(stderr);
        ::dup2(saved, 2);
        ::close(saved);
        ::close(capture);
        std::ifstream in(name, std::ios::binary);
        std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        ::unlink(name);
        return text;
    };

    struct sigaction counting {};
    counting.sa_handler = count_child_exit;
    sigemptyset(&counting.sa_mask);
    struct sigaction previous {};
    REQUIRE(::sigaction(SIGCHLD, &counting, &previous) == 0);
    g_children_exited = 0;
    SignatureVerdict through_helper;
    const auto helper_stderr = captured([&] {
        SignatureContext context;
        // A host no other test uses, so no remembered verdict stands in for
        // the helper.
        context.hostname = "stderr-check.example.test";
        through_helper = verify_sums_signature(sums, sig, keys, context);
    });
    ::sigaction(SIGCHLD, &previous, nullptr);
    CHECK(g_children_exited == 1);
    CHECK(through_helper.ok);
    CHECK(helper_stderr.empty());

    SignatureVerdict in_process;
    const auto direct_stderr = captured([&] {
        auto request = tfsift::online::make_openpgp_request(sums, sig, keys, SignatureContext{});
        in_process = tfsift::online::check_signature_in_this_process(request);
    });
    CHECK(in_process.ok);
    CHECK_FALSE(direct_stderr.empty());
}

TEST_CASE("signature: the helper's wire format keeps every byte", "[online][signature]") {
    tfsift::online::OpenPgpRequest request;
    request.document = std::string("a\0b\xff\n", 5);
    request.signature = "\x89\x01";
    request.keys.push_back(key_from_armor("armor\xfe", "trust"));
    request.keys.back().key_id = "ABCDEF";
    request.engine = Engine::opentofu;
    request.hostname = "registry.opentofu.org";
    request.enforce_gpg_expiration = true;
    const auto decoded = tfsift::online::decode_openpgp_request(tfsift::online::encode_openpgp_request(request));
    REQUIRE(decoded);
    CHECK(decoded->document == request.document);
    CHECK(decoded->signature == request.signature);
    REQUIRE(decoded->keys.size() == 1);
    CHECK(decoded->keys[0].ascii_armor == "armor\xfe");
    CHECK(decoded->keys[0].trust_signature == "trust");
    CHECK(decoded->keys[0].key_id == "ABCDEF");
    CHECK(decoded->engine == Engine::opentofu);
    CHECK(decoded->hostname == "registry.opentofu.org");
    CHECK_FALSE(decoded->enforce_gpg_validation);
    CHECK(decoded->enforce_gpg_expiration);

    CHECK_FALSE(tfsift::online::decode_openpgp_request("{}"));
    CHECK_FALSE(tfsift::online::decode_openpgp_request("not json"));
    CHECK_FALSE(tfsift::online::decode_signature_verdict("{\"ok\":true}"));

    SignatureVerdict verdict;
    verdict.ok = true;
    verdict.tier = TrustTier::partner;
    verdict.key_id = kAuthorKeyId;
    verdict.warnings = {"w1", "w2"};
    const auto back = tfsift::online::decode_signature_verdict(tfsift::online::encode_signature_verdict(verdict));
    REQUIRE(back);
    CHECK(back->ok);
    CHECK(back->tier == TrustTier::partner);
    CHECK(back->key_id == kAuthorKeyId);
    CHECK(back->warnings == verdict.warnings);
}

TEST_CASE("signature: one helper per distinct check", "[online][signature]") {
    // SHA256SUMS covers every platform of a version; asking again for the
    // same document, signature and keys reuses the verdict instead of
    // starting another helper. Each helper's exit raises SIGCHLD.
    struct sigaction counting {};
    counting.sa_handler = count_child_exit;
    sigemptyset(&counting.sa_mask);
    struct sigaction previous {};
    REQUIRE(::sigaction(SIGCHLD, &counting, &previous) == 0);

    const std::string document = "a document only this test signs: " + std::to_string(::getpid()) + "\n";
    const std::vector<SigningKey> keys{key_from_armor(vector_file("author_key.asc"))};
    g_children_exited = 0;
    const auto first = verify(document, vector_file("example_shasums_data.txt.sig"), keys);
    const auto after_first = static_cast<int>(g_children_exited);
    const auto second = verify(document, vector_file("example_shasums_data.txt.sig"), keys);
    const auto after_second = static_cast<int>(g_children_exited);
    const auto other_host =
        verify(document, vector_file("example_shasums_data.txt.sig"), keys, Engine::terraform, "registry.example.test");
    const auto after_other = static_cast<int>(g_children_exited);
    ::sigaction(SIGCHLD, &previous, nullptr);

    CHECK_FALSE(first.ok);
    CHECK_THAT(first.error, Catch::StartsWith("error checking signature: invalid signature"));
    CHECK(second.error == first.error);
    CHECK(other_host.error == first.error);
    CHECK(after_first == 1);
    CHECK(after_second == 1);
    CHECK(after_other == 2);
}
