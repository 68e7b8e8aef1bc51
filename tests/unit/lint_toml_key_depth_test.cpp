// Keys too deep for toml++ are refused before it parses them.
#include <catch2/catch.hpp>

#include <string>

#include "tfsift/lint/settings.hpp"
#include "tfsift/lint/toml_key_depth.hpp"

using namespace tfsift;

namespace {

std::string dotted(std::size_t parts, const std::string& part = "a") {
    std::string out = part;
    for (std::size_t i = 1; i < parts; ++i) out += "." + part;
    return out;
}

}  // namespace

TEST_CASE("the longest key of a TOML text is counted without parsing it", "[settings][toml]") {
    using lint::deepest_toml_key;
    CHECK(deepest_toml_key("preset = \"strict\"\n").parts == 1);
    CHECK(deepest_toml_key("[rules]\nx.y.z = 1\n").parts == 3);
    auto header = deepest_toml_key("# c\n\n[a.b.c.d]\n");
    CHECK(header.parts == 4);
    CHECK(header.line == 3);
    // Dots in strings and comments are no parts; quoted parts are.
    CHECK(deepest_toml_key("x = \"a.b.c.d.e\" # f.g.h.i.j.k\n").parts == 1);
    CHECK(deepest_toml_key("x = '''\n[a.b.c.d.e]\n'''\n").parts == 1);
    CHECK(deepest_toml_key("x = \"\"\"\n\\\"\"\".a.b.c.d\n\"\"\"\n").parts == 1);
    CHECK(deepest_toml_key("\"a.b\".'c.d'.e = 1\n").parts == 3);
    CHECK(deepest_toml_key("t = { a.b.c = 1, d = 2 }\n").parts == 3);
    // Past the bound it stops, at the part that passed it.
    auto deep = deepest_toml_key("ok = 1\n" + dotted(100000) + " = 1\n");
    CHECK(deep.parts == lint::max_toml_key_parts + 1);
    CHECK(deep.line == 2);
    CHECK(deep.column == 2 * lint::max_toml_key_parts);
}

TEST_CASE("a settings file with a key of 70,000 parts is an error with its line", "[settings][toml]") {
    for (const std::string& text :
         {"[" + dotted(70000) + "]\n", "engine = \"terraform\"\n" + dotted(70000) + " = 1\n",
          "[rules]\nx = { " + dotted(70000, "\"q\"") + " = 1 }\n", "[[" + dotted(200000, "'k'") + "]]\n"}) {
        auto r = lint::parse_settings("/nowhere/.tfsift.toml", text);
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].line >= 1);
        CHECK(r.errors[0].line <= 2);
        CHECK(r.errors[0].message.find("more than 128 parts") != std::string::npos);
    }
    // 128 parts are read (and rejected as an unknown setting, by name).
    auto fine = lint::parse_settings("/nowhere/.tfsift.toml", dotted(128) + " = 1\n");
    REQUIRE(fine.errors.size() == 1);
    CHECK(fine.errors[0].message.find("unknown setting `a`") == 0);
}
