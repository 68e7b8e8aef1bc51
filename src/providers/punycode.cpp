#include "providers/punycode.hpp"

#include <cstdint>
#include <limits>

namespace tfsift::providers::punycode {

namespace {

constexpr std::uint32_t kBase = 36;
constexpr std::uint32_t kTMin = 1;
constexpr std::uint32_t kTMax = 26;
constexpr std::uint32_t kSkew = 38;
constexpr std::uint32_t kDamp = 700;
constexpr std::uint32_t kInitialBias = 72;
constexpr std::uint32_t kInitialN = 128;
constexpr std::uint32_t kMaxInt = std::numeric_limits<std::uint32_t>::max();

std::uint32_t adapt(std::uint32_t delta, std::uint32_t num_points, bool first_time) {
    delta = first_time ? delta / kDamp : delta / 2;
    delta += delta / num_points;
    std::uint32_t k = 0;
    while (delta > ((kBase - kTMin) * kTMax) / 2) {
        delta /= kBase - kTMin;
        k += kBase;
    }
    return k + (kBase - kTMin + 1) * delta / (delta + kSkew);
}

char encode_digit(std::uint32_t d) { return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26)); }

std::optional<std::uint32_t> decode_digit(char c) {
    if (c >= '0' && c <= '9') return static_cast<std::uint32_t>(c - '0' + 26);
    if (c >= 'a' && c <= 'z') return static_cast<std::uint32_t>(c - 'a');
    if (c >= 'A' && c <= 'Z') return static_cast<std::uint32_t>(c - 'A');
    return std::nullopt;
}

std::uint32_t threshold(std::uint32_t k, std::uint32_t bias) {
    if (k <= bias) return kTMin;
    if (k >= bias + kTMax) return kTMax;
    return k - bias;
}

}  // namespace

std::optional<std::string> encode(std::u32string_view label) {
    std::string out;
    std::uint32_t basic = 0;
    for (char32_t c : label) {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
            ++basic;
        }
    }
    std::uint32_t handled = basic;
    if (basic > 0) out.push_back('-');
    std::uint32_t n = kInitialN;
    std::uint32_t delta = 0;
    std::uint32_t bias = kInitialBias;
    const auto total = static_cast<std::uint32_t>(label.size());
    while (handled < total) {
        std::uint32_t m = kMaxInt;
        for (char32_t c : label) {
            if (c >= n && c < m) m = c;
        }
        if (m - n > (kMaxInt - delta) / (handled + 1)) return std::nullopt;
        delta += (m - n) * (handled + 1);
        n = m;
        for (char32_t c : label) {
            if (c < n) {
                if (++delta == 0) return std::nullopt;
            }
            if (c == n) {
                std::uint32_t q = delta;
                for (std::uint32_t k = kBase;; k += kBase) {
                    const std::uint32_t t = threshold(k, bias);
                    if (q < t) break;
                    out.push_back(encode_digit(t + (q - t) % (kBase - t)));
                    q = (q - t) / (kBase - t);
                }
                out.push_back(encode_digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                ++handled;
            }
        }
        ++delta;
        ++n;
    }
    return out;
}

std::optional<std::u32string> decode(std::string_view encoded) {
    std::u32string out;
    std::size_t pos = 0;
    if (auto dash = encoded.rfind('-'); dash != std::string_view::npos) {
        for (std::size_t i = 0; i < dash; ++i) {
            const auto c = static_cast<unsigned char>(encoded[i]);
            if (c >= 0x80) return std::nullopt;
            out.push_back(c);
        }
        pos = dash + 1;
    }
    std::uint32_t n = kInitialN;
    std::uint32_t i = 0;
    std::uint32_t bias = kInitialBias;
    while (pos < encoded.size()) {
        const std::uint32_t old_i = i;
        std::uint32_t w = 1;
        for (std::uint32_t k = kBase;; k += kBase) {
            if (pos >= encoded.size()) return std::nullopt;
            auto digit = decode_digit(encoded[pos++]);
            if (!digit) return std::nullopt;
            if (*digit > (kMaxInt - i) / w) return std::nullopt;
            i += *digit * w;
            const std::uint32_t t = threshold(k, bias);
            if (*digit < t) break;
            if (w > kMaxInt / (kBase - t)) return std::nullopt;
            w *= kBase - t;
        }
        const auto length = static_cast<std::uint32_t>(out.size() + 1);
        bias = adapt(i - old_i, length, old_i == 0);
        if (i / length > kMaxInt - n) return std::nullopt;
        n += i / length;
        i %= length;
        if (n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF)) return std::nullopt;
        out.insert(out.begin() + i, static_cast<char32_t>(n));
        ++i;
    }
    return out;
}

}  // namespace tfsift::providers::punycode
