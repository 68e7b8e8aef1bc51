// Decoding registry, network-mirror and discovery documents, and reading
// SHA256SUMS files: upstream's checks and texts, Go's JSON leniency.
#include <catch2/catch.hpp>

#include "tfsift/net/json_body.hpp"
#include "tfsift/net/mirror_client.hpp"
#include "tfsift/net/registry_client.hpp"
#include "tfsift/net/service_discovery.hpp"
#include "tfsift/online/package_authentication.hpp"

using namespace tfsift::net;
using tfsift::providers::parse_version;
using tfsift::providers::Platform;

namespace {

const std::string kSha(64, 'a');

std::string download_doc(const std::string& extra = "", const std::string& os = "linux") {
    return R"({"protocols": ["5.0"], "os": ")" + os + R"(", "Arch": "amd64",
      "filename": "terraform-provider-demo_1.0.0_linux_amd64.zip",
      "download_url": "../../dl/terraform-provider-demo_1.0.0_linux_amd64.zip",
      "shasums_url": "https://cdn.example/demo_1.0.0_SHA256SUMS",
      "shasums_signature_url": "https://cdn.example/demo_1.0.0_SHA256SUMS.sig",
      "shasum": ")" +
           kSha + R"(",
      "signing_keys": {"gpg_public_keys": [{"key_id": "ABCD", "ascii_armor": "armor", "trust_signature": ""}]})" +
           extra + "} trailing bytes are ignored, as by Go";
}

DownloadLookup decode(const std::string& body) {
    return decode_download_document(body, "https://reg.example/v1/providers/example/demo/1.0.0/download/linux/amd64",
                                    "reg.example/example/demo", *parse_version("1.0.0").version,
                                    Platform{"linux", "amd64"});
}

}  // namespace

TEST_CASE("versions lists", "[net][registry]") {
    auto list = decode_version_list(
        R"({"versions": [{"version": "2.0.0"}, {"version": "1.0.0-beta1"}, {"version": "v3"}, {"Version": "1.0.0"},
           {"version": "2.0.0"}], "warnings": ["deprecated"]})",
        "https://reg.example/v");
    REQUIRE(list.status == LookupStatus::ok);
    REQUIRE(list.versions.size() == 3);
    CHECK(list.versions[0].to_string() == "1.0.0-beta1");
    CHECK(list.versions[2].to_string() == "2.0.0");
    CHECK(list.warnings == std::vector<std::string>{"deprecated"});
    auto bad = decode_version_list("<html>", "https://reg.example/v1/providers/x/y/versions");
    CHECK(bad.status == LookupStatus::failed);
    CHECK_THAT(bad.error, Catch::StartsWith("the response from https://reg.example/v1/providers/x/y/versions is not "
                                            "valid JSON"));
}

TEST_CASE("download documents", "[net][registry]") {
    auto ok = decode(download_doc());
    REQUIRE(ok.status == LookupStatus::ok);
    const auto& d = *ok.document;
    CHECK(d.download_url ==
          "https://reg.example/v1/providers/example/demo/1.0.0/dl/"
          "terraform-provider-demo_1.0.0_linux_amd64.zip");
    CHECK(d.shasum == kSha);
    REQUIRE(d.keys.size() == 1);
    CHECK(d.keys[0].ascii_armor == "armor");

    CHECK(decode(download_doc("", "darwin")).error ==
          "registry response to request for linux_amd64 archive has incorrect target darwin_amd64");
    auto four = download_doc();
    four.replace(four.find("\"5.0\""), 5, "\"4.0\"");
    CHECK(decode(four).error ==
          "provider reg.example/example/demo 1.0.0 is not supported by this version of terraform");
    auto ftp = download_doc();
    ftp.replace(ftp.find("../../dl/"), 9, "ftp://x/");
    CHECK_THAT(decode(ftp).error, Catch::EndsWith("must use http or https scheme"));
    auto short_sum = download_doc();
    short_sum.replace(short_sum.find(kSha), 64, "abc");
    CHECK(decode(short_sum).error == "registry response includes invalid SHA256 hash \"abc\"");
    auto packages = decode(
        download_doc(R"(, "packages": {"linux_amd64": {"hashes": ["zh:)" + kSha + R"("], "package_size": 12}})"));
    REQUIRE(packages.document);
    CHECK(packages.document->packages.at("linux_amd64").size == 12);
    CHECK(decode("{").status == LookupStatus::failed);
}

TEST_CASE("network mirror documents", "[net][mirror]") {
    auto index = decode_mirror_index(R"({"versions": {"2.0.0": {}, "1.0.0": null, "junk": {}}})", "https://m/x");
    REQUIRE(index.status == LookupStatus::ok);
    REQUIRE(index.versions.size() == 2);
    CHECK(index.versions[0].to_string() == "1.0.0");
    CHECK(decode_mirror_index(R"({"versions": {"1.0.0": 3}})", "https://m/x").status == LookupStatus::failed);
    auto version = decode_mirror_version(
        R"({"archives": {"linux_amd64": {"url": "terraform-provider-demo_1.0.0+abc_linux_amd64.zip",
            "hashes": ["h1:abc="]}, "bogus": {"url": "x"}}})",
        "https://m.example/mirror/reg.example/example/demo/1.0.0+abc.json");
    REQUIRE(version.status == LookupStatus::ok);
    REQUIRE(version.archives.size() == 1);
    const auto& archive = version.archives.at("linux_amd64");
    CHECK(archive.url ==
          "https://m.example/mirror/reg.example/example/demo/"
          "terraform-provider-demo_1.0.0+abc_linux_amd64.zip");
    CHECK(archive.filename == "terraform-provider-demo_1.0.0+abc_linux_amd64.zip");
    CHECK(archive.hashes == std::vector<std::string>{"h1:abc="});
    CHECK_THAT(decode_mirror_version("nope", "https://m/v.json").error,
               Catch::StartsWith("invalid response content from mirror server https://m/v.json"));
}

TEST_CASE("discovery documents", "[net][discovery]") {
    const std::string url = "https://reg.example/.well-known/terraform.json";
    auto ok = providers_service_of("reg.example", nlohmann::json::parse(R"({"providers.v1": "/v1/providers/"})"), url);
    CHECK(ok.url == "https://reg.example/v1/providers/");
    CHECK(providers_service_of("reg.example", nlohmann::json::parse(R"({"modules.v1": "/m/"})"), url).error ==
          "host reg.example does not offer a Terraform provider registry");
    CHECK(providers_service_of("reg.example", nlohmann::json::parse(R"({"providers.v2": "/p/"})"), url).error ==
          "host reg.example does not support the provider registry protocol required by this Terraform version, but "
          "may be compatible with a different Terraform version");
    CHECK_FALSE(
        providers_service_of("reg.example", nlohmann::json::parse(R"({"providers.v1": "ftp://x/"})"), url).ok());
    CHECK_FALSE(providers_service_of("reg.example", nlohmann::json::parse("[]"), url).ok());
}

TEST_CASE("JSON bodies are read like Go reads them", "[net][json]") {
    std::string error;
    auto doc = decode_json_body(R"({"Versions": [1]} {"ignored": true})", error);
    REQUIRE(doc);
    const auto* field = json_field(*doc, "versions");
    REQUIRE(field != nullptr);
    CHECK(field->size() == 1);
    CHECK_FALSE(decode_json_body("", error));
    CHECK_FALSE(error.empty());
    CHECK(is_json_media_type("application/json"));
    CHECK(is_json_media_type("Application/JSON; charset=utf-8"));
    CHECK_FALSE(is_json_media_type("text/html"));
    CHECK_FALSE(is_json_media_type("application/jsonx"));
}

TEST_CASE("SHA256SUMS documents", "[online][sums]") {
    const std::string a(64, 'A');
    const std::string b(64, 'b');
    const std::string sums = a + "  demo_1.0.0_linux_amd64.zip\n\n" + b + "  demo_1.0.0_manifest.json\n";
    CHECK(tfsift::online::check_matching_checksum(sums, "demo_1.0.0_linux_amd64.zip", a).empty());
    CHECK(tfsift::online::check_matching_checksum(sums, "demo_1.0.0_darwin_arm64.zip", a) ==
          "checksum list has no SHA-256 hash for \"demo_1.0.0_darwin_arm64.zip\"");
    CHECK(tfsift::online::check_matching_checksum("xyz  f.zip\n", "f.zip", a) ==
          "checksum list has invalid SHA256 hash \"xyz\": encoding/hex: invalid byte: U+0078 'x'");
    CHECK(tfsift::online::sums_zh_hashes(sums) == std::vector<std::string>{"zh:" + std::string(64, 'a'), "zh:" + b});
    CHECK(tfsift::online::sums_zh_hashes(sums + "not a checksum line\n").empty());
    // The file each hash is listed for, the first line's when listed twice.
    CHECK(tfsift::online::sums_file_names(sums + b + "  again.zip\n") ==
          std::map<std::string, std::string>{{"zh:" + std::string(64, 'a'), "demo_1.0.0_linux_amd64.zip"},
                                             {"zh:" + b, "demo_1.0.0_manifest.json"}});
    CHECK(tfsift::online::sums_file_names(sums + "not a checksum line\n").empty());
}
