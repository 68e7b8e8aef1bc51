// Hashing the names a module declares and refers to (variables, local
// values, module calls): short identifiers, looked up once for every
// reference, tens of thousands of times in a module tree.
//
// NameHash mixes the length and the first and last eight bytes (every
// byte of a shorter name) inline, where std::hash calls out to a hash of
// every byte. Names that share their ends and length collide, and the
// tables that use it compare names, so a collision costs a probe, never a
// wrong answer.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tfsift::lint {

struct NameHash {
    std::size_t operator()(std::string_view s) const noexcept {
        std::uint64_t h = (s.size() + 1) * 0x9E3779B97F4A7C15ULL;
        if (s.size() >= 8) {
            std::uint64_t first = 0;
            std::uint64_t last = 0;
            std::memcpy(&first, s.data(), 8);
            std::memcpy(&last, s.data() + s.size() - 8, 8);
            h = (h ^ first) * 0xFF51AFD7ED558CCDULL;
            h = (h ^ last) * 0xC4CEB9FE1A85EC53ULL;
        } else {
            for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
        }
        // Tables take the low bits: fold the high ones in.
        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCDULL;
        h ^= h >> 29;
        return static_cast<std::size_t>(h);
    }
};

}  // namespace tfsift::lint
