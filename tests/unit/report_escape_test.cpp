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

TEST_CASE("bidi and zero-width characters are escaped; one-line fields escape line feeds", "[report]") {
    using report::escape_control_characters;
    using report::escape_line;
    // U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+200B ZERO WIDTH SPACE
    CHECK(escape_control_characters("a\xe2\x80\xae"
                                    "b") == "a\\u202Eb");
    CHECK(escape_control_characters("\xe2\x81\xa6x\xe2\x81\xa9") == "\\u2066x\\u2069");
    CHECK(escape_control_characters("zero\xe2\x80\x8bwidth\xef\xbb\xbf") == "zero\\u200Bwidth\\uFEFF");
    CHECK(escape_control_characters("ls\xe2\x80\xa8"
                                    "end") == "ls\\u2028end");
    CHECK(escape_control_characters("alm\xd8\x9c") == "alm\\u061C");
    // Neighbours that are ordinary text stay as they are.
    CHECK(escape_control_characters("dash\xe2\x80\x94quote\xe2\x80\x9c") == "dash\xe2\x80\x94quote\xe2\x80\x9c");
    CHECK(escape_control_characters("two\nlines\t") == "two\nlines\t");
    CHECK(escape_line("x\nmain.tf:1:1: error[forged]\t.tf") == "x\\nmain.tf:1:1: error[forged]\\t.tf");
    using namespace std::string_literals;
    CHECK(escape_line("cr\r nul\0 esc\x1b"s) == "cr\\x0D nul\\x00 esc\\x1B");
    CHECK(escape_line("\xe2\x80\xae") == "\\u202E");
}

TEST_CASE("escaping finds what it escapes wherever it falls in a long text", "[report]") {
    using report::escape_control_characters;
    using report::escape_line;
    // Long plain runs are looked at sixteen bytes at a time: put what needs
    // escaping at every offset of a 40-byte text, and a line feed and a tab
    // (kept, or escaped on one line) likewise.
    const std::string plain(40, 'a');
    for (std::size_t at = 0; at < plain.size(); ++at) {
        INFO(at);
        std::string text = plain;
        text[at] = '\x1b';
        CHECK(escape_control_characters(text) == plain.substr(0, at) + "\\x1B" + plain.substr(at + 1));
        text[at] = '\x7f';
        CHECK(escape_line(text) == plain.substr(0, at) + "\\x7F" + plain.substr(at + 1));
        text[at] = '\n';
        CHECK(escape_control_characters(text) == text);
        CHECK(escape_line(text) == plain.substr(0, at) + "\\n" + plain.substr(at + 1));
        text[at] = '\t';
        CHECK(escape_control_characters(text) == text);
        CHECK(escape_line(text) == plain.substr(0, at) + "\\t" + plain.substr(at + 1));
    }
    // UTF-8 after a long run is copied; a stray byte there is escaped.
    CHECK(escape_control_characters(plain + "caf\xc3\xa9" + plain) == plain + "caf\xc3\xa9" + plain);
    CHECK(escape_control_characters(plain + "\x9b" + plain) == plain + "\\x9B" + plain);
    CHECK(escape_control_characters(plain + "\xe2\x80\xae" + plain) == plain + "\\u202E" + plain);
    CHECK(escape_control_characters(plain) == plain);
}
