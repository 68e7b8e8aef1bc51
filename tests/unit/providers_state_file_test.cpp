// Reading version 4 state files for the provider configurations their
// resources belong to.
#include <catch2/catch.hpp>

#include <memory>

#include "tfsift/providers/state_file.hpp"

using namespace tfsift;
using namespace tfsift::providers;

namespace {

StateFile parse(const std::string& text) {
    return parse_state_file(std::make_shared<const SourceFile>("terraform.tfstate", text), Engine::terraform);
}

}  // namespace

TEST_CASE("provider configuration addresses of a state", "[providers][state]") {
    auto root = parse_state_provider_config("provider[\"registry.terraform.io/hashicorp/aws\"]", Engine::terraform);
    REQUIRE(root);
    CHECK(root->module_path.empty());
    CHECK(root->provider.to_string() == "registry.terraform.io/hashicorp/aws");
    CHECK(!root->alias);

    auto nested = parse_state_provider_config("module.a[\"x\"].module.b[0].provider[\"example.com/acme/thing\"].east",
                                              Engine::terraform);
    REQUIRE(nested);
    CHECK(nested->module_path == std::vector<std::string>{"a", "b"});
    CHECK(nested->provider.to_string() == "example.com/acme/thing");
    CHECK(nested->alias == std::optional<std::string>("east"));
    CHECK(nested->to_string() == "module.a.module.b.provider[\"example.com/acme/thing\"].east");

    CHECK(!parse_state_provider_config("aws.east", Engine::terraform));
    CHECK(!parse_state_provider_config("provider.aws", Engine::terraform));  // version 3 form
    CHECK(!parse_state_provider_config("provider[\"hashicorp/aws\"].", Engine::terraform));
    CHECK(!parse_state_provider_config("module..provider[\"hashicorp/aws\"]", Engine::terraform));
    CHECK(!parse_state_provider_config("provider[\"not a/valid/address/at all\"]", Engine::terraform));
}

TEST_CASE("a state file's resources", "[providers][state]") {
    auto state = parse(R"({
  "version": 4,
  "resources": [
    {"module": "module.net[\"eu\"]", "mode": "managed", "type": "aws_vpc", "name": "main",
     "provider": "module.net.provider[\"registry.terraform.io/hashicorp/aws\"]"},
    {"mode": "data", "type": "aws_ami", "name": "ubuntu",
     "provider": "provider[\"registry.terraform.io/hashicorp/aws\"].east"}
  ]
})");
    CHECK(state.diagnostics.empty());
    REQUIRE(state.resources.size() == 2);
    CHECK(state.resources[0].address() == "module.net[\"eu\"].aws_vpc.main");
    CHECK(state.resources[0].module_path == std::vector<std::string>{"net"});
    CHECK(state.resources[0].managed);
    CHECK(state.source->line(state.resources[0].provider_range.start) == 5);
    CHECK(state.resources[1].address() == "data.aws_ami.ubuntu");
    CHECK(!state.resources[1].managed);
}

TEST_CASE("bad state files give a diagnostic with a position", "[providers][state]") {
    SECTION("not JSON") {
        auto state = parse("{\n  \"version\": 4,\n  oops\n}");
        REQUIRE(state.diagnostics.size() == 1);
        CHECK(state.diagnostics[0].summary.rfind("Invalid state file", 0) == 0);
        REQUIRE(state.diagnostics[0].subject);
        CHECK(state.source->line(state.diagnostics[0].subject->start) == 3);
    }
    SECTION("an older format") {
        auto state = parse("{\"version\": 3, \"modules\": []}");
        REQUIRE(state.diagnostics.size() == 1);
        CHECK(state.diagnostics[0].summary == "Unsupported state file format");
        CHECK(state.diagnostics[0].detail.find("version 3") != std::string::npos);
    }
    SECTION("no version") {
        auto state = parse("{\"resources\": []}");
        REQUIRE(state.diagnostics.size() == 1);
        CHECK(state.diagnostics[0].detail.find("\"version\"") != std::string::npos);
    }
    SECTION("a malformed resource is skipped, the rest kept") {
        auto state = parse(R"({"version": 4, "resources": [
  {"mode": "managed", "type": "a_b", "name": "x", "provider": "aws"},
  {"mode": "managed", "type": "a_b", "name": "y", "provider": "provider[\"hashicorp/a\"]"},
  {"mode": "managed", "type": "a_b"},
  7
]})");
        CHECK(state.diagnostics.size() == 3);
        REQUIRE(state.resources.size() == 1);
        CHECK(state.resources[0].name == "y");
        CHECK(state.resources[0].provider->provider.to_string() == "registry.terraform.io/hashicorp/a");
    }
    SECTION("a file that cannot be read") {
        auto state = read_state_file("no-such-directory/terraform.tfstate", "terraform.tfstate", Engine::terraform);
        REQUIRE(state.diagnostics.size() == 1);
        CHECK(state.diagnostics[0].summary == "Cannot read the state file");
    }
}
