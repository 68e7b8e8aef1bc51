// The JSON reader: a PEGTL grammar (RFC 8259, built from the token rules of
// PEGTL's contrib JSON grammar) whose actions build the positioned DOM.
#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/json.hpp>

#include <fmt/core.h>

#include "tfsift/json/value.hpp"

namespace tfsift::json {

namespace pegtl = tao::pegtl;
namespace tok = tao::pegtl::json;

std::string_view to_string(Kind kind) {
    switch (kind) {
        case Kind::null: return "null";
        case Kind::boolean: return "boolean";
        case Kind::number: return "number";
        case Kind::string: return "string";
        case Kind::array: return "array";
        case Kind::object: return "object";
    }
    return "?";
}

const Value* Value::find(std::string_view name) const {
    for (const auto& m : members) {
        if (m.name == name) return &m.value;
    }
    return nullptr;
}

namespace {

// ---- grammar ------------------------------------------------------------------
// Every point where the input can go wrong is a must<>, so the first bad
// character is reported by the control class below with a specific message.

using ws = pegtl::star<tok::ws>;

struct string_close : pegtl::one<'"'> {};
struct escape_sequence : pegtl::sor<tok::escaped_char, tok::unicode> {};
struct plain_char : tok::unescaped {};
struct string_char : pegtl::if_then_else<pegtl::one<'\\'>, pegtl::must<escape_sequence>, pegtl::must<plain_char>> {};
struct string_body : pegtl::until<pegtl::at<pegtl::one<'"'>>, string_char> {};
struct string_token : pegtl::seq<pegtl::one<'"'>, string_body, pegtl::must<string_close>> {};
struct key_token : string_token {};

struct number_token : tok::number {};
struct true_token : tok::true_ {};
struct false_token : tok::false_ {};
struct null_token : tok::null {};

struct value;

struct colon : pegtl::one<':'> {};
struct member_name : pegtl::seq<pegtl::at<pegtl::one<'"'>>, key_token> {};
struct member_value : pegtl::seq<value> {};
struct member : pegtl::seq<pegtl::must<member_name>, ws, pegtl::must<colon>, ws, pegtl::must<member_value>> {};
struct object_open : pegtl::one<'{'> {};
struct object_close : pegtl::one<'}'> {};
struct object_next : pegtl::seq<pegtl::one<','>, ws, member, ws> {};
struct object_end : object_close {};
struct object
    : pegtl::seq<object_open, ws, pegtl::opt<pegtl::not_at<pegtl::one<'}'>>, member, ws, pegtl::star<object_next>>,
                 pegtl::must<object_end>> {};

struct array_item : pegtl::seq<value> {};
struct array_open : pegtl::one<'['> {};
struct array_close : pegtl::one<']'> {};
struct array_next : pegtl::seq<pegtl::one<','>, ws, pegtl::must<array_item>, ws> {};
struct array_end : array_close {};
struct array
    : pegtl::seq<array_open, ws,
                 pegtl::opt<pegtl::not_at<pegtl::one<']'>>, pegtl::must<array_item>, ws, pegtl::star<array_next>>,
                 pegtl::must<array_end>> {};

struct value : pegtl::sor<string_token, number_token, object, array, true_token, false_token, null_token> {};
struct root_value : pegtl::seq<value> {};
struct document : pegtl::seq<ws, pegtl::must<root_value>, ws, pegtl::must<pegtl::eof>> {};

// ---- building the DOM -----------------------------------------------------------

struct Frame {
    Value value;
    std::string pending_name;
    Range pending_name_range;
};

struct Builder {
    const SourceFile& source;
    std::vector<Frame> stack;
    Value root;
    bool have_root = false;

    template <class Input>
    Pos start_of(const Input& in) const {
        const auto it = in.iterator();
        return Pos{static_cast<std::uint32_t>(it.byte)};
    }
    // End of a token that cannot span lines.
    template <class Input>
    Range range_of(const Input& in) const {
        Pos s = start_of(in);
        return {s, Pos{s.byte + static_cast<std::uint32_t>(in.size())}};
    }

    void attach(Value v) {
        if (stack.empty()) {
            root = std::move(v);
            have_root = true;
            return;
        }
        Frame& top = stack.back();
        if (top.value.kind == Kind::array) {
            top.value.items.push_back(std::move(v));
        } else {
            top.value.members.push_back(Member{std::move(top.pending_name), top.pending_name_range, std::move(v)});
        }
    }
};

// Decodes the body of a JSON string (between the quotes). The grammar has
// already checked every escape.
void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::uint32_t hex4(std::string_view s) {
    std::uint32_t v = 0;
    for (char c : s.substr(0, 4)) {
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= static_cast<std::uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= static_cast<std::uint32_t>(c - 'a' + 10);
        else
            v |= static_cast<std::uint32_t>(c - 'A' + 10);
    }
    return v;
}

std::string decode_string(std::string_view quoted) {
    std::string_view s = quoted.substr(1, quoted.size() - 2);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c != '\\') {
            out.push_back(c);
            continue;
        }
        char e = s[++i];
        switch (e) {
            case 'b': out.push_back('\b'); break;
            case 'f': out.push_back('\f'); break;
            case 'n': out.push_back('\n'); break;
            case 'r': out.push_back('\r'); break;
            case 't': out.push_back('\t'); break;
            case 'u': {
                std::uint32_t cp = hex4(s.substr(i + 1));
                i += 4;
                if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < s.size() + 1 && s.substr(i + 1, 2) == "\\u") {
                    std::uint32_t low = hex4(s.substr(i + 3));
                    if (low >= 0xDC00 && low < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        i += 6;
                    }
                }
                // A lone surrogate cannot be UTF-8: use the replacement
                // character, as Go's decoder does.
                if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;
                append_utf8(out, cp);
                break;
            }
            default: out.push_back(e); break;  // " \ /
        }
    }
    return out;
}

template <class Rule>
struct action : pegtl::nothing<Rule> {};

template <>
struct action<string_token> {
    template <class Input>
    static void apply(const Input& in, Builder& b) {
        Value v;
        v.kind = Kind::string;
        v.range = b.range_of(in);
        v.text = decode_string(in.string_view());
        b.attach(std::move(v));
    }
};

template <>
struct action<key_token> {
    template <class Input>
    static void apply(const Input& in, Builder& b) {
        Frame& top = b.stack.back();
        top.pending_name = decode_string(in.string_view());
        top.pending_name_range = b.range_of(in);
    }
};

template <>
struct action<number_token> {
    template <class Input>
    static void apply(const Input& in, Builder& b) {
        Value v;
        v.kind = Kind::number;
        v.range = b.range_of(in);
        v.text = in.string();
        b.attach(std::move(v));
    }
};

template <class Rule, Kind K, bool B>
struct keyword_action {
    template <class Input>
    static void apply(const Input& in, Builder& b) {
        Value v;
        v.kind = K;
        v.boolean = B;
        v.range = b.range_of(in);
        b.attach(std::move(v));
    }
};
template <>
struct action<true_token> : keyword_action<true_token, Kind::boolean, true> {};
template <>
struct action<false_token> : keyword_action<false_token, Kind::boolean, false> {};
template <>
struct action<null_token> : keyword_action<null_token, Kind::null, false> {};

template <Kind K>
struct open_action {
    template <class Input>
    static void apply(const Input& in, Builder& b) {
        if (b.stack.size() >= static_cast<std::size_t>(max_nesting_depth)) {
            throw pegtl::parse_error("Nesting too deep: arrays and objects are nested more than 1000 levels", in);
        }
        Frame f;
        f.value.kind = K;
        f.value.range.start = b.start_of(in);
        b.stack.push_back(std::move(f));
    }
};
template <>
struct action<object_open> : open_action<Kind::object> {};
template <>
struct action<array_open> : open_action<Kind::array> {};

struct close_action {
    template <class Input>
    static void apply(const Input& in, Builder& b) {
        Value v = std::move(b.stack.back().value);
        b.stack.pop_back();
        v.range.end = b.range_of(in).end;
        b.attach(std::move(v));
    }
};
template <>
struct action<object_end> : close_action {};
template <>
struct action<array_end> : close_action {};

// ---- error messages -------------------------------------------------------------

template <class Input>
std::string describe_here(const Input& in) {
    if (in.empty()) return "the end of the file";
    unsigned char c = static_cast<unsigned char>(in.peek_char());
    if (c >= 0x20 && c < 0x7F) return fmt::format("'{}'", static_cast<char>(c));
    return fmt::format("byte 0x{:02X}", c);
}

template <class Rule>
struct control : pegtl::normal<Rule> {
    template <class Input, class... States>
    [[noreturn]] static void raise(const Input& in, States&&... /*unused*/) {
        throw pegtl::parse_error(message(in), in);
    }

    template <class Input>
    static std::string message(const Input& in) {
        const char next = in.empty() ? '\0' : in.peek_char();
        if constexpr (std::is_same_v<Rule, root_value>) {
            if (in.empty()) return "Empty JSON document: a JSON value is required";
            return fmt::format("Invalid JSON value: expected a value, found {}", describe_here(in));
        } else if constexpr (std::is_same_v<Rule, member_value> || std::is_same_v<Rule, array_item>) {
            if (next == ']') return "Trailing comma in array: JSON does not permit a comma after the last element";
            return fmt::format("Invalid JSON value: expected a value, found {}", describe_here(in));
        } else if constexpr (std::is_same_v<Rule, member_name>) {
            if (next == '}') return "Trailing comma in object: JSON does not permit a comma after the last property";
            return fmt::format("Invalid property name: expected a quoted string, found {}", describe_here(in));
        } else if constexpr (std::is_same_v<Rule, colon>) {
            if (next == '=')
                return "Missing property value colon: JSON uses a colon as its name/value delimiter, not an equals sign";
            return fmt::format("Missing property value colon: expected ':', found {}", describe_here(in));
        } else if constexpr (std::is_same_v<Rule, object_end>) {
            if (in.empty()) return "Unclosed object: the file ends before the object's closing brace";
            return fmt::format("Missing property separator: expected ',' or '}}', found {}", describe_here(in));
        } else if constexpr (std::is_same_v<Rule, array_end>) {
            if (in.empty()) return "Unclosed array: the file ends before the array's closing bracket";
            return fmt::format("Missing array element separator: expected ',' or ']', found {}", describe_here(in));
        } else if constexpr (std::is_same_v<Rule, string_close>) {
            return "Unterminated string: the file ends before the string's closing quote";
        } else if constexpr (std::is_same_v<Rule, escape_sequence>) {
            return fmt::format("Invalid escape sequence in string: {} cannot follow a backslash", describe_here(in));
        } else if constexpr (std::is_same_v<Rule, plain_char>) {
            if (in.empty()) return "Unterminated string: the file ends before the string's closing quote";
            if (static_cast<unsigned char>(next) < 0x20)
                return "Invalid character in string: control characters must be escaped";
            return "Invalid UTF-8 in string";
        } else if constexpr (std::is_same_v<Rule, pegtl::eof>) {
            return fmt::format("Extraneous data after value: found {} after the JSON value", describe_here(in));
        } else {
            return "Syntax error in JSON";
        }
    }
};

}  // namespace

Document parse(const std::shared_ptr<const SourceFile>& source) {
    Document doc;
    doc.source = source;
    Builder builder{*source, {}, {}, false};
    pegtl::memory_input<pegtl::tracking_mode::eager, pegtl::eol::lf_crlf> in(source->text().data(),
                                                                             source->text().size(), source->path());
    try {
        pegtl::parse<document, action, control>(in, builder);
        doc.root = std::move(builder.root);
    } catch (const pegtl::parse_error& e) {
        const auto& p = e.positions().front();
        Pos at{static_cast<std::uint32_t>(p.byte)};
        Pos after = at;
        if (at.byte < source->size()) ++after.byte;
        Diagnostic d;
        d.severity = Severity::error;
        std::string_view msg = e.message();
        auto colon_at = msg.find(": ");
        d.summary = std::string(msg.substr(0, colon_at));
        d.detail = colon_at == std::string_view::npos ? std::string() : std::string(msg.substr(colon_at + 2));
        if (!d.detail.empty()) {
            d.detail[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(d.detail[0])));
            d.detail += '.';
        }
        d.filename = source->path();
        d.subject = Range{at, after};
        doc.diagnostics.push_back(std::move(d));
        doc.root = Value{};
    }
    return doc;
}

}  // namespace tfsift::json
