#include <catch2/catch.hpp>

#include "tfsift/hcl/block_text.hpp"

using tfsift::hcl::top_level_blocks_text;

TEST_CASE("the top-level blocks of one type are cut out of a file", "[hcl][block-text]") {
    const std::string text =
        "# a comment\n"
        "locals {\n  a = \"${path.module}/x\"\n  b = [\n    1,\n  ]\n}\n"
        "module \"vpc\" {\n  source = \"./vpc\"\n  tags   = { a = \"}\" }\n}\n"
        "resource \"x\" \"y\" {\n  module = 1\n  text = <<EOT\nmodule \"no\" {\n}\nEOT\n}\n"
        "module = 3\n"
        "module /* c */ nested { source = \"../m\" }  # trailing\n"
        "output \"o\" { value = \"%{if true}x%{endif}\" }\n";
    auto blocks = top_level_blocks_text(text, "module");
    REQUIRE(blocks);
    CHECK(*blocks ==
          "module \"vpc\" {\n  source = \"./vpc\"\n  tags   = { a = \"}\" }\n}\n"
          "module /* c */ nested { source = \"../m\" }\n");
    auto none = top_level_blocks_text("variable \"a\" {}\n", "module");
    REQUIRE(none);
    CHECK(none->empty());
}

TEST_CASE("a file needing error recovery is not cut", "[hcl][block-text]") {
    CHECK_FALSE(top_level_blocks_text("module \"a\" {\n  source = \"./a\"\n", "module"));  // unclosed
    CHECK_FALSE(top_level_blocks_text("module \"a\" {\n} x\n", "module"));                 // after the brace
    CHECK_FALSE(top_level_blocks_text("locals {\n  a = (1]\n}\n", "module"));              // mismatched
    CHECK_FALSE(top_level_blocks_text("\"a\" = 1\nmodule \"b\" {\n}\n", "module"));        // not a name
    CHECK_FALSE(top_level_blocks_text("module \"a\"\n{\n}\n", "module"));                  // header broken
    CHECK_FALSE(top_level_blocks_text("a = 1 ; b = 2\nmodule \"b\" {\n}\n", "module"));    // rejected token
    CHECK_FALSE(top_level_blocks_text("a = \"x\nmodule \"b\" {\n}\n", "module"));          // newline in a quote
}

TEST_CASE("a block's attributes can be left out but for some", "[hcl][block-text]") {
    const std::string text =
        "module \"a\" {\n"
        "  doc = <<EOT\nsource = \"./no\"\nEOT\n"
        "  source  = \"./a\" # where\n"
        "  inputs  = {\n    source = \"./no\"\n  }\n"
        "  nested \"x\" {\n    version = 1\n  }\n"
        "  version = (\n    \"1.0\"\n  )\n"
        "}\n"
        "module b { source = \"../b\" }\n";
    auto blocks = top_level_blocks_text(text, "module", {"source", "version"});
    REQUIRE(blocks);
    CHECK(*blocks ==
          "module \"a\" {\nsource  = \"./a\" \nversion = (\n    \"1.0\"\n  )\n}\n"
          "module b {\nsource = \"../b\" \n}\n");
    CHECK_FALSE(top_level_blocks_text("module \"a\" {\n  source\n}\n", "module", {"source"}));  // a name alone
}
