// Version selection against Terraform's installer
// (../shared/conformance/providers/selection.jsonl), current-Terraform values.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "tfsift/providers/selection.hpp"

using namespace tfsift::providers;
using nlohmann::json;

TEST_CASE("every recorded selection case picks the version Terraform picks", "[providers][selection]") {
    std::ifstream in(std::string(TFSIFT_SHARED_DIR) + "/conformance/providers/selection.jsonl");
    REQUIRE(in.good());
    std::string line;
    int cases = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const json v = json::parse(line);
        ++cases;
        INFO("case: " << v["id"].get<std::string>());
        SelectionRequest request;
        request.provider = *parse_provider_source("hashicorp/example", Engine::terraform).provider;
        bool config_error = false;
        for (const auto& module : v["modules"]) {
            for (const auto& text : module) {
                auto parsed = parse_config_constraints(text.get<std::string>());
                if (!parsed.constraints) {
                    config_error = true;
                    CHECK(parsed.summary == v["config_diagnostics"][0]["summary"].get<std::string>());
                    continue;
                }
                request.constraints.insert(request.constraints.end(), parsed.constraints->begin(),
                                           parsed.constraints->end());
            }
        }
        CHECK(config_error == !v["config_diagnostics"].empty());
        if (config_error) continue;
        CHECK(render_constraints(request.constraints) == v["requirement"].get<std::string>());
        for (const auto& a : v["available"]) request.available.push_back(*parse_version(a.get<std::string>()).version);
        if (!v["locked"].is_null()) request.locked = parse_version(v["locked"].get<std::string>()).version;
        request.upgrade = v["upgrade"].get<bool>();

        const auto& expected = v["current"];
        const SelectionResult result = select_provider_version(request);
        if (expected["selected"].is_null()) {
            CHECK_FALSE(result.selected);
            CHECK(result.error == expected["error"].get<std::string>());
        } else {
            REQUIRE(result.selected);
            CHECK(result.selected->to_string() == expected["selected"].get<std::string>());
            CHECK(render_constraints(request.constraints) == expected["lock_constraints"].get<std::string>());
        }
    }
    CHECK(cases == 112);
}

TEST_CASE("OpenTofu's lock conflict message names tofu", "[providers][selection]") {
    SelectionRequest request;
    request.provider = *parse_provider_source("hashicorp/aws", Engine::opentofu).provider;
    request.constraints = *parse_constraints("~> 5.0").constraints;
    request.locked = parse_version("4.0.0").version;
    request.available = {*parse_version("5.1.0").version};
    request.engine = Engine::opentofu;
    const auto result = select_provider_version(request);
    CHECK(result.error ==
          "locked provider registry.opentofu.org/hashicorp/aws 4.0.0 does not match configured version constraint "
          "~> 5.0; must use tofu init -upgrade to allow selection of new versions");
}
