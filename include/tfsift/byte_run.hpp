// How far a run of bytes of one class goes, found sixteen bytes at a time:
// the x86-64 builds compare sixteen bytes at once (SSE2, always there),
// other targets, and the last bytes, go one at a time. The scanner's names,
// literal text and blanks, and the reports' printable text, are such runs.
#pragma once

#include <bit>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tfsift {

// The bytes from p (before end) up to the first that `stops` ends the run:
// how many. `stops` answers for one byte (`bool stops(unsigned char)`) and,
// on SSE2 builds, for sixteen (`unsigned stop_bits(__m128i)`: bit i set
// where byte i ends the run); both must agree.
template <class Stops>
std::size_t byte_run(const char* p, const char* end, const Stops& stops) {
    const char* q = p;
#if defined(__SSE2__)
    while (end - q >= 16) {
        const unsigned bits = stops.stop_bits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))) & 0xFFFFu;
        if (bits != 0) return static_cast<std::size_t>(q - p) + static_cast<std::size_t>(std::countr_zero(bits));
        q += 16;
    }
#endif
    while (q < end && !stops.stops(static_cast<unsigned char>(*q))) ++q;
    return static_cast<std::size_t>(q - p);
}

}  // namespace tfsift
