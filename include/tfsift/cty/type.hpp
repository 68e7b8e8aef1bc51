// cty's type system: primitives, the dynamic pseudo-type, collections
// (list, set, map) and structural types (tuple, object).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tfsift::cty {

enum class TypeKind : std::uint8_t { dynamic, string, number, boolean, list, set, map, tuple, object };

class Type {
public:
    using AttributeTypes = std::map<std::string, Type, std::less<>>;

    Type();  // the dynamic pseudo-type

    static Type dynamic();
    static Type string();
    static Type number();
    static Type boolean();
    static Type list(Type element);
    static Type set(Type element);
    static Type map(Type element);
    static Type tuple(std::vector<Type> elements);
    // `optional` names attributes that may be absent (type constraints with
    // optional(...)); it must be a subset of the attribute names.
    static Type object(AttributeTypes attributes, std::set<std::string, std::less<>> optional = {});

    [[nodiscard]] TypeKind kind() const;
    [[nodiscard]] bool is_dynamic() const { return kind() == TypeKind::dynamic; }
    [[nodiscard]] bool is_primitive() const;
    [[nodiscard]] bool is_collection() const;  // list, set or map
    [[nodiscard]] bool is_list() const { return kind() == TypeKind::list; }
    [[nodiscard]] bool is_set() const { return kind() == TypeKind::set; }
    [[nodiscard]] bool is_map() const { return kind() == TypeKind::map; }
    [[nodiscard]] bool is_tuple() const { return kind() == TypeKind::tuple; }
    [[nodiscard]] bool is_object() const { return kind() == TypeKind::object; }

    // Collections only.
    [[nodiscard]] const Type& element() const;
    // Tuples only.
    [[nodiscard]] const std::vector<Type>& tuple_elements() const;
    // Objects only.
    [[nodiscard]] const AttributeTypes& attributes() const;
    [[nodiscard]] const std::set<std::string, std::less<>>& optional_attributes() const;
    [[nodiscard]] bool has_attribute(std::string_view name) const;

    // True when the dynamic pseudo-type appears anywhere in the type.
    [[nodiscard]] bool has_dynamic() const;
    // The same type with every optional-attribute marker removed, deeply.
    [[nodiscard]] Type without_optional_attributes() const;

    // cty's FriendlyName: "string", "list of number", "object", "tuple", ...
    [[nodiscard]] std::string friendly_name() const;

    friend bool operator==(const Type& a, const Type& b);

    struct Node;

private:
    explicit Type(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
    std::shared_ptr<const Node> node_;
};

}  // namespace tfsift::cty
