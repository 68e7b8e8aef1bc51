// Text reports escape what a terminal would act on.
#include <catch2/catch.hpp>

#include "tfsift/report/report.hpp"

using namespace tfsift;

TEST_CASE("control characters are escaped for terminals", "[file-read][report]") {
    using report::escape_control_characters;
    CHECK(escape_control_characters("plain text\twith tab\n") == "plain text\twith tab\n");
    CHECK(escape_control_characters("a\x1b[31mred") == "a\\x1B[31mred");
    CHECK(escape_control_characters("bell\x07 del\x7f cr\r") == "bell\\x07 del\\x7F cr\\x0D");
    CHECK(escape_control_characters("csi \xc2\x9b c1") == "csi \\u009B c1");
    CHECK(escape_control_characters("stray \x9b byte") == "stray \\x9B byte");
    CHECK(escape_control_characters("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80");
    CHECK(escape_control_characters("nbsp \xc2\xa0") == "nbsp \xc2\xa0");
    CHECK(escape_control_characters("cut \xe2\x9c") == "cut \\xE2\\x9C");
}
