// The scanner's runs of plain bytes found sixteen at a time: how far an
// identifier's ASCII characters go, where a string's literal text stops, and
// how far a run of blanks (indentation) goes.
// Each answers as its byte-by-byte loop would (tfsift/byte_run.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tfsift/byte_run.hpp"

namespace tfsift::hcl::detail {

// ASCII bytes that continue an identifier: letters, digits, '_' and '-'.
inline constexpr std::array<bool, 256> ascii_id_continue_table = [] {
    std::array<bool, 256> out{};
    for (std::size_t c = 0; c < 128; ++c) {
        const char ch = static_cast<char>(c);
        out[c] =
            (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (ch >= '0' && ch <= '9') || ch == '-';
    }
    return out;
}();

// Where literal text stops: at the opener of a template sequence ('$', '%'),
// a line end, a non-ASCII byte, and in a quoted string also at '"' and '\'.
template <bool Quoted>
inline constexpr std::array<bool, 256> literal_stop_table = [] {
    std::array<bool, 256> out{};
    for (const unsigned char c : {'$', '%', '\r', '\n'}) out[c] = true;
    if (Quoted) out['"'] = out['\\'] = true;
    for (std::size_t c = 0x80; c < 256; ++c) out[c] = true;
    return out;
}();

// The byte classes of byte_run (tfsift/byte_run.hpp).
struct IdContinueStops {
    bool stops(unsigned char c) const { return !ascii_id_continue_table[c]; }
#if defined(__SSE2__)
    unsigned stop_bits(__m128i v) const {
        const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));  // 'A'-'Z' onto 'a'-'z'; negative stays negative
        const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                             _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
        const __m128i digit =
            _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
        const __m128i mark = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')), _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
        return ~static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), mark)));
    }
#endif
};

template <bool Quoted>
struct LiteralStops {
    bool stops(unsigned char c) const { return literal_stop_table<Quoted>[c]; }
#if defined(__SSE2__)
    unsigned stop_bits(__m128i v) const {
        __m128i stop =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('$')), _mm_cmpeq_epi8(v, _mm_set1_epi8('%'))),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))));
        if constexpr (Quoted)
            stop = _mm_or_si128(
                stop, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(stop, v)));  // or v: its sign bit, non-ASCII
    }
#endif
};

struct NonBlankStops {
    bool stops(unsigned char c) const { return c != ' ' && c != '\t'; }
#if defined(__SSE2__)
    unsigned stop_bits(__m128i v) const {
        return ~static_cast<unsigned>(_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')))));
    }
#endif
};

// How many bytes from p (before end) are blanks (spaces and tabs).
inline std::size_t blank_run(const char* p, const char* end) { return byte_run(p, end, NonBlankStops{}); }

// How many bytes from p (before end) continue an ASCII identifier.
inline std::size_t id_continue_run(const char* p, const char* end) { return byte_run(p, end, IdContinueStops{}); }

// How many bytes from p (before end) go by before one that stops literal
// text (literal_stop_table).
template <bool Quoted>
std::size_t literal_run(const char* p, const char* end) {
    return byte_run(p, end, LiteralStops<Quoted>{});
}

}  // namespace tfsift::hcl::detail
