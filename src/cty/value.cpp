#include "tfsift/cty/value.hpp"

#include <utf8proc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace tfsift::cty {

namespace {

// Eight bytes per step: every string value and key passes through here.
bool is_ascii(std::string_view s) {
    constexpr std::uint64_t high_bits = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (; i + sizeof(std::uint64_t) <= s.size(); i += sizeof(std::uint64_t)) {
        std::uint64_t word = 0;
        std::memcpy(&word, s.data() + i, sizeof word);
        if ((word & high_bits) != 0) return false;
    }
    for (; i < s.size(); ++i) {
        if (static_cast<unsigned char>(s[i]) >= 0x80) return false;
    }
    return true;
}

}  // namespace

std::string normalize_nfc(std::string_view s) {
    // Pure ASCII is already in NFC: the common case costs one scan.
    if (is_ascii(s)) return std::string(s);
    utf8proc_uint8_t* out = nullptr;
    const auto n =
        utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()), static_cast<utf8proc_ssize_t>(s.size()), &out,
                     static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
    if (n < 0 || out == nullptr) return std::string(s);
    std::string result(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n));
    std::free(out);
    return result;
}

Value::Value() : Value(Type::dynamic(), State::unknown, nullptr) {}

Value Value::unknown(Type type) { return {std::move(type), State::unknown, nullptr}; }
Value Value::null(Type type) { return {std::move(type), State::null, nullptr}; }

Value Value::string(std::string_view s) {
    return {Type::string(), State::known, std::make_shared<const Payload>(normalize_nfc(s))};
}
Value Value::number(Number n) { return {Type::number(), State::known, std::make_shared<const Payload>(std::move(n))}; }
Value Value::boolean(bool b) {
    static const auto t = std::make_shared<const Payload>(true);
    static const auto f = std::make_shared<const Payload>(false);
    return {Type::boolean(), State::known, b ? t : f};
}

Value Value::tuple(Elements elements) {
    std::vector<Type> types;
    types.reserve(elements.size());
    for (const Value& v : elements) types.push_back(v.type());
    return {Type::tuple(std::move(types)), State::known, std::make_shared<const Payload>(std::move(elements))};
}

namespace {

bool all_keys_ascii(const Value::Attributes& attributes) {
    for (const auto& [name, _] : attributes) {
        if (!is_ascii(name)) return false;
    }
    return true;
}

}  // namespace

Value Value::object(Attributes attributes) {
    Type::AttributeTypes types;
    // ASCII names are already NFC: the map stays as it is, in the same order.
    if (all_keys_ascii(attributes)) {
        for (const auto& [name, v] : attributes) types.emplace_hint(types.end(), name, v.type());
        return {Type::object(std::move(types)), State::known, std::make_shared<const Payload>(std::move(attributes))};
    }
    Attributes normalized;
    for (auto& [name, v] : attributes) {
        std::string key = normalize_nfc(name);
        types.insert_or_assign(key, v.type());
        normalized.insert_or_assign(std::move(key), std::move(v));
    }
    return {Type::object(std::move(types)), State::known, std::make_shared<const Payload>(std::move(normalized))};
}

namespace {
void check_elements(const Type& element_type, const Value::Elements& elements) {
    for (const Value& v : elements) {
        if (!(v.type() == element_type)) {
            throw std::invalid_argument("collection element of type " + v.type().friendly_name() + " where " +
                                        element_type.friendly_name() + " is required");
        }
    }
}
}  // namespace

Value Value::list(Type element_type, Elements elements) {
    check_elements(element_type, elements);
    return {Type::list(std::move(element_type)), State::known, std::make_shared<const Payload>(std::move(elements))};
}

Value Value::set(Type element_type, Elements elements) {
    check_elements(element_type, elements);
    Elements unique;
    for (Value& v : elements) {
        bool seen = false;
        for (const Value& u : unique) {
            if (u.raw_equals(v)) {
                seen = true;
                break;
            }
        }
        if (!seen) unique.push_back(std::move(v));
    }
    return {Type::set(std::move(element_type)), State::known, std::make_shared<const Payload>(std::move(unique))};
}

Value Value::map(Type element_type, Attributes elements) {
    for (const auto& [k, v] : elements) {
        if (!(v.type() == element_type)) {
            throw std::invalid_argument("map element of type " + v.type().friendly_name() + " where " +
                                        element_type.friendly_name() + " is required");
        }
    }
    // ASCII keys are already NFC: the map stays as it is.
    if (all_keys_ascii(elements)) {
        return {Type::map(std::move(element_type)), State::known, std::make_shared<const Payload>(std::move(elements))};
    }
    Attributes normalized;
    for (auto& [k, v] : elements) normalized.insert_or_assign(normalize_nfc(k), std::move(v));
    return {Type::map(std::move(element_type)), State::known, std::make_shared<const Payload>(std::move(normalized))};
}

bool Value::is_wholly_known() const {
    if (state_ == State::unknown) return false;
    if (state_ == State::null) return true;
    if (const auto* e = std::get_if<Elements>(payload_.get())) {
        for (const Value& v : *e)
            if (!v.is_wholly_known()) return false;
    } else if (const auto* a = std::get_if<Attributes>(payload_.get())) {
        for (const auto& [_, v] : *a)
            if (!v.is_wholly_known()) return false;
    }
    return true;
}

bool Value::as_bool() const { return std::get<bool>(*payload_); }
const Number& Value::as_number() const { return std::get<Number>(*payload_); }
const std::string& Value::as_string() const { return std::get<std::string>(*payload_); }
const Value::Elements& Value::elements() const { return std::get<Elements>(*payload_); }
const Value::Attributes& Value::attributes() const { return std::get<Attributes>(*payload_); }

std::size_t Value::length() const {
    if (const auto* e = std::get_if<Elements>(payload_.get())) return e->size();
    if (const auto* a = std::get_if<Attributes>(payload_.get())) return a->size();
    return 0;
}

bool Value::raw_equals(const Value& other) const {
    if (!(type_ == other.type_) || state_ != other.state_) return false;
    if (state_ != State::known) return true;
    return std::visit(
        [&](const auto& mine) -> bool {
            using T = std::decay_t<decltype(mine)>;
            const T& theirs = std::get<T>(*other.payload_);
            if constexpr (std::is_same_v<T, Number>) {
                return mine.equals(theirs);
            } else if constexpr (std::is_same_v<T, Elements>) {
                if (mine.size() != theirs.size()) return false;
                for (std::size_t i = 0; i < mine.size(); ++i)
                    if (!mine[i].raw_equals(theirs[i])) return false;
                return true;
            } else if constexpr (std::is_same_v<T, Attributes>) {
                if (mine.size() != theirs.size()) return false;
                for (auto a = mine.begin(), b = theirs.begin(); a != mine.end(); ++a, ++b)
                    if (a->first != b->first || !a->second.raw_equals(b->second)) return false;
                return true;
            } else {
                return mine == theirs;
            }
        },
        *payload_);
}

Value Value::equals(const Value& other) const {
    const auto unknown_bool = [] { return unknown(Type::boolean()); };
    if (!is_known() && !other.is_known()) return unknown_bool();
    if (is_known() != other.is_known()) {
        const Value& known = is_known() ? *this : other;
        const Value& unknown = is_known() ? other : *this;
        if (known.is_null() || unknown.type().has_dynamic()) return unknown_bool();
        if (!(known.type() == unknown.type())) return boolean(false);
        return unknown_bool();
    }
    if (is_null() && other.is_null()) return boolean(true);
    if (is_null() || other.is_null()) return boolean(false);
    if (!is_wholly_known() || !other.is_wholly_known()) {
        if (!(type_ == other.type_)) return boolean(false);
    }
    if (!(type_ == other.type_)) return boolean(false);

    switch (type_.kind()) {
        case TypeKind::number: return boolean(as_number().equals(other.as_number()));
        case TypeKind::boolean: return boolean(as_bool() == other.as_bool());
        case TypeKind::string: return boolean(as_string() == other.as_string());
        case TypeKind::tuple:
        case TypeKind::list: {
            const auto& a = elements();
            const auto& b = other.elements();
            if (a.size() != b.size()) return boolean(false);
            for (std::size_t i = 0; i < a.size(); ++i) {
                const Value eq = a[i].equals(b[i]);
                if (!eq.is_known()) return unknown_bool();
                if (!eq.as_bool()) return boolean(false);
            }
            return boolean(true);
        }
        case TypeKind::set: {
            const auto& a = elements();
            const auto& b = other.elements();
            auto contains = [](const Elements& s, const Value& v) {
                for (const Value& x : s)
                    if (x.raw_equals(v)) return true;
                return false;
            };
            for (const Value& v : a)
                if (!v.is_wholly_known()) return unknown_bool();
            for (const Value& v : b)
                if (!v.is_wholly_known()) return unknown_bool();
            bool equal = a.size() == b.size();
            for (const Value& v : a) equal = equal && contains(b, v);
            return boolean(equal);
        }
        case TypeKind::object:
        case TypeKind::map: {
            const auto& a = attributes();
            const auto& b = other.attributes();
            if (a.size() != b.size()) return boolean(false);
            for (const auto& [k, v] : a) {
                const auto it = b.find(k);
                if (it == b.end()) return boolean(false);
                const Value eq = v.equals(it->second);
                if (!eq.is_known()) return unknown_bool();
                if (!eq.as_bool()) return boolean(false);
            }
            return boolean(true);
        }
        case TypeKind::dynamic: return unknown_bool();
    }
    return boolean(false);
}

}  // namespace tfsift::cty
