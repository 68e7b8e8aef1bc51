// Provider versions and constraints against Terraform's own results
// (../shared/conformance/providers/constraints.jsonl), using the values of
// current Terraform where they differ from v1.3.10.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "support/reference_data.hpp"

#include <fstream>
#include <string>

#include "tfsift/providers/lock_checks.hpp"
#include "tfsift/providers/version.hpp"

using namespace tfsift::providers;
using nlohmann::json;

namespace {

using tfsift::testing::read_jsonl;

Version must_parse(const std::string& text) {
    auto parsed = parse_version(text);
    INFO("version: " << text << " error: " << parsed.error);
    REQUIRE(parsed.version);
    return *parsed.version;
}

}  // namespace

TEST_CASE("every recorded constraint string parses, renders and matches as Terraform's", "[providers][version]") {
    const auto vectors = read_jsonl(std::string(TFSIFT_SHARED_DIR) + "/conformance/providers/constraints.jsonl");
    REQUIRE(vectors.size() == 229);
    for (const auto& v : vectors) {
        const auto input = v["input"].get<std::string>();
        INFO("input: " << json(input).dump());

        // getproviders.ParseVersionConstraints alone
        const auto parsed = parse_constraints(input);
        const auto& expect_parse = v["parse"];
        if (expect_parse.contains("panic")) {
            CHECK_FALSE(parsed.constraints);  // Terraform panics; tfsift reports an error
            CHECK_FALSE(parsed.error.empty());
        } else {
            REQUIRE(parsed.constraints.has_value() == expect_parse["ok"].get<bool>());
            if (parsed.constraints) {
                CHECK(render_constraints(*parsed.constraints) == expect_parse["render"].get<std::string>());
            } else {
                CHECK(parsed.error == expect_parse["error"].get<std::string>());
            }
        }

        // as a required_providers version in configuration
        const auto config = parse_config_constraints(input);
        const auto& expect_config = v["config"];
        REQUIRE(config.constraints.has_value() == expect_config["ok"].get<bool>());
        if (config.constraints) {
            CHECK(render_constraints(*config.constraints) == expect_config["render"].get<std::string>());
        } else {
            REQUIRE(expect_config["diagnostics"].size() == 1);
            CHECK(config.summary == expect_config["diagnostics"][0]["summary"].get<std::string>());
            CHECK(config.detail == expect_config["diagnostics"][0]["detail"].get<std::string>());
        }

        // as a lock file entry's constraints
        const auto problems = lock_constraints_problems(input, "registry.terraform.io/hashicorp/example");
        const auto& expect_lock = v["lockfile"];
        if (expect_lock.contains("panic")) {
            CHECK_FALSE(problems.empty());
        } else {
            CHECK(problems.empty() == expect_lock["accepted"].get<bool>());
            REQUIRE(problems.size() == expect_lock["diagnostics"].size());
            for (std::size_t i = 0; i < problems.size(); ++i) {
                CHECK(problems[i].summary == expect_lock["diagnostics"][i]["summary"].get<std::string>());
                CHECK(problems[i].detail == expect_lock["diagnostics"][i]["detail"].get<std::string>());
            }
        }

        // membership of the probe versions, as current Terraform decides it
        if (parsed.constraints) {
            for (const auto& probe : v["accepted_current"]) {
                INFO("probe accepted: " << probe.get<std::string>());
                CHECK(constraints_allow(*parsed.constraints, must_parse(probe.get<std::string>())));
            }
            for (const auto& probe : v["rejected_current"]) {
                INFO("probe rejected: " << probe.get<std::string>());
                CHECK_FALSE(constraints_allow(*parsed.constraints, must_parse(probe.get<std::string>())));
            }
        } else {
            CHECK(v["accepted_current"].empty());
        }
    }
}

TEST_CASE("versions parse to canonical form or explain why not", "[providers][version]") {
    CHECK(must_parse("1").to_string() == "1.0.0");
    CHECK(must_parse("1.02").to_string() == "1.2.0");
    CHECK(must_parse("1.0.0+meta").to_string() == "1.0.0+meta");
    CHECK(parse_version("").error == "empty specification");
    CHECK(parse_version("v1.0.0").error == "a \"v\" prefix should not be used");
    CHECK(parse_version(" 1.0.0").error == "extraneous spaces at start of specification");
    CHECK(parse_version("1.0.0 ").error == "extraneous spaces at end of specification");
    CHECK(parse_version("1.2.3.4").error == "too many numbered portions; only three are allowed (major, minor, patch)");
    CHECK(parse_version("1.*").error == "can't use wildcard for minor number; an exact version is required");
    CHECK(parse_version(">= 1.0").error == "can't use constraint operator \">=\"; an exact version is required");
    CHECK(parse_version("1.0.0-beta_1").error == "invalid characters \"_1\"");
    CHECK_FALSE(parse_version("18446744073709551616.0.0").version);
    CHECK(must_parse("18446744073709551615.0.0").major == 18446744073709551615ULL);
}

TEST_CASE("prerelease precedence follows go-versions", "[providers][version]") {
    const std::vector<std::string> ordered = {"1.0.0-alpha",   "1.0.0-beta", "1.0.0-alpha.1", "1.0.0-beta.2",
                                              "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"};
    for (std::size_t i = 0; i + 1 < ordered.size(); ++i) {
        INFO(ordered[i] << " < " << ordered[i + 1]);
        CHECK(compare_precedence(must_parse(ordered[i]), must_parse(ordered[i + 1])) < 0);
    }
    CHECK(compare_precedence(must_parse("1.0.0+a"), must_parse("1.0.0+b")) == 0);
}

TEST_CASE("lock file versions must be canonical", "[providers][version]") {
    const std::string addr = "registry.terraform.io/hashicorp/aws";
    CHECK(lock_version_problems("1.0.0", addr).empty());
    CHECK(lock_version_problems("0.1.0-beta.2", addr).empty());
    CHECK(lock_version_problems("1.0.0+meta", addr).empty());
    auto one = lock_version_problems("1.0", addr);
    REQUIRE(one.size() == 1);
    CHECK(one[0].detail ==
          "The selected version number for provider " + addr + " must be written in normalized form: \"1.0.0\".");
    CHECK(lock_version_problems("1", addr).size() == 1);
    CHECK(lock_version_problems("1.02", addr).size() == 1);
    CHECK(lock_version_problems("v1.0.0", addr).size() == 2);
    CHECK(lock_version_problems("", addr).size() == 2);
    CHECK(lock_version_problems("99999999999999999999.0.0", addr).size() == 2);
}
