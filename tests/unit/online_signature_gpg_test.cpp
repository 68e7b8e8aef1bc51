// The OpenPGP check against keys and signatures made at test time by gpg
// (RSA and Ed25519, a signing subkey, an expired key, a SHA-1 signature), in
// a temporary GNUPGHOME whose agent is stopped again at the end.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>
#include <catch2/catch.hpp>

#include "support/gpg_home.hpp"
#include "tfsift/online/signature.hpp"

namespace {

using tfsift::Engine;
using tfsift::online::SignatureContext;
using tfsift::online::SigningKey;
using tfsift::online::TrustTier;
using tfsift::testing::GpgHome;

SigningKey key(std::string armor) {
    SigningKey k;
    k.ascii_armor = std::move(armor);
    return k;
}

const std::string kSums =
    "6f1c4e0b6a8c0a6c7e3a3f7b1d5e4f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e  terraform-provider-demo_1.0.0_linux_amd64.zip\n"
    "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9  terraform-provider-demo_1.0.0_darwin_arm64.zip\n";

}  // namespace

TEST_CASE("signature: keys made by gpg at test time", "[online][signature][gpg]") {
    const GpgHome home;
    REQUIRE(home.gpg("--quick-gen-key 'rsa signer <rsa@example.invalid>' rsa3072 sign never"));
    REQUIRE(home.gpg("--quick-gen-key 'ed signer <ed@example.invalid>' ed25519 sign never"));
    REQUIRE(home.gpg("--quick-gen-key 'stranger <stranger@example.invalid>' ed25519 sign never"));
    const auto rsa_armor = home.armored_public_key("rsa@example.invalid");
    const auto ed_armor = home.armored_public_key("ed@example.invalid");
    SignatureContext context;
    context.hostname = "registry.example.test";
    // Keys are made once for all the checks below (a SECTION would make them
    // again for each).

    {  // RSA
        const auto sig = home.sign("rsa@example.invalid", kSums);
        const auto verdict = tfsift::online::verify_sums_signature(kSums, sig, std::vector{key(rsa_armor)}, context);
        INFO(verdict.error);
        CHECK(verdict.ok);
        CHECK(verdict.tier == TrustTier::community);
        CHECK(verdict.key_id == home.primary_key_id("rsa@example.invalid"));
    }
    {  // Ed25519, after a key that did not sign
        const auto sig = home.sign("ed@example.invalid", kSums);
        const auto verdict =
            tfsift::online::verify_sums_signature(kSums, sig, std::vector{key(rsa_armor), key(ed_armor)}, context);
        INFO(verdict.error);
        CHECK(verdict.ok);
        CHECK(verdict.key_id == home.primary_key_id("ed@example.invalid"));
    }
    {  // signed by a stranger whose key the registry did not list
        const auto sig = home.sign("stranger@example.invalid", kSums);
        const auto verdict =
            tfsift::online::verify_sums_signature(kSums, sig, std::vector{key(rsa_armor), key(ed_armor)}, context);
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == "authentication signature from unknown issuer");
    }
    {  // a document changed after signing
        const auto sig = home.sign("rsa@example.invalid", kSums);
        auto tampered = kSums;
        tampered[3] = 'f';
        const auto verdict = tfsift::online::verify_sums_signature(tampered, sig, std::vector{key(rsa_armor)}, context);
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error checking signature: invalid signature"));
    }
    {  // an armored signature
        const auto sig = home.sign("rsa@example.invalid", kSums, "--armor");
        REQUIRE(sig.starts_with("-----BEGIN PGP SIGNATURE-----"));
        const auto verdict = tfsift::online::verify_sums_signature(kSums, sig, std::vector{key(rsa_armor)}, context);
        CHECK_FALSE(verdict.ok);
        CHECK(verdict.error == "error checking signature: openpgp: invalid data: tag byte does not have MSB set");
    }
    {  // a SHA-1 signature is refused, as go-crypto refuses it
        const auto sig = home.sign("rsa@example.invalid", kSums, "--digest-algo SHA1");
        const auto verdict = tfsift::online::verify_sums_signature(kSums, sig, std::vector{key(rsa_armor)}, context);
        CHECK_FALSE(verdict.ok);
        CHECK_THAT(verdict.error, Catch::StartsWith("error checking signature: "));
    }
}

TEST_CASE("signature: a signing subkey reports its primary key's ID", "[online][signature][gpg]") {
    const GpgHome home;
    REQUIRE(home.gpg("--quick-gen-key 'primary <primary@example.invalid>' ed25519 cert never"));
    const auto primary = home.primary_key_id("primary@example.invalid");
    const auto listing = home.output("--list-keys primary@example.invalid");
    const auto fpr = listing.find("fpr:::::::::");
    REQUIRE(fpr != std::string::npos);
    const auto fingerprint = listing.substr(fpr + 12, 40);
    REQUIRE(home.gpg("--quick-add-key " + fingerprint + " ed25519 sign never"));
    const auto sig = home.sign("primary@example.invalid", kSums);
    const auto verdict = tfsift::online::verify_sums_signature(
        kSums, sig, std::vector{key(home.armored_public_key("primary@example.invalid"))}, SignatureContext{});
    INFO(verdict.error);
    CHECK(verdict.ok);
    CHECK(verdict.key_id == primary);
}

TEST_CASE("signature: a key that expired after it signed", "[online][signature][gpg]") {
    const GpgHome home;
    // A key valid for one day in 2020, and a signature made in that day.
    REQUIRE(
        home.gpg("--faked-system-time 20200101T000000! --quick-gen-key 'old <old@example.invalid>' ed25519 sign 1d"));
    const auto sig = home.sign("old@example.invalid", kSums, "--faked-system-time 20200101T010000!");
    const std::vector keys{key(home.armored_public_key("old@example.invalid"))};
    SignatureContext terraform;
    const auto accepted = tfsift::online::verify_sums_signature(kSums, sig, keys, terraform);
    INFO(accepted.error);
    CHECK(accepted.ok);
    CHECK(accepted.warnings.empty());

    SignatureContext tofu;
    tofu.engine = Engine::opentofu;
    tofu.hostname = "registry.opentofu.org";
    const auto warned = tfsift::online::verify_sums_signature(kSums, sig, keys, tofu);
    CHECK(warned.ok);
    CHECK(warned.warnings.size() == 1);
}
