// The per-thread memo of string parsers (tfsift/string_memo.hpp), and the
// parsers that use it answering the same after a remembered answer.
#include <catch2/catch.hpp>

#include <string>

#include "tfsift/providers/address.hpp"
#include "tfsift/providers/core_version.hpp"
#include "tfsift/providers/version.hpp"
#include "tfsift/string_memo.hpp"

using namespace tfsift;

TEST_CASE("StringMemo: one computation per key, a fresh start past the limit", "[memo]") {
    StringMemo<std::string, 2> memo;
    int calls = 0;
    auto upper = [&calls](std::string_view s) {
        ++calls;
        std::string out(s);
        for (char& c : out) c = static_cast<char>(c - 32);
        return out;
    };
    CHECK(memo.get("ab", upper) == "AB");
    CHECK(memo.get(std::string("ab"), upper) == "AB");
    CHECK(calls == 1);
    CHECK(memo.get("cd", upper) == "CD");
    CHECK(calls == 2);
    CHECK(memo.get("ef", upper) == "EF");  // over the limit: starts again
    CHECK(calls == 3);
    CHECK(memo.get("ab", upper) == "AB");
    CHECK(calls == 4);
    CHECK(memo.get("ef", upper) == "EF");
    CHECK(calls == 4);
}

TEST_CASE("remembered parses answer as the first did", "[memo]") {
    for (int round = 0; round < 2; ++round) {
        auto core = providers::parse_core_constraints(">= 1.2, < 2.0");
        REQUIRE(core);
        REQUIRE(core->size() == 2);
        CHECK((*core)[1].op == "<");
        CHECK_FALSE(providers::parse_core_constraints(">= one"));

        auto config = providers::parse_config_constraints("~> 5.0");
        CHECK(config.summary.empty());
        CHECK(config.constraints.has_value());
        auto bad = providers::parse_config_constraints("~> x");
        CHECK(bad.summary == "Invalid version constraint");

        // One source, two engines: each its own registry host.
        auto tf = providers::parse_provider_source("hashicorp/aws", Engine::terraform);
        auto tofu = providers::parse_provider_source("hashicorp/aws", Engine::opentofu);
        REQUIRE(tf.provider);
        REQUIRE(tofu.provider);
        CHECK(tf.provider->hostname == "registry.terraform.io");
        CHECK(tofu.provider->hostname == "registry.opentofu.org");
        CHECK(providers::parse_provider_source("a/b/c/d", Engine::terraform).error.has_value());
    }
}
