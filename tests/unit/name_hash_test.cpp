// The hash and set of names the reference rules look names up in
// (rules/support/name_hash.hpp).
#include <catch2/catch.hpp>

#include <cstdio>
#include <set>
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
    const std::vector<std::string> names = {"subnet_aPRIVATE_ids_all", "subnet_aPUBLIC__ids_all",
                                            "subnet_aXXXXXXX_ids_all"};
    NameSet set;
    for (const auto& n : names) CHECK(set.insert(n));
    for (const auto& n : names) CHECK_FALSE(set.insert(n));
    for (const auto& n : names) CHECK(set.contains(n));
    CHECK_FALSE(set.contains("subnet_aZZZZZZZ_ids_all"));
    CHECK(set.size() == 3);
}

TEST_CASE("name hash: every byte counts, so names cannot be made to collide", "[lint][names]") {
    // Names of one length that differ only in their middle bytes (or in one
    // byte of a short name): a hash of their ends and length would give them
    // all one value, and a table probed through them would take time
    // quadratic in their number.
    std::set<std::size_t> hashes;
    std::vector<std::string> names;
    for (int i = 0; i < 2000; ++i) {
        char middle[16];
        std::snprintf(middle, sizeof middle, "%06d", i);
        names.push_back(std::string("abcdefgh_") + middle + "_abcdefgh");
    }
    for (const auto& n : names) hashes.insert(NameHash{}(n));
    CHECK(hashes.size() == names.size());
    hashes.clear();
    for (int c = 0; c < 256; ++c) hashes.insert(NameHash{}(std::string("abc") + static_cast<char>(c) + "def"));
    CHECK(hashes.size() == 256);
    // Equal names hash alike.
    CHECK(NameHash{}(std::string("module_name")) == NameHash{}(std::string_view("module_name")));
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
