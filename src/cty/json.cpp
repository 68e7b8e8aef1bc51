#include "tfsift/cty/json.hpp"

#include <utf8proc.h>

namespace tfsift::cty {

void append_json_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            switch (c) {
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                default:
                    if (c < 0x20) {
                        out += "\\u00";
                        out += hex[c >> 4];
                        out += hex[c & 0xf];
                    } else {
                        out += static_cast<char>(c);
                    }
            }
            ++i;
            continue;
        }
        utf8proc_int32_t cp = 0;
        const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + i),
                                        static_cast<utf8proc_ssize_t>(s.size() - i), &cp);
        if (n <= 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD
            ++i;
            continue;
        }
        out.append(s.substr(i, static_cast<std::size_t>(n)));
        i += static_cast<std::size_t>(n);
    }
    out += '"';
}

namespace {

bool write(std::string& out, const Value& v) {
    if (v.is_null()) {
        out += "null";
        return true;
    }
    if (!v.is_known()) return false;
    switch (v.type().kind()) {
        case TypeKind::string: append_json_string(out, v.as_string()); return true;
        case TypeKind::number:
            if (v.as_number().is_infinite()) return false;
            out += v.as_number().text();
            return true;
        case TypeKind::boolean: out += v.as_bool() ? "true" : "false"; return true;
        case TypeKind::tuple:
        case TypeKind::list:
        case TypeKind::set: {
            out += '[';
            bool first = true;
            for (const Value& e : v.elements()) {
                if (!first) out += ',';
                first = false;
                if (!write(out, e)) return false;
            }
            out += ']';
            return true;
        }
        case TypeKind::object:
        case TypeKind::map: {
            out += '{';
            bool first = true;
            for (const auto& [k, e] : v.attributes()) {
                if (!first) out += ',';
                first = false;
                append_json_string(out, k);
                out += ':';
                if (!write(out, e)) return false;
            }
            out += '}';
            return true;
        }
        case TypeKind::dynamic: return false;
    }
    return false;
}

std::optional<nlohmann::json> build(const Value& v) {
    if (v.is_null()) return nlohmann::json(nullptr);
    if (!v.is_known()) return std::nullopt;
    switch (v.type().kind()) {
        case TypeKind::string: return nlohmann::json(v.as_string());
        case TypeKind::number: {
            const Number& n = v.as_number();
            if (n.is_infinite()) return std::nullopt;
            if (n.is_zero() && n.is_negative()) return nlohmann::json(-0.0);
            if (const auto i = n.to_int64()) return nlohmann::json(*i);
            return nlohmann::json(n.to_double());
        }
        case TypeKind::boolean: return nlohmann::json(v.as_bool());
        case TypeKind::tuple:
        case TypeKind::list:
        case TypeKind::set: {
            nlohmann::json arr = nlohmann::json::array();
            for (const Value& e : v.elements()) {
                auto j = build(e);
                if (!j) return std::nullopt;
                arr.push_back(std::move(*j));
            }
            return arr;
        }
        case TypeKind::object:
        case TypeKind::map: {
            nlohmann::json obj = nlohmann::json::object();
            for (const auto& [k, e] : v.attributes()) {
                auto j = build(e);
                if (!j) return std::nullopt;
                obj[k] = std::move(*j);
            }
            return obj;
        }
        case TypeKind::dynamic: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> to_json_text(const Value& v) {
    std::string out;
    if (!write(out, v)) return std::nullopt;
    return out;
}

std::optional<nlohmann::json> to_json(const Value& v) { return build(v); }

}  // namespace tfsift::cty
