// The module registry protocol's decoders and Terraform's version choice.
#include <catch2/catch.hpp>

#include <chrono>

#include "tfsift/net/module_registry_client.hpp"

using namespace tfsift::net;

TEST_CASE("module versions list", "[module_registry]") {
    auto list = decode_module_versions(
        R"({"modules":[{"source":"x","versions":[{"version":"1.0.0"},{"version":"v1.2.3"},{"version":"bogus"}]}]})",
        "https://r/versions");
    REQUIRE(list.ok);
    CHECK(list.versions == std::vector<std::string>{"1.0.0", "1.2.3"});
    CHECK(list.ignored == std::vector<std::string>{"bogus"});
    CHECK_FALSE(decode_module_versions("{}", "u").ok);
    CHECK_FALSE(decode_module_versions(R"({"modules":[]})", "u").ok);
    CHECK_FALSE(decode_module_versions("not json", "u").ok);
}

TEST_CASE("the highest matching version; prereleases only when named exactly", "[module_registry]") {
    const std::vector<std::string> versions{"1.1.0", "1.2.0", "1.2.5", "1.3.0-beta.1", "1.9.0", "2.0.0", "2.1.0-rc.1"};
    auto c = choose_module_version("~> 1.2", versions);
    REQUIRE(c.chosen);
    CHECK(c.chosen->to_string() == "1.9.0");
    CHECK(c.newest->to_string() == "2.0.0");

    c = choose_module_version("~> 1.2.0", versions);
    CHECK(c.chosen->to_string() == "1.2.5");

    c = choose_module_version("", versions);
    CHECK(c.chosen->to_string() == "2.0.0");

    c = choose_module_version("1.3.0-beta.1", versions);
    REQUIRE(c.chosen);
    CHECK(c.chosen->to_string() == "1.3.0-beta.1");

    c = choose_module_version(">= 3.0", versions);
    CHECK_FALSE(c.chosen);
    REQUIRE(c.newest);
    CHECK(c.newest->to_string() == "2.0.0");  // the release candidate was not asked for

    CHECK_FALSE(choose_module_version(">>> 1", versions).constraint_error.empty());
}

TEST_CASE("100,000 versions are chosen from quickly", "[module_registry]") {
    std::string body = R"({"modules":[{"versions":[)";
    for (int i = 0; i < 100000; ++i) {
        if (i > 0) body += ',';
        body += R"({"version":"0.)" + std::to_string(i / 100) + "." + std::to_string(i % 100) + "\"}";
    }
    body += "]}]}";
    const auto start = std::chrono::steady_clock::now();
    auto list = decode_module_versions(body, "u");
    REQUIRE(list.versions.size() == 100000);
    auto c = choose_module_version("< 0.500.0", list.versions);
    const auto took = std::chrono::steady_clock::now() - start;
    REQUIRE(c.chosen);
    CHECK(c.chosen->to_string() == "0.499.99");
    CHECK(c.newest->to_string() == "0.999.99");
    CHECK(took < std::chrono::seconds(5));
}

TEST_CASE("download location: header, OpenTofu JSON, relative references", "[module_registry]") {
    const std::string url = "https://reg.example/v1/modules/ns/net/aws/1.0.0/download";
    auto l = decode_module_location(204, std::string("git::https://example.com/net.git?ref=v1.0.0"), "", url,
                                    "ns/net/aws", "1.0.0");
    REQUIRE(l.ok());
    CHECK(l.location == "git::https://example.com/net.git?ref=v1.0.0");

    l = decode_module_location(200, std::nullopt, R"({"location":"https://cdn.example/net.tar.gz"})", url, "m", "1");
    REQUIRE(l.ok());
    CHECK(l.location == "https://cdn.example/net.tar.gz");

    l = decode_module_location(204, std::string("/archives/net.zip"), "", url, "m", "1");
    CHECK(l.location == "https://reg.example/archives/net.zip");
    l = decode_module_location(204, std::string("./net.zip"), "", url, "m", "1");
    CHECK(l.location == "https://reg.example/v1/modules/ns/net/aws/1.0.0/net.zip");
    l = decode_module_location(204, std::string("../net.zip"), "", url, "m", "1");
    CHECK(l.location == "https://reg.example/v1/modules/ns/net/aws/net.zip");

    CHECK(decode_module_location(404, std::nullopt, "", url, "m", "1").not_found);
    CHECK_FALSE(decode_module_location(204, std::nullopt, "", url, "m", "1").ok());
    CHECK_FALSE(decode_module_location(500, std::string("x"), "", url, "m", "1").ok());
}
