#include <catch2/catch.hpp>

#include "tfsift/source.hpp"

using tfsift::SourceFile;

TEST_CASE("columns count grapheme clusters", "[source]") {
    SourceFile f("t.tf", "a = \"e\xCC\x81x\"\n\xF0\x9F\x87\xA9\xF0\x9F\x87\xAA = 1\r\nb");
    // line 1: a␠=␠"e+combining acute x"  -> the 'x' is at column 7
    CHECK(f.column({8, 1}) == 7);
    // line 2: a flag of two regional indicators is one column
    auto p = f.pos_at(19);
    CHECK(p.line == 2);
    CHECK(f.column(p) == 2);
    CHECK(f.line_text(2) == "\xF0\x9F\x87\xA9\xF0\x9F\x87\xAA = 1");
    CHECK(f.pos_at(static_cast<std::uint32_t>(f.size() - 1)).line == 3);
}

TEST_CASE("a byte order mark does not count as a column", "[source]") {
    SourceFile f("t.tf", "\xEF\xBB\xBFx = 1\n");
    CHECK(f.column({3, 1}) == 1);
    CHECK(f.column({4, 1}) == 2);
}
