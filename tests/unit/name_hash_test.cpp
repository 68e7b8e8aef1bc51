// The hash and set of names the reference rules look names up in
// (rules/support/name_hash.hpp).
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "../../rules/support/name_hash.hpp"

using namespace tfsift::lint;

TEST_CASE("name set: each name added once, and found", "[lint][names]") {
    NameSet set;
    CHECK_FALSE(set.contains("region"));
    CHECK(set.insert("region"));
    CHECK_FALSE(set.insert("region"));
    CHECK(set.contains("region"));
    CHECK_FALSE(set.contains("regions"));
    CHECK_FALSE(set.contains(""));
    CHECK(set.insert(""));
    CHECK(set.contains(""));
    CHECK(set.size() == 2);
}

TEST_CASE("name set: names that share their ends and length stay apart", "[lint][names]") {
    // The hash reads a long name's first and last eight bytes and its
    // length: these three hash alike, and must still be told apart.
    const std::vector<std::string> names = {"subnet_aPRIVATE_ids_all", "subnet_aPUBLIC__ids_all",
                                            "subnet_aXXXXXXX_ids_all"};
    CHECK(NameHash{}(names[0]) == NameHash{}(names[1]));
    NameSet set;
    for (const auto& n : names) CHECK(set.insert(n));
    for (const auto& n : names) CHECK_FALSE(set.insert(n));
    for (const auto& n : names) CHECK(set.contains(n));
    CHECK_FALSE(set.contains("subnet_aZZZZZZZ_ids_all"));
    CHECK(set.size() == 3);
}

TEST_CASE("name set: grows past any reserve and keeps every name", "[lint][names]") {
    std::vector<std::string> names;
    for (int i = 0; i < 5000; ++i) names.push_back("var_" + std::to_string(i));
    NameSet set;
    set.reserve(10);
    for (const auto& n : names) CHECK(set.insert(n));
    CHECK(set.size() == names.size());
    for (const auto& n : names) {
        CHECK(set.contains(n));
        CHECK_FALSE(set.insert(n));
    }
    CHECK_FALSE(set.contains("var_5000"));
    CHECK_FALSE(set.contains("var_"));
}
