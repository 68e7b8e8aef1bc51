#include "tfsift/cty/type.hpp"

#include <stdexcept>

namespace tfsift::cty {

struct Type::Node {
    TypeKind kind;
    std::vector<Type> elements;  // collection: one element; tuple: all
    AttributeTypes attributes;
    std::set<std::string, std::less<>> optional;
    // An optional-attribute marker here or anywhere below: known when the
    // node is built, so that stripping the markers from a type without any
    // (every conversion does) costs no walk and no allocation.
    bool has_optional = false;

    Node(TypeKind k, std::vector<Type> e, AttributeTypes a, std::set<std::string, std::less<>> o)
        : kind(k), elements(std::move(e)), attributes(std::move(a)), optional(std::move(o)) {
        has_optional = !optional.empty();
        for (const Type& t : elements) has_optional = has_optional || t.node_->has_optional;
        for (const auto& [_, t] : attributes) has_optional = has_optional || t.node_->has_optional;
    }
};

namespace {
std::shared_ptr<const Type::Node> primitive_node(TypeKind k) {
    return std::make_shared<const Type::Node>(k, std::vector<Type>{}, Type::AttributeTypes{},
                                              std::set<std::string, std::less<>>{});
}
const std::vector<Type> no_types;
const Type::AttributeTypes no_attributes;
const std::set<std::string, std::less<>> no_names;
}  // namespace

Type::Type() : Type(dynamic()) {}

Type Type::dynamic() {
    static const auto n = primitive_node(TypeKind::dynamic);
    return Type(n);
}
Type Type::string() {
    static const auto n = primitive_node(TypeKind::string);
    return Type(n);
}
Type Type::number() {
    static const auto n = primitive_node(TypeKind::number);
    return Type(n);
}
Type Type::boolean() {
    static const auto n = primitive_node(TypeKind::boolean);
    return Type(n);
}
Type Type::list(Type element) {
    return Type(std::make_shared<const Node>(TypeKind::list, std::vector<Type>{std::move(element)}, AttributeTypes{},
                                             std::set<std::string, std::less<>>{}));
}
Type Type::set(Type element) {
    return Type(std::make_shared<const Node>(TypeKind::set, std::vector<Type>{std::move(element)}, AttributeTypes{},
                                             std::set<std::string, std::less<>>{}));
}
Type Type::map(Type element) {
    return Type(std::make_shared<const Node>(TypeKind::map, std::vector<Type>{std::move(element)}, AttributeTypes{},
                                             std::set<std::string, std::less<>>{}));
}
Type Type::tuple(std::vector<Type> elements) {
    return Type(std::make_shared<const Node>(TypeKind::tuple, std::move(elements), AttributeTypes{},
                                             std::set<std::string, std::less<>>{}));
}
Type Type::object(AttributeTypes attributes, std::set<std::string, std::less<>> optional) {
    for (const auto& name : optional) {
        if (!attributes.contains(name)) throw std::invalid_argument("optional attribute is not an attribute: " + name);
    }
    return Type(std::make_shared<const Node>(TypeKind::object, std::vector<Type>{}, std::move(attributes),
                                             std::move(optional)));
}

TypeKind Type::kind() const { return node_->kind; }

bool Type::is_primitive() const {
    const TypeKind k = kind();
    return k == TypeKind::string || k == TypeKind::number || k == TypeKind::boolean;
}
bool Type::is_collection() const { return is_list() || is_set() || is_map(); }

const Type& Type::element() const {
    if (!is_collection()) throw std::logic_error("element() of a non-collection type");
    return node_->elements.front();
}
const std::vector<Type>& Type::tuple_elements() const { return is_tuple() ? node_->elements : no_types; }
const Type::AttributeTypes& Type::attributes() const { return is_object() ? node_->attributes : no_attributes; }
const std::set<std::string, std::less<>>& Type::optional_attributes() const {
    return is_object() ? node_->optional : no_names;
}
bool Type::has_attribute(std::string_view name) const { return attributes().find(name) != attributes().end(); }

bool Type::has_dynamic() const {
    switch (kind()) {
        case TypeKind::dynamic: return true;
        case TypeKind::list:
        case TypeKind::set:
        case TypeKind::map: return element().has_dynamic();
        case TypeKind::tuple:
            for (const Type& t : tuple_elements())
                if (t.has_dynamic()) return true;
            return false;
        case TypeKind::object:
            for (const auto& [_, t] : attributes())
                if (t.has_dynamic()) return true;
            return false;
        default: return false;
    }
}

Type Type::without_optional_attributes() const {
    if (!node_->has_optional) return *this;
    switch (kind()) {
        case TypeKind::list: return list(element().without_optional_attributes());
        case TypeKind::set: return set(element().without_optional_attributes());
        case TypeKind::map: return map(element().without_optional_attributes());
        case TypeKind::tuple: {
            std::vector<Type> out;
            for (const Type& t : tuple_elements()) out.push_back(t.without_optional_attributes());
            return tuple(std::move(out));
        }
        case TypeKind::object: {
            AttributeTypes out;
            for (const auto& [name, t] : attributes()) out.emplace(name, t.without_optional_attributes());
            return object(std::move(out));
        }
        default: return *this;
    }
}

std::string Type::friendly_name() const {
    switch (kind()) {
        case TypeKind::dynamic: return "dynamic";
        case TypeKind::string: return "string";
        case TypeKind::number: return "number";
        case TypeKind::boolean: return "bool";
        case TypeKind::list: return "list of " + element().friendly_name();
        case TypeKind::set: return "set of " + element().friendly_name();
        case TypeKind::map: return "map of " + element().friendly_name();
        case TypeKind::tuple: return "tuple";
        case TypeKind::object: return "object";
    }
    return "?";
}

bool operator==(const Type& a, const Type& b) {
    if (a.node_ == b.node_) return true;
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case TypeKind::list:
        case TypeKind::set:
        case TypeKind::map: return a.element() == b.element();
        case TypeKind::tuple: return a.tuple_elements() == b.tuple_elements();
        case TypeKind::object:
            return a.attributes() == b.attributes() && a.optional_attributes() == b.optional_attributes();
        default: return true;
    }
}

}  // namespace tfsift::cty
