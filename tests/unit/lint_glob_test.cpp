#include <catch2/catch.hpp>

#include "tfsift/lint/glob.hpp"

using tfsift::lint::glob_match;
using tfsift::lint::PathGlob;

TEST_CASE("glob segments", "[lint][glob]") {
    CHECK(glob_match("*.tf", "main.tf"));
    CHECK_FALSE(glob_match("*.tf", "a/main.tf"));
    CHECK(glob_match("a/*/c", "a/b/c"));
    CHECK(glob_match("a/**/c", "a/c"));
    CHECK(glob_match("a/**/c", "a/x/y/c"));
    CHECK(glob_match("**", "x/y"));
    CHECK(glob_match("ma?n.tf", "main.tf"));
    CHECK(glob_match("[a-c]x", "bx"));
    CHECK_FALSE(glob_match("[!a-c]x", "bx"));
    CHECK(glob_match("[x", "[x"));  // an unclosed class is literal
    CHECK_FALSE(glob_match("*.tf", "main.tofu"));
}

TEST_CASE("path globs: basenames and directories", "[lint][glob]") {
    CHECK(PathGlob("*.tofu").matches("modules/a/main.tofu"));  // no '/': any depth
    CHECK(PathGlob("vendor").matches("vendor/x/main.tf"));     // a directory covers its contents
    CHECK(PathGlob("modules/legacy/").matches("modules/legacy/main.tf"));
    CHECK_FALSE(PathGlob("modules/legacy").matches("other/modules/legacy/main.tf"));
    CHECK(PathGlob("./examples/**").matches("examples/a/b.tf"));
    CHECK_FALSE(PathGlob("examples/*.tf").matches("examples/a/b.tf"));
}
