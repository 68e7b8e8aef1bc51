#include <catch2/catch.hpp>

#include <string>

#include "hcl/byte_scan.hpp"

using tfsift::hcl::detail::ascii_id_continue_table;
using tfsift::hcl::detail::blank_run;
using tfsift::hcl::detail::id_continue_run;
using tfsift::hcl::detail::literal_run;
using tfsift::hcl::detail::literal_stop_table;

namespace {

// The runs as a byte-by-byte loop finds them.
std::size_t id_run_bytewise(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size() && ascii_id_continue_table[static_cast<unsigned char>(s[i])]) ++i;
    return i;
}

template <bool Quoted>
std::size_t literal_run_bytewise(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size() && !literal_stop_table<Quoted>[static_cast<unsigned char>(s[i])]) ++i;
    return i;
}

std::size_t blank_run_bytewise(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    return i;
}

}  // namespace

TEST_CASE("runs scanned many bytes at a time stop where a byte loop stops", "[hcl][byte-scan]") {
    // Every byte value, at every place in and around the first two blocks
    // of sixteen, after runs that continue either scan.
    for (int b = 0; b < 256; ++b) {
        for (std::size_t at = 0; at < 40; ++at) {
            for (const char filler : {'a', 'Z', '7', '_', '-'}) {
                std::string s(48, filler);
                s[at] = static_cast<char>(b);
                INFO("byte " << b << " at " << at << " after '" << filler << "'");
                CHECK(id_continue_run(s.data(), s.data() + s.size()) == id_run_bytewise(s));
                CHECK(literal_run<true>(s.data(), s.data() + s.size()) == literal_run_bytewise<true>(s));
                CHECK(literal_run<false>(s.data(), s.data() + s.size()) == literal_run_bytewise<false>(s));
                // The same inputs cut short, so that the end falls inside a block.
                const std::string cut = s.substr(0, at + 1);
                CHECK(id_continue_run(cut.data(), cut.data() + cut.size()) == id_run_bytewise(cut));
                CHECK(literal_run<true>(cut.data(), cut.data() + cut.size()) == literal_run_bytewise<true>(cut));
            }
        }
    }
    // Blanks: runs of spaces and tabs, ended by any other byte (a NUL, a
    // byte with its high bit set, a line end) or by the end of the input.
    for (int b = 0; b < 256; ++b) {
        for (std::size_t at = 0; at < 40; ++at) {
            for (const char filler : {' ', '\t'}) {
                std::string s(48, filler);
                s[at] = static_cast<char>(b);
                INFO("byte " << b << " at " << at << " after a blank " << static_cast<int>(filler));
                CHECK(blank_run(s.data(), s.data() + s.size()) == blank_run_bytewise(s));
                const std::string cut = s.substr(0, at + 1);
                CHECK(blank_run(cut.data(), cut.data() + cut.size()) == blank_run_bytewise(cut));
            }
        }
    }
    const std::string indent = " \t  \t    x = 1";
    CHECK(blank_run(indent.data(), indent.data() + indent.size()) == indent.find('x'));
    const std::string name = "name-2_x.y";
    CHECK(id_continue_run(name.data(), name.data() + name.size()) == 8);
    const std::string text = "plain text, long enough for a block ${x}";
    CHECK(literal_run<true>(text.data(), text.data() + text.size()) == text.find('$'));
    const std::string escaped = "a longer line of text with an \\n escape";
    CHECK(literal_run<true>(escaped.data(), escaped.data() + escaped.size()) == escaped.find('\\'));
    CHECK(literal_run<false>(escaped.data(), escaped.data() + escaped.size()) == escaped.size());
}
