// Authenticating a downloaded provider package: the SHA256SUMS line, the
// archive's checksum and the signature, in Terraform's order, with the
// texts of Terraform v1.5.7's own tests.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <catch2/catch.hpp>

#include "support/gpg_home.hpp"
#include "support/scratch_dir.hpp"
#include "tfsift/online/package_authentication.hpp"

namespace {

namespace fs = std::filesystem;
using tfsift::Engine;
using tfsift::online::PackageAuthenticationInput;
using tfsift::online::RegistryPackage;
using tfsift::online::SignatureVerdict;
using tfsift::online::SigningKey;
using tfsift::online::TrustTier;
using tfsift::testing::GpgHome;
using tfsift::testing::read_binary_file;
using tfsift::testing::ScratchDir;

// A 32-byte digest written as Go's %x prints [32]byte{b0, b1, b2}.
std::string digest_hex(std::initializer_list<unsigned> leading) {
    std::string hex;
    for (const unsigned b : leading) {
        constexpr char kDigits[] = "0123456789abcdef";
        hex += kDigits[(b >> 4U) & 0xFU];
        hex += kDigits[b & 0xFU];
    }
    hex.resize(64, '0');
    return hex;
}

fs::path write(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// The package bytes the chain tests download, and their SHA-256 (computed
// with sha256sum, not by tfsift).
const std::string kPackage = "not really a zip\n";
const std::string kPackageSha256 = "efc9d4344ac9a8cb535ea4626c8232bf3b0caa6a5f27ef451028e9bc3444bc30";
const std::string kFilename = "terraform-provider-demo_1.0.0_linux_amd64.zip";

}  // namespace

TEST_CASE("package authentication: the SHA256SUMS line for the file", "[online][authentication]") {
    const auto want = digest_hex({0xde, 0xca, 0xde});
    const auto other = digest_hex({0xc0, 0xff, 0xee});

    CHECK(tfsift::online::check_matching_checksum(other + " README.txt\n" + want + " my-package.zip\n",
                                                  "my-package.zip", want)
              .empty());
    // Upper-case hex in either place is the same hash.
    CHECK(
        tfsift::online::check_matching_checksum("DECADE" + want.substr(6) + "  my-package.zip", "my-package.zip", want)
            .empty());
    CHECK(tfsift::online::check_matching_checksum(digest_hex({0xbe, 0xef}) + " README.txt", "my-package.zip", want) ==
          "checksum list has no SHA-256 hash for \"my-package.zip\"");
    CHECK(
        tfsift::online::check_matching_checksum("horses README.txt\nchickens my-package.zip", "my-package.zip", want) ==
        "checksum list has invalid SHA256 hash \"chickens\": encoding/hex: invalid byte: U+0068 'h'");
    CHECK(tfsift::online::check_matching_checksum(
              digest_hex({0xbe, 0xef}) + " README.txt\n" + other + " my-package.zip", "my-package.zip", want) ==
          "checksum list has unexpected SHA-256 hash "
          "c0ffee0000000000000000000000000000000000000000000000000000000000 (expected "
          "decade0000000000000000000000000000000000000000000000000000000000)");
    // The file name must match a whole field, and the first matching line wins.
    CHECK_FALSE(tfsift::online::check_matching_checksum(want + "  xmy-package.zip", "my-package.zip", want).empty());
    CHECK(tfsift::online::check_matching_checksum(want + "  my-package.zip\n" + other + "  my-package.zip",
                                                  "my-package.zip", want)
              .empty());
    CHECK_THAT(tfsift::online::check_matching_checksum("abc  my-package.zip", "my-package.zip", want),
               Catch::StartsWith("checksum list has invalid SHA256 hash \"abc\": "));
}

TEST_CASE("package authentication: the zh: set of a SHA256SUMS document", "[online][authentication]") {
    const std::string realistic = read_binary_file(fs::path(TFSIFT_SOURCE_DIR) /
                                                   "fixtures/online/terraform-v1.5.7-signatures/realistic_SHA256SUMS");
    // Terraform's TestSignatureAuthentication_acceptableHashes.
    const std::vector<std::string> want{
        "zh:7d7e888fdd28abfe00894f9055209b9eec785153641de98e6852aa071008d4ee",
        "zh:f8b6cf9ade087c17826d49d89cef21261cdc22bd27065bbc5b27d7dbf7fbbf6c",
        "zh:a5ba9945606bb7bfb821ba303957eeb40dd9ee4e706ba8da1eaf7cbeb0356e63",
        "zh:df3a5a8d6ffff7bacf19c92d10d0d500f98169ea17b3764b01a789f563d1aad7",
        "zh:086119a26576d06b8281a97e8644380da89ce16197cd955f74ea5ee664e9358b",
        "zh:1e5f7a5f3ade7b8b1d1d59c5cea2e1a2f8d2f8c3f41962dbbe8647e222be8239",
        "zh:0e9fd0f3e2254b526a0e81e0cfdfc82583b0cd343778c53ead21aa7d52f776d7",
        "zh:66a947e7de1c74caf9f584c3ed4e91d2cb1af6fe5ce8abaf1cf8f7ff626a09d1",
        "zh:def1b73849bec0dc57a04405847921bf9206c75b52ae9de195476facb26bd85e",
        "zh:48f1826ec31d6f104e46cc2022b41f30cd1019ef48eaec9697654ef9ec37a879",
        "zh:17e0b496022bc4e4137be15e96d2b051c8acd6e14cb48d9b13b262330464f6cc",
        "zh:2696c86228f491bc5425561c45904c9ce39b1c676b1e17734cb2ee6b578c4bcd",
    };
    CHECK(tfsift::online::sums_zh_hashes(realistic) == want);
    // Blank lines (and a final newline) are ignored.
    CHECK(tfsift::online::sums_zh_hashes("\n" + realistic + "\n\n   \n") == want);
    // One line that is not "<sha256> <name>" voids the whole set.
    CHECK(tfsift::online::sums_zh_hashes(realistic + "\nnot a checksum line\n").empty());
    CHECK(tfsift::online::sums_zh_hashes(realistic + "\n" + std::string(64, 'a')).empty());
    CHECK(tfsift::online::sums_zh_hashes(std::string(63, 'a') + "  short.zip").empty());
    CHECK(tfsift::online::sums_zh_hashes(std::string(64, 'g') + "  nothex.zip").empty());
    CHECK(tfsift::online::sums_zh_hashes("").empty());
    // Upper-case hex is recorded in the lock file's lower case.
    CHECK(tfsift::online::sums_zh_hashes(std::string(64, 'A') + "  x.zip") ==
          std::vector<std::string>{"zh:" + std::string(64, 'a')});
}

TEST_CASE("package authentication: the archive's checksum", "[online][authentication]") {
    const ScratchDir dir("tfsift-auth");
    const auto zip = write(dir.path / kFilename, kPackage);
    CHECK(tfsift::online::check_archive_checksum(zip, kPackageSha256).empty());
    const auto wrong = digest_hex({0x12, 0x34});
    CHECK(tfsift::online::check_archive_checksum(zip, wrong) ==
          "archive has incorrect checksum zh:" + kPackageSha256 + " (expected zh:" + wrong + ")");
    CHECK_THAT(tfsift::online::check_archive_checksum(dir.path / "missing.zip", kPackageSha256),
               Catch::StartsWith("failed to compute checksum for " + (dir.path / "missing.zip").string() + ": "));
}

TEST_CASE("package authentication: OpenTofu's packages extension", "[online][authentication]") {
    const ScratchDir dir("tfsift-auth");
    const auto zip = write(dir.path / kFilename, kPackage);
    const auto good = std::map<std::string, RegistryPackage>{
        {"linux_amd64", {{"zh:" + kPackageSha256, "h1:AAAA"}, static_cast<std::int64_t>(kPackage.size())}},
        {"darwin_arm64", {{"zh:" + digest_hex({1})}, 10}}};
    CHECK(tfsift::online::check_registry_packages(good, "linux_amd64", zip, kPackageSha256).empty());
    CHECK_THAT(tfsift::online::check_registry_packages(good, "windows_amd64", zip, kPackageSha256),
               Catch::Contains("no entry for windows_amd64"));
    auto wrong_size = good;
    wrong_size["linux_amd64"].package_size = 3;
    CHECK_THAT(tfsift::online::check_registry_packages(wrong_size, "linux_amd64", zip, kPackageSha256),
               Catch::Contains("17 bytes") && Catch::Contains("says 3"));
    auto zero_size = good;
    zero_size["linux_amd64"].package_size = 0;
    CHECK_FALSE(tfsift::online::check_registry_packages(zero_size, "linux_amd64", zip, kPackageSha256).empty());
    auto other_zh = good;
    other_zh["linux_amd64"].hashes.push_back("zh:" + digest_hex({2}));
    CHECK_THAT(tfsift::online::check_registry_packages(other_zh, "linux_amd64", zip, kPackageSha256),
               Catch::Contains("zh:" + digest_hex({2})));
    auto no_zh = good;
    no_zh["linux_amd64"].hashes = {"h1:AAAA"};
    CHECK_THAT(tfsift::online::check_registry_packages(no_zh, "linux_amd64", zip, kPackageSha256),
               Catch::Contains("no zh: checksum"));
}

TEST_CASE("package authentication: the chain, in Terraform's order", "[online][authentication][gpg]") {
    const GpgHome home;
    REQUIRE(home.gpg("--quick-gen-key 'author <author@example.invalid>' ed25519 sign never"));
    const ScratchDir dir("tfsift-auth");
    const auto zip = write(dir.path / kFilename, kPackage);
    const auto other = digest_hex({0xab});
    const std::string sums =
        kPackageSha256 + "  " + kFilename + "\n" + other + "  terraform-provider-demo_1.0.0_darwin_arm64.zip\n";

    PackageAuthenticationInput input;
    input.archive = zip;
    input.filename = kFilename;
    input.shasum = kPackageSha256;
    input.sums_document = sums;
    input.sums_signature = home.sign("author@example.invalid", sums);
    SigningKey key;
    key.ascii_armor = home.armored_public_key("author@example.invalid");
    input.keys = {key};
    input.context.hostname = "registry.example.test";
    input.platform = "linux_amd64";

    SECTION("all three pass: every SUMS line becomes a signed zh:") {
        const auto result = tfsift::online::authenticate_package(input);
        INFO(result.error);
        REQUIRE(result.ok());
        CHECK(result.tier == TrustTier::community);
        CHECK(result.key_id == home.primary_key_id("author@example.invalid"));
        CHECK(result.signed_hashes == std::vector<std::string>{"zh:" + kPackageSha256, "zh:" + other});
        CHECK(result.signed_by_any_party());

        const auto sums_only =
            tfsift::online::authenticate_sums(input.sums_document, input.sums_signature, input.keys, input.context);
        CHECK(sums_only.ok());
        CHECK(sums_only.signed_hashes == result.signed_hashes);
    }
    SECTION("the SUMS lacks the file: step 1 fails before the signature is looked at") {
        input.filename = "terraform-provider-demo_1.0.0_windows_amd64.zip";
        input.sums_signature = "garbage";
        CHECK(tfsift::online::authenticate_package(input).error ==
              "checksum list has no SHA-256 hash for \"terraform-provider-demo_1.0.0_windows_amd64.zip\"");
    }
    SECTION("the SUMS line differs from the download document's shasum") {
        input.shasum = other;
        CHECK(tfsift::online::authenticate_package(input).error ==
              "checksum list has unexpected SHA-256 hash " + kPackageSha256 + " (expected " + other + ")");
    }
    SECTION("the archive differs from its SUMS line") {
        write(zip, "tampered");
        input.sums_signature = "garbage";
        CHECK_THAT(tfsift::online::authenticate_package(input).error,
                   Catch::StartsWith("archive has incorrect checksum zh:") &&
                       Catch::EndsWith("(expected zh:" + kPackageSha256 + ")"));
    }
    SECTION("a bad shasum in the download document") {
        input.shasum = "1234";
        CHECK_THAT(tfsift::online::authenticate_package(input).error,
                   Catch::StartsWith("registry response includes invalid SHA256 hash \"1234\""));
    }
    SECTION("the signature is over another document") {
        input.sums_signature = home.sign("author@example.invalid", sums + "extra\n");
        const auto result = tfsift::online::authenticate_package(input);
        CHECK_THAT(result.error, Catch::StartsWith("error checking signature: "));
        CHECK(result.signed_hashes.empty());
    }
    SECTION("no key listed: unknown issuer, nothing vouched for") {
        input.keys.clear();
        const auto result = tfsift::online::authenticate_package(input);
        CHECK(result.error == "authentication signature from unknown issuer");
        CHECK(result.signed_hashes.empty());
    }
    SECTION("a verdict reached once for the version is reused") {
        SignatureVerdict verdict;
        verdict.ok = true;
        verdict.tier = TrustTier::partner;
        verdict.key_id = "0123456789ABCDEF";
        input.signature_verdict = verdict;
        input.sums_signature = "not checked again";
        const auto result = tfsift::online::authenticate_package(input);
        CHECK(result.ok());
        CHECK(result.tier == TrustTier::partner);
        CHECK(result.key_id == "0123456789ABCDEF");
        CHECK(result.signed_hashes.size() == 2);
    }
    SECTION("OpenTofu, keyless on its registry: accepted, signing skipped, no zh: vouched for") {
        input.keys.clear();
        input.context.engine = Engine::opentofu;
        input.context.hostname = "registry.opentofu.org";
        input.packages = std::map<std::string, RegistryPackage>{
            {"linux_amd64", {{"zh:" + kPackageSha256, "h1:AAAA"}, static_cast<std::int64_t>(kPackage.size())}},
            {"darwin_arm64", {{"zh:" + other}, 10}}};
        const auto result = tfsift::online::authenticate_package(input);
        INFO(result.error);
        REQUIRE(result.ok());
        CHECK(result.tier == TrustTier::unsigned_);
        CHECK_FALSE(result.signed_by_any_party());
        CHECK(result.signed_hashes.empty());
        CHECK(result.registry_hashes == std::vector<std::string>{"zh:" + other, "zh:" + kPackageSha256, "h1:AAAA"});
    }
    SECTION("OpenTofu checks its packages extension first") {
        input.context.engine = Engine::opentofu;
        input.packages = std::map<std::string, RegistryPackage>{{"darwin_arm64", {{"zh:" + other}, 10}}};
        input.filename = "missing-from-sums.zip";
        CHECK_THAT(tfsift::online::authenticate_package(input).error, Catch::Contains("no entry for linux_amd64"));
    }
}
