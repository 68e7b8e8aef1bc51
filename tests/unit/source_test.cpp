#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

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

namespace {

// Columns the way they were counted before the index: from the start of the
// line, every time.
std::uint32_t column_by_scan(const SourceFile& f, tfsift::Pos pos) {
    std::string_view text = f.text();
    std::uint32_t begin = pos.byte;
    while (begin > 0 && text[begin - 1] != '\n') --begin;
    if (begin == 0 && text.starts_with("\xEF\xBB\xBF")) begin = 3;
    if (pos.byte <= begin) return 1;
    return 1 + tfsift::count_graphemes(text.substr(begin, pos.byte - begin));
}

std::uint32_t utf16_by_scan(const SourceFile& f, tfsift::Pos pos) {
    std::string_view text = f.text();
    std::uint32_t begin = pos.byte;
    while (begin > 0 && text[begin - 1] != '\n') --begin;
    std::uint32_t units = 1;
    for (std::uint32_t i = begin; i < pos.byte; ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80) units += c >= 0xF0 ? 2 : 1;
    }
    return units;
}

}  // namespace

TEST_CASE("columns of long lines come from the index and equal a count from the line start", "[source][columns]") {
    // Pieces whose grapheme breaks depend on what came before: combining
    // marks, regional-indicator pairs, emoji ZWJ sequences, CR LF, invalid
    // and truncated UTF-8, NUL.
    const std::vector<std::string> pieces = {"a",
                                             " ",
                                             "xyz",
                                             "e\xCC\x81",
                                             "\xF0\x9F\x87\xA9",
                                             "\xF0\x9F\x87\xAA",
                                             "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB",
                                             "\xE2\x80\x8D",
                                             "\r",
                                             "\r\n",
                                             "\xFF",
                                             "\xE2\x82",
                                             std::string(1, '\0'),
                                             "\xC3\xA9",
                                             "\t",
                                             "\n"};
    std::uint32_t seed = 12345;
    auto next = [&] {
        seed = seed * 1103515245U + 12345U;
        return (seed >> 16) & 0x7FFF;
    };
    for (int round = 0; round < 4; ++round) {
        std::string text = round == 3 ? "\xEF\xBB\xBF" : "";
        // Long lines: newlines are rare, so lines run to thousands of bytes.
        while (text.size() < 20000) {
            std::size_t k = next() % pieces.size();
            if (pieces[k] == "\n" && next() % 50 != 0) continue;
            text += pieces[k];
        }
        SourceFile f("t.tf", text);
        for (std::uint32_t b = 0; b <= text.size(); ++b) {
            tfsift::Pos pos{b};
            if (f.column(pos) != column_by_scan(f, pos)) FAIL("column differs at byte " << b << " of round " << round);
            if (f.utf16_column(pos) != utf16_by_scan(f, pos)) FAIL("UTF-16 column differs at byte " << b);
        }
    }
}

TEST_CASE("a 10 MB one-line file resolves many columns in bounded time", "[source][columns]") {
    std::string text(10U << 20, '\0');
    SourceFile f("zero.tf", text);
    auto start = std::chrono::steady_clock::now();
    std::uint64_t sum = 0;
    for (std::uint32_t i = 0; i < 100000; ++i) sum += f.column({static_cast<std::uint32_t>(i * 97 % text.size())});
    CHECK(f.column({static_cast<std::uint32_t>(text.size())}) == text.size() + 1);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(sum > 0);
    CHECK(seconds < 10);  // a scan from the line start each time took hours
}
