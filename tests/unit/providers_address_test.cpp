// Provider source addresses against Terraform's own results
// (../shared/conformance/providers/addresses.jsonl) plus the OpenTofu rules
// of spec section 1.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "support/reference_data.hpp"

#include <fstream>
#include <string>

#include "tfsift/providers/address.hpp"

using namespace tfsift::providers;
using nlohmann::json;

namespace {

using tfsift::testing::read_jsonl;

// Where current Terraform differs from the v1.3.10 recording, the vector
// carries `current_differs`; tfsift follows current Terraform
// (docs/reference-differences.md).
bool current_accepts_underscore_namespace(const json& v) {
    return v.contains("current_differs") &&
           v["current_differs"].get<std::string>().find("'_' in namespaces") != std::string::npos;
}
bool current_reports_full_url(const json& v) {
    return v.contains("current_differs") &&
           v["current_differs"].get<std::string>().find("full URL") != std::string::npos;
}

}  // namespace

TEST_CASE("every recorded source address parses as Terraform parses it", "[providers][address]") {
    const auto vectors = read_jsonl(std::string(TFSIFT_SHARED_DIR) + "/conformance/providers/addresses.jsonl");
    REQUIRE(vectors.size() == 233);
    int checked = 0;
    for (const auto& v : vectors) {
        const auto input = v["input"].get<std::string>();
        INFO("input: " << input);
        const auto parsed = parse_provider_source(input, Engine::terraform);
        if (current_accepts_underscore_namespace(v)) {
            REQUIRE(parsed.provider.has_value());
            CHECK(parsed.provider->namespace_.find('_') != std::string::npos);
            CHECK(lock_label_error(input, Engine::terraform).has_value() == (parsed.provider->to_string() != input));
            ++checked;
            continue;
        }
        REQUIRE(parsed.provider.has_value() == v["ok"].get<bool>());
        if (parsed.provider) {
            const Provider& p = *parsed.provider;
            CHECK(p.hostname == v["hostname"].get<std::string>());
            CHECK(hostname_for_display(p.hostname) == v["hostname_display"].get<std::string>());
            CHECK(p.namespace_ == v["namespace"].get<std::string>());
            CHECK(p.type == v["type"].get<std::string>());
            CHECK(p.for_display(Engine::terraform) == v["for_display"].get<std::string>());
            CHECK(p.to_string() == v["string"].get<std::string>());
            CHECK(p.is_builtin(Engine::terraform) == v["is_builtin"].get<bool>());
            CHECK(p.is_legacy() == v["is_legacy"].get<bool>());
            CHECK(p.is_lockable(Engine::terraform) == v["lockable"].get<bool>());
            CHECK_FALSE(parsed.error.has_value());
        } else {
            REQUIRE(parsed.error.has_value());
            CHECK(parsed.error->summary == v["error"]["summary"].get<std::string>());
            auto detail = v["error"]["detail"].get<std::string>();
            if (current_reports_full_url(v)) {
                const std::string old_tail = "port portion contains non-digit characters\"";
                REQUIRE(detail.ends_with(old_tail));
                detail = detail.substr(0, detail.size() - old_tail.size()) +
                         "need just a hostname and optional port number, not a full URL\"";
            }
            CHECK(parsed.error->detail == detail);
        }
        const auto& label = v["lock_label"];
        const auto label_error = lock_label_error(input, Engine::terraform);
        CHECK(label_error.has_value() == !label["accepted"].get<bool>());
        if (label_error) {
            REQUIRE(label["diagnostics"].size() == 1);
            CHECK(label_error->summary == label["diagnostics"][0]["summary"].get<std::string>());
            CHECK(label_error->detail == label["diagnostics"][0]["detail"].get<std::string>());
        }
        ++checked;
    }
    CHECK(checked == 233);
}

TEST_CASE("OpenTofu addresses use its own registry and prefix rules", "[providers][address]") {
    auto aws = parse_provider_source("HashiCorp/AWS", Engine::opentofu);
    REQUIRE(aws.provider);
    CHECK(aws.provider->to_string() == "registry.opentofu.org/hashicorp/aws");
    CHECK(aws.provider->for_display(Engine::opentofu) == "hashicorp/aws");

    auto legacy = parse_provider_source("registry.terraform.io/-/null", Engine::opentofu);
    REQUIRE(legacy.error);
    CHECK(legacy.error->summary == "Invalid provider namespace");
    CHECK(legacy.error->detail ==
          "The legacy provider namespace \"-\" can be used only with hostname registry.opentofu.org.");

    auto tofu_prefixed = parse_provider_source("example.com/ns/opentofu-foo", Engine::opentofu);
    REQUIRE(tofu_prefixed.error);
    CHECK(tofu_prefixed.error->summary == "Invalid provider type");
    CHECK(parse_provider_source("example.com/ns/opentofu-foo", Engine::terraform).provider);

    auto suggestion = parse_provider_source("example.com/ns/opentofu-provider-foo", Engine::opentofu);
    REQUIRE(suggestion.error);
    CHECK(suggestion.error->detail.find("Did you mean \"example.com/ns/foo\"?") != std::string::npos);

    auto underscore = parse_provider_source("example.com/my_org/foo", Engine::opentofu);
    REQUIRE(underscore.error);
    CHECK(underscore.error->summary == "Invalid provider namespace");
    CHECK(parse_provider_source("example.com/ns/my_type", Engine::terraform).error);

    auto builtin = parse_provider_source("opentofu.org/builtin/terraform", Engine::opentofu);
    REQUIRE(builtin.provider);
    CHECK(builtin.provider->is_builtin(Engine::opentofu));
    CHECK_FALSE(builtin.provider->is_builtin(Engine::terraform));
    auto label = lock_label_error("opentofu.org/builtin/foo", Engine::opentofu);
    REQUIRE(label);
    CHECK(label->detail.find("bundled inside OpenTofu itself") != std::string::npos);
}

TEST_CASE("Terraform namespaces may join name pieces with underscores", "[providers][address]") {
    auto p = parse_provider_source("example.com/My_Org/foo", Engine::terraform);
    REQUIRE(p.provider);
    CHECK(p.provider->namespace_ == "my_org");
    CHECK(parse_provider_source("example.com/_org/foo", Engine::terraform).error);
    CHECK(parse_provider_source("example.com/org_/foo", Engine::terraform).error);
    CHECK(parse_provider_source("example.com/a__b/foo", Engine::terraform).error);
}

TEST_CASE("addresses order by punycode hostname, namespace, type", "[providers][address]") {
    auto make = [](std::string_view s) { return *parse_provider_source(s, Engine::terraform).provider; };
    std::vector<Provider> sorted = {make("zeta.example/ns/type"), make("ä.example/ns/type"),
                                    make("registry.terraform.io/hashicorp/aws"), make("example.com/ns/type")};
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted[0].to_string() == "example.com/ns/type");
    CHECK(sorted[1].to_string() == "registry.terraform.io/hashicorp/aws");
    CHECK(sorted[2].to_string() == "ä.example/ns/type");
    CHECK(sorted[3].to_string() == "zeta.example/ns/type");
}

TEST_CASE("implied providers come from local names", "[providers][address]") {
    CHECK(implied_local_name("aws_instance") == "aws");
    CHECK(implied_local_name("google-beta_x") == "google-beta");
    CHECK(implied_provider("aws", Engine::terraform).to_string() == "registry.terraform.io/hashicorp/aws");
    CHECK(implied_provider("aws", Engine::opentofu).to_string() == "registry.opentofu.org/hashicorp/aws");
    CHECK(implied_provider("terraform", Engine::opentofu).to_string() == "terraform.io/builtin/terraform");
    CHECK(parse_provider_source("terraform", Engine::terraform).provider->to_string() ==
          "registry.terraform.io/hashicorp/terraform");
}

TEST_CASE("hostnames normalize ports and IDN labels", "[providers][address]") {
    CHECK(normalize_hostname("localhost:08080").value == "localhost:8080");
    CHECK(normalize_hostname("localhost:443").value == "localhost");
    CHECK(normalize_hostname("MÜNCHEN.de").value == "xn--mnchen-3ya.de");
    CHECK(normalize_hostname("例え.テスト").value == "xn--r8jz45g.xn--zckzah");
    CHECK(hostname_for_display("xn--r8jz45g.xn--zckzah") == "例え.テスト");
    CHECK(normalize_hostname("").error == "empty string is not a valid hostname");
    CHECK(normalize_hostname("https://x").error == "need just a hostname and optional port number, not a full URL");
    CHECK(normalize_provider_part("ＡＷＳ").value == "aws");
    CHECK(normalize_provider_part("a--b").error == "cannot use multiple consecutive dashes");
    CHECK(normalize_provider_part("a.b").error == "dots are not allowed");
}
