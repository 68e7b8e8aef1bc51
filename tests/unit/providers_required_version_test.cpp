// `required_version` (hashicorp/go-version semantics) against Terraform's
// CheckCoreVersionRequirements (../shared/conformance/providers/required_version.jsonl).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <string>

#include "tfsift/providers/core_version.hpp"

using namespace tfsift::providers;
using nlohmann::json;

TEST_CASE("every recorded required_version constraint accepts the core versions Terraform accepts",
          "[providers][required_version]") {
    std::ifstream in(std::string(TFSIFT_SHARED_DIR) + "/conformance/providers/required_version.jsonl");
    REQUIRE(in.good());
    std::string line;
    int cases = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const json v = json::parse(line);
        ++cases;
        const auto text = v["constraint"].get<std::string>();
        INFO("constraint: " << json(text).dump());
        const auto constraints = parse_core_constraints(text);
        REQUIRE(constraints.has_value() == v["load_diagnostics"].empty());
        if (!constraints) {
            CHECK(v["load_diagnostics"][0]["summary"] == "Invalid version constraint");
            continue;
        }
        const bool has_prerelease = std::any_of(constraints->begin(), constraints->end(),
                                                [](const CoreConstraint& c) { return !c.version.prerelease.empty(); });
        for (const auto& result : v["results"]) {
            INFO("core version: " << result["version"].get<std::string>());
            const auto core = parse_core_version(result["version"].get<std::string>());
            REQUIRE(core);
            const bool satisfied = !has_prerelease && core_constraints_allow(*constraints, *core);
            CHECK(satisfied == result["satisfied"].get<bool>());
            if (!satisfied) {
                REQUIRE_FALSE(result["diagnostics"].empty());
                CHECK(result["diagnostics"][0]["summary"].get<std::string>() ==
                      (has_prerelease ? "Invalid required_version constraint" : "Unsupported Terraform Core version"));
            }
        }
    }
    CHECK(cases == 68);
}
