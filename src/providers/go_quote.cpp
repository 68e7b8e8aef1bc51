#include "providers/go_quote.hpp"

#include <fmt/format.h>
#include <utf8proc.h>

namespace tfsift::providers {

bool go_is_print(std::int32_t c) {
    if (c == ' ') return true;
    switch (utf8proc_category(c)) {
        case UTF8PROC_CATEGORY_LU:
        case UTF8PROC_CATEGORY_LL:
        case UTF8PROC_CATEGORY_LT:
        case UTF8PROC_CATEGORY_LM:
        case UTF8PROC_CATEGORY_LO:
        case UTF8PROC_CATEGORY_MN:
        case UTF8PROC_CATEGORY_MC:
        case UTF8PROC_CATEGORY_ME:
        case UTF8PROC_CATEGORY_ND:
        case UTF8PROC_CATEGORY_NL:
        case UTF8PROC_CATEGORY_NO:
        case UTF8PROC_CATEGORY_PC:
        case UTF8PROC_CATEGORY_PD:
        case UTF8PROC_CATEGORY_PS:
        case UTF8PROC_CATEGORY_PE:
        case UTF8PROC_CATEGORY_PI:
        case UTF8PROC_CATEGORY_PF:
        case UTF8PROC_CATEGORY_PO:
        case UTF8PROC_CATEGORY_SM:
        case UTF8PROC_CATEGORY_SC:
        case UTF8PROC_CATEGORY_SK:
        case UTF8PROC_CATEGORY_SO: return true;
        default: return false;
    }
}

std::string go_quote(std::string_view s) {
    std::string out = "\"";
    const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
    std::size_t i = 0;
    while (i < s.size()) {
        utf8proc_int32_t c = 0;
        const auto n = utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(s.size() - i), &c);
        if (n < 0) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
            ++i;
            continue;
        }
        const auto len = static_cast<std::size_t>(n);
        switch (c) {
            case '\a': out += "\\a"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\v': out += "\\v"; break;
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            default:
                if (go_is_print(c)) {
                    out.append(s.substr(i, len));
                } else if (c < 0x80) {
                    out += fmt::format("\\x{:02x}", c);
                } else if (c < 0x10000) {
                    out += fmt::format("\\u{:04x}", c);
                } else {
                    out += fmt::format("\\U{:08x}", c);
                }
        }
        i += len;
    }
    out += '"';
    return out;
}

}  // namespace tfsift::providers
