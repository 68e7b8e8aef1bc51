#include <catch2/catch.hpp>

#include <chrono>
#include <string>

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

TEST_CASE("many ** match without backtracking blow-up", "[lint][glob]") {
    std::string pattern;
    for (int i = 0; i < 24; ++i) pattern += "**/";
    std::string path;
    for (int i = 0; i < 30; ++i) path += "d" + std::to_string(i) + "/";
    auto start = std::chrono::steady_clock::now();
    // The last segment never matches: a backtracking matcher tries every way
    // to split 30 segments among 24 `**` (12 of them ran past a minute).
    CHECK_FALSE(PathGlob(pattern + "nothing.tf").matches(path + "main.tf"));
    CHECK_FALSE(glob_match(pattern + "nothing.tf", path + "main.tf"));
    CHECK(PathGlob(pattern + "main.tf").matches(path + "main.tf"));
    CHECK(glob_match(pattern + "d29/main.tf", path + "main.tf"));
    CHECK_FALSE(glob_match(pattern + "d28/main.tf", path + "main.tf"));
    CHECK(glob_match("**/**/a/**/b/**", "a/b"));
    CHECK_FALSE(glob_match("**/a/**/a/**", "x/a/y"));
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 5);
}

TEST_CASE("anchored path globs match a directory prefix", "[lint][glob]") {
    CHECK(PathGlob("a/**/c").matches("a/b/c/d/main.tf"));
    CHECK(PathGlob("a/*/c").matches("a/b/c/main.tf"));
    CHECK_FALSE(PathGlob("a/*/c").matches("a/b/x/c/main.tf"));
    CHECK_FALSE(PathGlob("a/b").matches("a"));
}
