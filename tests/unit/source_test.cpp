#include <catch2/catch.hpp>

#include "tfsift/source.hpp"

using tfsift::SourceFile;

TEST_CASE("columns count grapheme clusters", "[source]") {
    SourceFile f("t.tf", "a = \"e\xCC\x81x\"\n\xF0\x9F\x87\xA9\xF0\x9F\x87\xAA = 1\r\nb");
    // line 1: a␠=␠"e+combining acute x"  -> the 'x' is at column 7
    CHECK(f.line({8}) == 1);
    CHECK(f.column({8}) == 7);
    // line 2: a flag of two regional indicators is one column
    tfsift::Pos p{19};
    CHECK(f.line(p) == 2);
    CHECK(f.column(p) == 2);
    CHECK(f.line_text(2) == "\xF0\x9F\x87\xA9\xF0\x9F\x87\xAA = 1");
    // a position right after a line break is on the next line
    CHECK(f.line({10}) == 1);
    CHECK(f.line({11}) == 2);
    CHECK(f.line({static_cast<std::uint32_t>(f.size() - 1)}) == 3);
    CHECK(f.resolve({19}).line == 2);
}

TEST_CASE("a byte order mark does not count as a column", "[source]") {
    SourceFile f("t.tf", "\xEF\xBB\xBFx = 1\n");
    CHECK(f.column({3}) == 1);
    CHECK(f.column({4}) == 2);
}
