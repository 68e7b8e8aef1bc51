#include "providers/idna.hpp"

#include <fmt/format.h>
#include <utf8proc.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "providers/go_quote.hpp"
#include "providers/punycode.hpp"

namespace tfsift::providers::idna {

namespace {

enum class IdnaStatus : std::uint8_t { valid, mapped, deviation, ignored, disallowed };

struct IdnaRow {
    std::uint32_t start;
    IdnaStatus status;
    std::uint32_t offset;
    std::uint16_t length;
};

#include "providers/idna_table.inc"

const IdnaRow& row_for(char32_t c) {
    const auto* end = std::end(kIdnaRows);
    const auto* it = std::upper_bound(std::begin(kIdnaRows), end, static_cast<std::uint32_t>(c),
                                      [](std::uint32_t v, const IdnaRow& r) { return v < r.start; });
    return *(it - 1);
}

std::u32string decode_utf8(std::string_view s, bool& invalid) {
    std::u32string out;
    const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
    std::size_t i = 0;
    while (i < s.size()) {
        utf8proc_int32_t c = 0;
        auto n = utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(s.size() - i), &c);
        if (n < 0) {
            invalid = true;
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        out.push_back(static_cast<char32_t>(c));
        i += static_cast<std::size_t>(n);
    }
    return out;
}

std::string encode_utf8(std::u32string_view s) {
    std::string out;
    for (char32_t c : s) {
        utf8proc_uint8_t buf[4];
        auto n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buf);
        out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
    }
    return out;
}

std::string nfc(const std::string& s) {
    utf8proc_uint8_t* result = nullptr;
    auto n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()), static_cast<utf8proc_ssize_t>(s.size()),
                          &result, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
    if (n < 0) return s;
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owner(result, &std::free);
    return {reinterpret_cast<const char*>(result), static_cast<std::size_t>(n)};
}

// STD3 ASCII rules: after mapping, the only ASCII allowed in a domain are
// lower-case letters, digits, hyphen and the label separator.
bool std3_allowed_ascii(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

std::string rune_error(char32_t c) {
    return fmt::format("idna: disallowed rune U+{:04X}", static_cast<std::uint32_t>(c));
}

std::string label_error(std::string_view label) { return "idna: invalid label " + go_quote(label); }

bool is_combining_mark(char32_t c) {
    auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(c));
    return cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC || cat == UTF8PROC_CATEGORY_ME;
}

int bidi_class(char32_t c) { return utf8proc_get_property(static_cast<utf8proc_int32_t>(c))->bidi_class; }

bool is_rtl_or_arabic_number(char32_t c) {
    const int b = bidi_class(c);
    return b == UTF8PROC_BIDI_CLASS_R || b == UTF8PROC_BIDI_CLASS_AL || b == UTF8PROC_BIDI_CLASS_AN;
}

// RFC 5893 section 2, applied to every label of a domain that holds any
// right-to-left character.
bool satisfies_bidi_rule(std::u32string_view label) {
    if (label.empty()) return true;
    const int first = bidi_class(label.front());
    auto last_non_nsm = [&]() {
        for (auto it = label.rbegin(); it != label.rend(); ++it) {
            if (bidi_class(*it) != UTF8PROC_BIDI_CLASS_NSM) return bidi_class(*it);
        }
        return static_cast<int>(UTF8PROC_BIDI_CLASS_NSM);
    };
    if (first == UTF8PROC_BIDI_CLASS_R || first == UTF8PROC_BIDI_CLASS_AL) {
        bool has_en = false;
        bool has_an = false;
        for (char32_t c : label) {
            switch (bidi_class(c)) {
                case UTF8PROC_BIDI_CLASS_R:
                case UTF8PROC_BIDI_CLASS_AL:
                case UTF8PROC_BIDI_CLASS_ES:
                case UTF8PROC_BIDI_CLASS_CS:
                case UTF8PROC_BIDI_CLASS_ET:
                case UTF8PROC_BIDI_CLASS_ON:
                case UTF8PROC_BIDI_CLASS_BN:
                case UTF8PROC_BIDI_CLASS_NSM: break;
                case UTF8PROC_BIDI_CLASS_EN: has_en = true; break;
                case UTF8PROC_BIDI_CLASS_AN: has_an = true; break;
                default: return false;
            }
        }
        if (has_en && has_an) return false;
        const int end = last_non_nsm();
        return end == UTF8PROC_BIDI_CLASS_R || end == UTF8PROC_BIDI_CLASS_AL || end == UTF8PROC_BIDI_CLASS_EN ||
               end == UTF8PROC_BIDI_CLASS_AN;
    }
    if (first != UTF8PROC_BIDI_CLASS_L) return false;
    for (char32_t c : label) {
        switch (bidi_class(c)) {
            case UTF8PROC_BIDI_CLASS_L:
            case UTF8PROC_BIDI_CLASS_EN:
            case UTF8PROC_BIDI_CLASS_ES:
            case UTF8PROC_BIDI_CLASS_CS:
            case UTF8PROC_BIDI_CLASS_ET:
            case UTF8PROC_BIDI_CLASS_ON:
            case UTF8PROC_BIDI_CLASS_BN:
            case UTF8PROC_BIDI_CLASS_NSM: break;
            default: return false;
        }
    }
    const int end = last_non_nsm();
    return end == UTF8PROC_BIDI_CLASS_L || end == UTF8PROC_BIDI_CLASS_EN;
}

constexpr char32_t kZeroWidthJoiner = 0x200D;
constexpr char32_t kZeroWidthNonJoiner = 0x200C;
constexpr int kViramaCombiningClass = 9;

// CONTEXTJ rules (RFC 5892 appendix A.1/A.2). A joiner is accepted after a
// virama. The ZWNJ joining-type context (Arabic-script shaping) is not
// modelled, so a ZWNJ anywhere else is rejected: stricter, never looser.
bool joiners_allowed(std::u32string_view label) {
    for (std::size_t i = 0; i < label.size(); ++i) {
        if (label[i] != kZeroWidthJoiner && label[i] != kZeroWidthNonJoiner) continue;
        if (i == 0) return false;
        const auto* prop = utf8proc_get_property(static_cast<utf8proc_int32_t>(label[i - 1]));
        if (prop->combining_class != kViramaCombiningClass) return false;
    }
    return true;
}

// Go's Profile.validateLabel for the Lookup profile.
std::string validate_label(std::string_view label_utf8, std::u32string_view label) {
    if (label.empty()) return {};
    if (label.size() > 4 && label[2] == '-' && label[3] == '-') return label_error(label_utf8);
    if (label.front() == '-' || label.back() == '-') return label_error(label_utf8);
    if (is_combining_mark(label.front())) return label_error(label_utf8);
    if (!joiners_allowed(label)) return label_error(label_utf8);
    return {};
}

// Labels that came from punycode must already be normalized and valid.
std::string validate_from_punycode(std::string_view label_utf8, std::u32string_view label) {
    if (nfc(std::string(label_utf8)) != label_utf8) return label_error(label_utf8);
    for (char32_t c : label) {
        if (c < 0x80 && !std3_allowed_ascii(c)) return label_error(label_utf8);
        auto status = row_for(c).status;
        if (status != IdnaStatus::valid && status != IdnaStatus::deviation) return label_error(label_utf8);
    }
    return {};
}

Result process(std::string_view input, bool to_ascii) {
    Result result;
    bool invalid_utf8 = false;
    const std::u32string runes = decode_utf8(input, invalid_utf8);
    if (invalid_utf8) result.error = rune_error(0xFFFD);

    bool is_bidi = false;
    std::u32string mapped;
    for (char32_t c : runes) {
        if (is_rtl_or_arabic_number(c)) is_bidi = true;
        const IdnaRow& row = row_for(c);
        IdnaStatus status = row.status;
        if (c < 0x80 && status == IdnaStatus::valid && !std3_allowed_ascii(c)) status = IdnaStatus::disallowed;
        switch (status) {
            case IdnaStatus::valid:
            case IdnaStatus::deviation:  // non-transitional: kept as written
                mapped.push_back(c);
                break;
            case IdnaStatus::ignored: break;
            case IdnaStatus::disallowed:
                if (result.error.empty()) result.error = rune_error(c);
                mapped.push_back(c);
                break;
            case IdnaStatus::mapped: {
                bool dummy = false;
                const std::u32string replacement = decode_utf8(
                    std::string_view(reinterpret_cast<const char*>(kIdnaMappingBytes) + row.offset, row.length), dummy);
                for (char32_t r : replacement) {
                    if (r < 0x80 && !std3_allowed_ascii(r) && result.error.empty()) result.error = rune_error(c);
                    if (is_rtl_or_arabic_number(r)) is_bidi = true;
                }
                mapped += replacement;
                break;
            }
        }
    }
    const std::string normalized = nfc(encode_utf8(mapped));

    // Split into labels. As in Go's label iterator, a single empty label at
    // the end (a trailing dot) is kept but never validated.
    std::vector<std::string> labels;
    std::size_t start = 0;
    while (true) {
        auto dot = normalized.find('.', start);
        labels.push_back(normalized.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    std::vector<std::u32string> decoded(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        std::string& label = labels[i];
        bool dummy = false;
        if (label.rfind("xn--", 0) == 0) {
            auto unicode = punycode::decode(std::string_view(label).substr(4));
            if (!unicode) {
                if (result.error.empty()) result.error = label_error(label);
                decoded[i] = decode_utf8(label, dummy);
                continue;
            }
            if (std::any_of(unicode->begin(), unicode->end(), is_rtl_or_arabic_number)) is_bidi = true;
            label = encode_utf8(*unicode);
            decoded[i] = *unicode;
            if (result.error.empty()) result.error = validate_from_punycode(label, decoded[i]);
            if (result.error.empty()) result.error = validate_label(label, decoded[i]);
        } else {
            decoded[i] = decode_utf8(label, dummy);
            if (result.error.empty()) result.error = validate_label(label, decoded[i]);
        }
    }
    if (is_bidi && result.error.empty()) {
        for (const auto& label : decoded) {
            if (!satisfies_bidi_rule(label)) {
                result.error = label_error(normalized);
                break;
            }
        }
    }
    if (to_ascii) {
        for (std::size_t i = 0; i < labels.size(); ++i) {
            const bool ascii = std::all_of(decoded[i].begin(), decoded[i].end(), [](char32_t c) { return c < 0x80; });
            if (ascii) continue;
            auto encoded = punycode::encode(decoded[i]);
            if (!encoded) {
                if (result.error.empty()) result.error = label_error(labels[i]);
                continue;
            }
            labels[i] = "xn--" + *encoded;
        }
    }
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (i > 0) result.value += '.';
        result.value += labels[i];
    }
    return result;
}

// process(), remembered: a lint asks about the same few hosts and provider
// names once per module or more, and the mapping, normalization and checks
// cost more than the rest of reading an address. Per thread, so that the
// threads of a parallel lint do not wait on each other; bounded, so that a
// hostile configuration with many distinct names cannot grow it for ever.
const Result& remembered(std::string_view domain, bool to_ascii) {
    constexpr std::size_t max_remembered = 4096;
    thread_local std::unordered_map<std::string, Result> ascii_seen;
    thread_local std::unordered_map<std::string, Result> unicode_seen;
    thread_local Result last;
    auto& cache = to_ascii ? ascii_seen : unicode_seen;
    std::string key(domain);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    Result result = process(domain, to_ascii);
    if (cache.size() >= max_remembered) {
        last = std::move(result);
        return last;
    }
    return cache.emplace(std::move(key), std::move(result)).first->second;
}

}  // namespace

Result to_ascii(std::string_view domain) { return remembered(domain, true); }

Result to_unicode(std::string_view domain) { return remembered(domain, false); }

}  // namespace tfsift::providers::idna
