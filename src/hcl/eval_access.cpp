#include "eval_access.hpp"

#include "tfsift/cty/convert.hpp"

namespace tfsift::hcl {

using cty::Type;
using cty::TypeKind;
using cty::Value;

namespace {
AccessResult fail(std::string summary, std::string detail) {
    return {Value::dynamic_unknown(), AccessError{std::move(summary), std::move(detail)}};
}
constexpr const char* invalid_index = "Invalid index";
}  // namespace

AccessResult index_value(const Value& collection, const Value& key) {
    if (collection.is_null())
        return fail("Attempt to index null value", "This value is null, so it does not have any indices.");
    if (key.is_null()) return fail(invalid_index, "Can't use a null value as an indexing key.");
    const Type& ty = collection.type();
    if (key.type().is_dynamic() || ty.is_dynamic()) return {Value::dynamic_unknown(), {}};

    if (ty.is_list() || ty.is_tuple() || ty.is_map()) {
        const bool numeric = !ty.is_map();
        const cty::Converted k = cty::convert(key, numeric ? Type::number() : Type::string());
        if (!k.ok()) {
            return fail(invalid_index,
                        "The given key does not identify an element in this collection value: " + k.error + ".");
        }
        if (!k.value.is_known() || !collection.is_known()) {
            if (ty.is_tuple()) return {Value::dynamic_unknown(), {}};
            return {Value::unknown(ty.element()), {}};
        }
        if (numeric) {
            const cty::Number& n = k.value.as_number();
            const auto i = n.to_int64();
            if (!i) {
                if (!n.is_integer())
                    return fail(
                        invalid_index,
                        "The given key does not identify an element in this collection value: the given index must be a whole number.");
                return fail(invalid_index, "The given key does not identify an element in this collection value.");
            }
            if (*i < 0)
                return fail(
                    invalid_index,
                    "The given key does not identify an element in this collection value: a negative number is not a valid index for a sequence.");
            const auto& elems = collection.elements();
            if (static_cast<std::uint64_t>(*i) >= elems.size()) {
                if (elems.empty())
                    return fail(
                        invalid_index,
                        "The given key does not identify an element in this collection value: the collection has no elements.");
                return fail(
                    invalid_index,
                    "The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection.");
            }
            return {elems[static_cast<std::size_t>(*i)], {}};
        }
        const auto& attrs = collection.attributes();
        const auto it = attrs.find(k.value.as_string());
        if (it == attrs.end())
            return fail(invalid_index, "The given key does not identify an element in this collection value.");
        return {it->second, {}};
    }
    if (ty.is_object()) {
        const bool was_number = key.type().kind() == TypeKind::number;
        const cty::Converted k = cty::convert(key, Type::string());
        if (!k.ok()) {
            return fail(invalid_index,
                        "The given key does not identify an element in this collection value: " + k.error + ".");
        }
        if (!collection.is_known() || !k.value.is_known()) return {Value::dynamic_unknown(), {}};
        const auto& attrs = collection.attributes();
        const auto it = attrs.find(k.value.as_string());
        if (it == attrs.end()) {
            std::string detail = "The given key does not identify an element in this collection value.";
            if (was_number) detail += " An object only supports looking up attributes by name, not by numeric index.";
            return fail(invalid_index, detail);
        }
        return {it->second, {}};
    }
    if (ty.is_set()) {
        return fail(
            invalid_index,
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.");
    }
    return fail(invalid_index, "This value does not have any indices.");
}

AccessResult get_attribute(const Value& object, std::string_view name) {
    if (object.is_null())
        return fail("Attempt to get attribute from null value",
                    "This value is null, so it does not have any attributes.");
    const Type& ty = object.type();
    const std::string quoted = "\"" + std::string(name) + "\"";
    if (ty.is_object()) {
        const auto it = ty.attributes().find(name);
        if (it == ty.attributes().end())
            return fail("Unsupported attribute", "This object does not have an attribute named " + quoted + ".");
        if (!object.is_known()) return {Value::unknown(it->second), {}};
        return {object.attributes().find(name)->second, {}};
    }
    if (ty.is_map()) {
        if (!object.is_known()) return {Value::unknown(ty.element()), {}};
        const auto& attrs = object.attributes();
        const auto it = attrs.find(cty::normalize_nfc(name));
        if (it == attrs.end())
            return fail("Missing map element", "This map does not have an element with the key " + quoted + ".");
        return {it->second, {}};
    }
    if (ty.is_dynamic()) return {Value::dynamic_unknown(), {}};
    if (ty.is_list() && ty.element().is_object())
        return fail(
            "Unsupported attribute",
            "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?");
    if (ty.is_set() && ty.element().is_object())
        return fail(
            "Unsupported attribute",
            "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?");
    if (ty.is_primitive())
        return fail("Unsupported attribute",
                    "Can't access attributes on a primitive-typed value (" + ty.friendly_name() + ").");
    return fail("Unsupported attribute", "This value does not have any attributes.");
}

}  // namespace tfsift::hcl
