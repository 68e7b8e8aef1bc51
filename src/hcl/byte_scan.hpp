// The scanner's runs of plain bytes found sixteen at a time: how far an
// identifier's ASCII characters go, where a string's literal text stops, and
// how far a run of blanks (indentation) goes.
// Each answers as its byte-by-byte loop would; the x86-64 builds compare
// sixteen bytes at once (SSE2, always there), other targets go byte by byte.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

#if defined(__SSE2__)
// Bit i set where p[i] continues an identifier.
inline unsigned id_continue_bits(__m128i v) {
    const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));  // 'A'-'Z' onto 'a'-'z'; negative stays negative
    const __m128i letter =
        _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
    const __m128i digit =
        _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    const __m128i mark = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')), _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), mark)));
}

// Bit i set where p[i] stops literal text (literal_stop_table).
template <bool Quoted>
unsigned literal_stop_bits(__m128i v) {
    __m128i stop =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('$')), _mm_cmpeq_epi8(v, _mm_set1_epi8('%'))),
                     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))));
    if constexpr (Quoted)
        stop = _mm_or_si128(
            stop, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(stop, v)));  // or v: its sign bit, a non-ASCII byte
}
#endif

#if defined(__SSE2__)
// Bit i set where p[i] is a blank: a space or a tab.
inline unsigned blank_bits(__m128i v) {
    return static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')))));
}
#endif

// How many bytes from p (before end) are blanks (spaces and tabs).
inline std::size_t blank_run(const char* p, const char* end) {
    const char* q = p;
#if defined(__SSE2__)
    while (end - q >= 16) {
        const unsigned other = ~blank_bits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))) & 0xFFFFu;
        if (other != 0) return static_cast<std::size_t>(q - p) + static_cast<std::size_t>(std::countr_zero(other));
        q += 16;
    }
#endif
    while (q < end && (*q == ' ' || *q == '\t')) ++q;
    return static_cast<std::size_t>(q - p);
}

// How many bytes from p (before end) continue an ASCII identifier.
inline std::size_t id_continue_run(const char* p, const char* end) {
    const char* q = p;
#if defined(__SSE2__)
    while (end - q >= 16) {
        const unsigned other = ~id_continue_bits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))) & 0xFFFFu;
        if (other != 0) return static_cast<std::size_t>(q - p) + static_cast<std::size_t>(std::countr_zero(other));
        q += 16;
    }
#endif
    while (q < end && ascii_id_continue_table[static_cast<unsigned char>(*q)]) ++q;
    return static_cast<std::size_t>(q - p);
}

// How many bytes from p (before end) go by before one that stops literal
// text (literal_stop_table).
template <bool Quoted>
std::size_t literal_run(const char* p, const char* end) {
    const char* q = p;
#if defined(__SSE2__)
    while (end - q >= 16) {
        const unsigned stop = literal_stop_bits<Quoted>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)));
        if (stop != 0) return static_cast<std::size_t>(q - p) + static_cast<std::size_t>(std::countr_zero(stop));
        q += 16;
    }
#endif
    while (q < end && !literal_stop_table<Quoted>[static_cast<unsigned char>(*q)]) ++q;
    return static_cast<std::size_t>(q - p);
}

}  // namespace tfsift::hcl::detail
