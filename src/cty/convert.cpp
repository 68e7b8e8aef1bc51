// Conversions and unification following go-cty's convert package decision
// for decision, so that evaluation gives the same types and values.
#include "tfsift/cty/convert.hpp"

#include <vector>

namespace tfsift::cty {

namespace {

bool is_unsafe(Safety s) { return s == Safety::unsafe; }

std::optional<Unification> unify_types(const std::vector<Type>& types, Safety safety);

// The element type a tuple converts to when a collection of "any" is wanted.
std::optional<Type> common_element_type(const std::vector<Type>& element_types, Safety safety) {
    const auto u = unify_types(element_types, safety);
    if (!u) return std::nullopt;
    if (u->type.is_dynamic()) {
        // Unifying to "any" is only acceptable when every element is dynamic.
        for (const Type& t : element_types)
            if (!t.is_dynamic()) return std::nullopt;
    }
    return u->type;
}

std::vector<Type> attribute_type_list(const Type& object) {
    std::vector<Type> out;
    for (const auto& [_, t] : object.attributes()) out.push_back(t);
    return out;
}

bool primitive_convertible(const Type& in, const Type& out, Safety safety) {
    if (in == out) return true;
    if (out.kind() == TypeKind::string) return true;  // number and bool print safely
    return is_unsafe(safety) && in.kind() == TypeKind::string;
}

}  // namespace

bool can_convert(const Type& in, const Type& out, Safety safety) {
    if (out.is_dynamic()) return true;
    if (in == out) return true;
    if (is_unsafe(safety) && in.is_dynamic()) return true;
    if (in.is_primitive() && out.is_primitive()) return primitive_convertible(in, out, safety);
    if (out.is_object() && in.is_object()) {
        for (const auto& [name, out_type] : out.attributes()) {
            const auto it = in.attributes().find(name);
            if (it == in.attributes().end()) {
                if (out.optional_attributes().contains(name)) continue;
                return false;
            }
            if (!can_convert(it->second, out_type, safety)) return false;
        }
        return true;
    }
    if (out.is_tuple() && in.is_tuple()) {
        const auto& a = in.tuple_elements();
        const auto& b = out.tuple_elements();
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!can_convert(a[i], b[i], safety)) return false;
        return true;
    }
    if (out.is_list() && (in.is_list() || in.is_set())) return can_convert(in.element(), out.element(), safety);
    if (out.is_set() && (in.is_list() || in.is_set())) {
        // A list loses its order and duplicates in a set.
        if (in.is_list() && !is_unsafe(safety)) return false;
        return can_convert(in.element(), out.element(), safety);
    }
    if (out.is_map() && in.is_map()) return can_convert(in.element(), out.element(), safety);
    if ((out.is_list() || out.is_set()) && in.is_tuple()) {
        const auto& etys = in.tuple_elements();
        if (etys.empty()) return true;
        Type ety = out.element();
        if (ety.is_dynamic()) {
            const auto common = common_element_type(etys, safety);
            if (!common) return false;
            ety = *common;
        }
        for (const Type& t : etys)
            if (!can_convert(t, ety, safety)) return false;
        return true;
    }
    if (out.is_map() && in.is_object()) {
        if (in.attributes().empty()) return true;
        Type ety = out.element();
        if (ety.is_dynamic()) {
            const auto u = unify_types(attribute_type_list(in), safety);
            if (!u) return false;
            ety = u->type;
        }
        for (const auto& [_, t] : in.attributes())
            if (!can_convert(t, ety, safety)) return false;
        return true;
    }
    if (out.is_object() && in.is_map()) {
        if (!is_unsafe(safety)) return false;  // the keys may not match the attributes
        for (const auto& [name, t] : out.attributes()) {
            if (!can_convert(in.element(), t, safety) && !out.optional_attributes().contains(name)) return false;
        }
        return true;
    }
    return false;
}

namespace {

// cty's dynamicReplace: `out`, with dynamic parts filled in from `in`.
Type dynamic_replace(const Type& in, const Type& out) {
    if (in.is_dynamic()) return out;
    switch (out.kind()) {
        case TypeKind::dynamic: return in;
        case TypeKind::string:
        case TypeKind::number:
        case TypeKind::boolean: return out;
        case TypeKind::map: {
            Type element = Type::dynamic();
            if (in.is_map()) element = dynamic_replace(in.element(), out.element());
            if (in.is_object()) {
                const auto u = unify_types(attribute_type_list(in), Safety::unsafe);
                element = dynamic_replace(u ? u->type : Type::dynamic(), out.element());
            }
            return Type::map(element);
        }
        case TypeKind::object: {
            Type::AttributeTypes attrs;
            for (const auto& [name, t] : out.attributes()) {
                if (in.is_map())
                    attrs.emplace(name, dynamic_replace(in.element(), t));
                else if (in.is_object() && in.has_attribute(name))
                    attrs.emplace(name, dynamic_replace(in.attributes().find(name)->second, t));
                else
                    attrs.emplace(name, t);
            }
            return Type::object(std::move(attrs));
        }
        case TypeKind::set:
        case TypeKind::list: {
            Type element = Type::dynamic();
            if (in.is_set() || in.is_list()) element = dynamic_replace(in.element(), out.element());
            if (in.is_tuple()) {
                const auto u = unify_types(in.tuple_elements(), Safety::unsafe);
                element = dynamic_replace(u ? u->type : Type::dynamic(), out.element());
            }
            return out.is_set() ? Type::set(element) : Type::list(element);
        }
        case TypeKind::tuple: {
            std::vector<Type> elements;
            const auto& outs = out.tuple_elements();
            const auto& ins = in.tuple_elements();
            for (std::size_t i = 0; i < outs.size(); ++i)
                elements.push_back(i < ins.size() ? dynamic_replace(ins[i], outs[i]) : outs[i]);
            return Type::tuple(std::move(elements));
        }
    }
    return out;
}

Converted failure(std::string message) { return {Value(), std::move(message)}; }

std::string index_path(std::size_t i, const std::string& error) {
    return "element " + std::to_string(i) + ": " + error;
}
std::string key_path(const std::string& key, const std::string& error) { return "attribute \"" + key + "\": " + error; }

Value null_without_optional(const Value& v) {
    if (v.is_null()) return Value::null(v.type().without_optional_attributes());
    return v;
}

Converted convert_primitive(const Value& v, const Type& out) {
    const Type& in = v.type();
    if (out.kind() == TypeKind::string) {
        if (in.kind() == TypeKind::number) return {Value::string(v.as_number().text()), {}};
        return {Value::string(v.as_bool() ? "true" : "false"), {}};
    }
    if (out.kind() == TypeKind::number) {
        auto n = Number::parse(v.as_string());
        if (!n) return failure("a number is required");
        return {Value::number(std::move(*n)), {}};
    }
    const std::string& s = v.as_string();
    if (s == "true" || s == "1") return {Value::boolean(true), {}};
    if (s == "false" || s == "0") return {Value::boolean(false), {}};
    std::string lower;
    for (const char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (lower == "true") return failure("a bool is required; to convert from string, use lowercase \"true\"");
    if (lower == "false") return failure("a bool is required; to convert from string, use lowercase \"false\"");
    return failure("a bool is required");
}

bool all_same_type(const Value::Elements& elems) {
    for (const Value& e : elems)
        if (!(e.type() == elems.front().type())) return false;
    return true;
}

// cty's conversionUnifyListElements / conversionUnifyCollectionElements:
// converts every element to the elements' unified type.
template <class Each>
std::string unify_elements(std::vector<Value*> elems, Safety safety, Each&& describe) {
    std::vector<Type> types;
    types.reserve(elems.size());
    for (const Value* e : elems) types.push_back(e->type());
    const auto u = unify_types(types, safety);
    if (!u) return "cannot find a common base type for all elements";
    for (std::size_t i = 0; i < elems.size(); ++i) {
        if (elems[i]->type() == u->type) continue;
        Converted c = convert(*elems[i], u->type, safety);
        if (!c.ok()) return describe(i, c.error);
        *elems[i] = std::move(c.value);
    }
    return {};
}

}  // namespace

Converted convert(const Value& v, const Type& out_given, Safety safety) {
    if (out_given.is_dynamic()) return {v, {}};
    if (!v.is_known() || v.is_null()) {
        const Type out = dynamic_replace(v.type(), out_given.without_optional_attributes());
        return {v.is_known() ? Value::null(out) : Value::unknown(out), {}};
    }
    const Type& in = v.type();
    const Type& out = out_given;
    if (in == out) return {v, {}};
    if (!can_convert(in, out, safety)) return failure(mismatch_message(in, out));

    if (in.is_primitive() && out.is_primitive()) return convert_primitive(v, out);

    if (out.is_object() && in.is_object()) {
        Value::Attributes attrs;
        for (const auto& [name, val] : v.attributes()) {
            const auto it = out.attributes().find(name);
            if (it == out.attributes().end()) continue;  // dropped
            Converted c = convert(val, it->second, safety);
            if (!c.ok()) return failure(key_path(name, c.error));
            attrs.emplace(name, null_without_optional(c.value));
        }
        for (const auto& name : out.optional_attributes()) {
            if (!attrs.contains(name))
                attrs.emplace(name, Value::null(out.attributes().find(name)->second.without_optional_attributes()));
        }
        return {Value::object(std::move(attrs)), {}};
    }
    if (out.is_tuple() && in.is_tuple()) {
        Value::Elements elems;
        const auto& etys = out.tuple_elements();
        for (std::size_t i = 0; i < v.elements().size(); ++i) {
            Converted c = convert(v.elements()[i], etys[i], safety);
            if (!c.ok()) return failure(index_path(i, c.error));
            elems.push_back(std::move(c.value));
        }
        return {Value::tuple(std::move(elems)), {}};
    }
    if ((out.is_list() || out.is_set()) && (in.is_list() || in.is_set() || in.is_tuple())) {
        const bool to_list = out.is_list();
        Type ety = out.element();
        if (in.is_tuple()) {
            if (v.elements().empty()) {
                const Type t = ety.without_optional_attributes();
                return {to_list ? Value::list(t, {}) : Value::set(t, {}), {}};
            }
            if (ety.is_dynamic()) ety = *common_element_type(in.tuple_elements(), safety);
        }
        Value::Elements elems;
        for (std::size_t i = 0; i < v.elements().size(); ++i) {
            const Value& e = v.elements()[i];
            Converted c = e.type() == ety ? Converted{e, {}} : convert(e, ety, safety);
            if (!c.ok()) return failure(index_path(i, c.error));
            // Tuple-to-list conversion keeps nulls typed as converted.
            elems.push_back(in.is_tuple() && to_list ? c.value : null_without_optional(c.value));
        }
        if (elems.empty()) {
            const Type t = ety.is_dynamic() ? in.element() : ety.without_optional_attributes();
            return {to_list ? Value::list(t, {}) : Value::set(t, {}), {}};
        }
        if (in.is_tuple() && to_list) {
            std::vector<Value*> ptrs;
            for (Value& e : elems) ptrs.push_back(&e);
            std::string err = unify_elements(ptrs, safety, index_path);
            if (!err.empty()) return failure(err);
        }
        if (!all_same_type(elems)) {
            return failure(std::string("element types must all match for conversion to ") + (to_list ? "list" : "set"));
        }
        const Type t = elems.front().type();
        return {to_list ? Value::list(t, std::move(elems)) : Value::set(t, std::move(elems)), {}};
    }
    if (out.is_map() && (in.is_map() || in.is_object())) {
        Type ety = out.element();
        if (in.is_object()) {
            if (v.attributes().empty()) return {Value::map(ety.without_optional_attributes(), {}), {}};
            if (ety.is_dynamic()) ety = unify_types(attribute_type_list(in), safety)->type;
        }
        Value::Attributes elems;
        for (const auto& [k, e] : v.attributes()) {
            Converted c = e.type() == ety ? Converted{e, {}} : convert(e, ety, safety);
            if (!c.ok()) return failure(key_path(k, c.error));
            elems.emplace(k, std::move(c.value));
        }
        if (elems.empty()) return {Value::map(ety.is_dynamic() ? in.element() : ety, {}), {}};
        if (ety.is_collection() || ety.is_object()) {
            std::vector<Value*> ptrs;
            std::vector<std::string> keys;
            for (auto& [k, e] : elems) {
                ptrs.push_back(&e);
                keys.push_back(k);
            }
            // Map-to-map unification is always safe upstream.
            std::string err = unify_elements(ptrs, in.is_map() ? Safety::safe : safety,
                                             [&](std::size_t i, const std::string& e) { return key_path(keys[i], e); });
            if (!err.empty()) return failure(err);
        }
        Value::Elements check;
        for (const auto& [_, e] : elems) check.push_back(e);
        if (!all_same_type(check)) return failure("element types must all match for conversion to map");
        const Type t = elems.begin()->second.type();
        return {Value::map(t, std::move(elems)), {}};
    }
    if (out.is_object() && in.is_map()) {
        Value::Attributes attrs;
        for (const auto& [k, e] : v.attributes()) {
            const auto it = out.attributes().find(k);
            if (it == out.attributes().end()) continue;
            if (!can_convert(e.type(), it->second, safety))
                return failure("map element type is incompatible with attribute \"" + k +
                               "\": " + mismatch_message(e.type(), it->second));
            Converted c = convert(e, it->second, safety);
            if (!c.ok()) return failure(key_path(k, c.error));
            attrs.emplace(k, null_without_optional(c.value));
        }
        for (const auto& [name, t] : out.attributes()) {
            if (attrs.contains(name)) continue;
            if (!out.optional_attributes().contains(name))
                return failure("map has no element for required attribute \"" + name + "\"");
            attrs.emplace(name, Value::null(t));
        }
        return {Value::object(std::move(attrs)), {}};
    }
    return failure(mismatch_message(in, out));
}

namespace {

// Whether `marked` has optional-attribute markers anywhere.
bool has_markers(const Type& marked) {
    switch (marked.kind()) {
        case TypeKind::list:
        case TypeKind::set:
        case TypeKind::map: return has_markers(marked.element());
        case TypeKind::tuple:
            for (const Type& t : marked.tuple_elements())
                if (has_markers(t)) return true;
            return false;
        case TypeKind::object:
            if (!marked.optional_attributes().empty()) return true;
            for (const auto& [_, t] : marked.attributes())
                if (has_markers(t)) return true;
            return false;
        default: return false;
    }
}

// plain == marked.without_optional_attributes(), without building the
// unmarked type (a conversion to a type constraint with optional
// attributes built it each time).
bool equal_to_unmarked(const Type& plain, const Type& marked) {
    if (plain == marked) return !has_markers(marked);
    if (plain.kind() != marked.kind()) return false;
    switch (plain.kind()) {
        case TypeKind::list:
        case TypeKind::set:
        case TypeKind::map: return equal_to_unmarked(plain.element(), marked.element());
        case TypeKind::tuple: {
            const auto& a = plain.tuple_elements();
            const auto& b = marked.tuple_elements();
            if (a.size() != b.size()) return false;
            for (std::size_t i = 0; i < a.size(); ++i)
                if (!equal_to_unmarked(a[i], b[i])) return false;
            return true;
        }
        case TypeKind::object: {
            if (!plain.optional_attributes().empty()) return false;
            const auto& a = plain.attributes();
            const auto& b = marked.attributes();
            if (a.size() != b.size()) return false;
            for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
                if (i->first != j->first || !equal_to_unmarked(i->second, j->second)) return false;
            return true;
        }
        default: return true;
    }
}

}  // namespace

Converted convert(const Value& v, const Type& out) {
    if (equal_to_unmarked(v.type(), out)) return {v, {}};
    return convert(v, out, Safety::unsafe);
}

Converted Unification::apply(const Value& v, Safety safety) const {
    if (to_unknown) return {Value::dynamic_unknown(), {}};
    if (v.type() == type) return {v, {}};
    return convert(v, type, safety);
}

// ---- unification --------------------------------------------------------------

namespace {

// cty's compareTypes: negative when a is more general than b (preferred as a
// unification target), positive when b is, zero when neither.
int compare_types(Type a, Type b) {
    if (a.is_dynamic() || b.is_dynamic()) {
        if (!a.is_dynamic()) return -1;
        if (!b.is_dynamic()) return 1;
        return 0;
    }
    if (a.is_primitive() && b.is_primitive()) {
        if (a.kind() == TypeKind::string || b.kind() == TypeKind::string) {
            if (a.kind() != TypeKind::string) return 1;
            if (b.kind() != TypeKind::string) return -1;
            return 0;
        }
    }
    if ((a.is_list() && b.is_list()) || (a.is_set() && b.is_set()) || (a.is_map() && b.is_map()))
        return compare_types(a.element(), b.element());

    int swap = 1;
    if ((a.is_tuple() && b.is_list()) || (a.is_object() && b.is_map()) || (a.is_set() && b.is_tuple()) ||
        (a.is_set() && b.is_list())) {
        std::swap(a, b);
        swap = -1;
    }
    if (b.is_set() && (a.is_tuple() || a.is_list())) return -1 * swap;
    if (a.is_list() && b.is_tuple()) return -1 * swap;
    if (a.is_map() && b.is_object()) return -1 * swap;

    auto fold = [&](bool a_super, bool b_super) {
        if (a_super && b_super) return 0;
        if (a_super) return -1 * swap;
        if (b_super) return 1 * swap;
        return 0;
    };
    if (a.is_object() && b.is_object()) {
        const auto& aa = a.attributes();
        const auto& ba = b.attributes();
        if (aa.size() != ba.size()) return 0;
        bool a_super = false;
        bool b_super = false;
        for (const auto& [k, t] : aa) {
            const auto it = ba.find(k);
            if (it == ba.end()) return 0;
            const int c = compare_types(t, it->second);
            if (c < 0)
                a_super = true;
            else if (c > 0)
                b_super = true;
        }
        return fold(a_super, b_super);
    }
    if (a.is_tuple() && b.is_tuple()) {
        const auto& ae = a.tuple_elements();
        const auto& be = b.tuple_elements();
        if (ae.size() != be.size()) return 0;
        bool a_super = false;
        bool b_super = false;
        for (std::size_t i = 0; i < ae.size(); ++i) {
            const int c = compare_types(ae[i], be[i]);
            if (c < 0)
                a_super = true;
            else if (c > 0)
                b_super = true;
        }
        return fold(a_super, b_super);
    }
    return 0;
}

// cty's sortTypes: a topological order, most general first.
std::vector<std::size_t> preference_order(const std::vector<Type>& types) {
    const std::size_t n = types.size();
    std::vector<std::vector<std::size_t>> edges(n);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            const int c = compare_types(types[i], types[j]);
            if (c < 0)
                edges[i].push_back(j);
            else if (c > 0)
                edges[j].push_back(i);
        }
    }
    std::vector<std::size_t> in_degree(n, 0);
    for (const auto& outs : edges)
        for (const std::size_t j : outs) ++in_degree[j];
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i)
        if (in_degree[i] == 0) order.push_back(i);
    for (std::size_t q = 0; q < order.size(); ++q) {
        for (const std::size_t j : edges[order[q]])
            if (--in_degree[j] == 0) order.push_back(j);
    }
    return order;
}

bool all_convert(const std::vector<Type>& types, const Type& target, Safety safety) {
    for (const Type& t : types)
        if (!(t == target) && !can_convert(t, target, safety)) return false;
    return true;
}

std::optional<Unification> all_as_dynamic() { return Unification{Type::dynamic(), true}; }

std::optional<Unification> unify_collections(TypeKind kind, const std::vector<Type>& types, Safety safety,
                                             bool has_dynamic) {
    if (has_dynamic) return all_as_dynamic();
    std::vector<Type> elements;
    elements.reserve(types.size());
    for (const Type& t : types) elements.push_back(t.element());
    const auto e = unify_types(elements, safety);
    if (!e) return std::nullopt;
    const Type result = kind == TypeKind::list  ? Type::list(e->type)
                        : kind == TypeKind::set ? Type::set(e->type)
                                                : Type::map(e->type);
    if (!all_convert(types, result, safety)) return std::nullopt;
    return Unification{result};
}

std::optional<Unification> unify_objects_to_map(const std::vector<Type>& types, Safety safety) {
    std::vector<Type> attrs;
    for (const Type& t : types)
        for (const auto& [_, a] : t.attributes()) attrs.push_back(a);
    const auto e = unify_types(attrs, safety);
    if (!e) return std::nullopt;
    const Type result = Type::map(e->type);
    if (!all_convert(types, result, safety)) return std::nullopt;
    return Unification{result};
}

std::optional<Unification> unify_objects(const std::vector<Type>& types, Safety safety, bool has_dynamic) {
    if (has_dynamic) return all_as_dynamic();
    const auto& first = types.front().attributes();
    for (std::size_t i = 1; i < types.size(); ++i) {
        const auto& these = types[i].attributes();
        if (these.size() != first.size()) return unify_objects_to_map(types, safety);
        for (const auto& [name, _] : these)
            if (!first.contains(name)) return unify_objects_to_map(types, safety);
    }
    Type::AttributeTypes result;
    for (const auto& [name, _] : first) {
        std::vector<Type> across;
        across.reserve(types.size());
        for (const Type& t : types) across.push_back(t.attributes().find(name)->second);
        const auto u = unify_types(across, safety);
        if (!u) return std::nullopt;
        result.emplace(name, u->type);
    }
    const Type object = Type::object(std::move(result));
    if (!all_convert(types, object, safety)) return unify_objects_to_map(types, safety);
    return Unification{object};
}

std::optional<Unification> unify_tuples_to_list(const std::vector<Type>& types, Safety safety) {
    std::vector<Type> elements;
    for (const Type& t : types)
        for (const Type& e : t.tuple_elements()) elements.push_back(e);
    const auto e = unify_types(elements, safety);
    if (!e) return std::nullopt;
    const Type result = Type::list(e->type);
    if (!all_convert(types, result, safety)) return std::nullopt;
    return Unification{result};
}

std::optional<Unification> unify_tuples(const std::vector<Type>& types, Safety safety, bool has_dynamic) {
    if (has_dynamic) return all_as_dynamic();
    const std::size_t n = types.front().tuple_elements().size();
    for (const Type& t : types)
        if (t.tuple_elements().size() != n) return unify_tuples_to_list(types, safety);
    std::vector<Type> result;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Type> across;
        across.reserve(types.size());
        for (const Type& t : types) across.push_back(t.tuple_elements()[i]);
        const auto u = unify_types(across, safety);
        if (!u) return std::nullopt;
        result.push_back(u->type);
    }
    const Type tuple = Type::tuple(std::move(result));
    if (!all_convert(types, tuple, safety)) return unify_tuples_to_list(types, safety);
    return Unification{tuple};
}

// Re-unifies with every structural type of `kind` replaced by `as`, which
// must come out as a collection of `as`'s kind.
std::optional<Unification> reunify_with(const std::vector<Type>& types, TypeKind structural, const Type& as,
                                        Safety safety) {
    std::vector<Type> replaced = types;
    for (Type& t : replaced)
        if (t.kind() == structural) t = as;
    auto u = unify_types(replaced, safety);
    if (!u || u->type.kind() != as.kind()) return std::nullopt;
    return u;
}

std::optional<Unification> unify_types(const std::vector<Type>& types, Safety safety) {
    if (types.empty()) return std::nullopt;
    std::size_t maps = 0, lists = 0, sets = 0, objects = 0, tuples = 0, dynamics = 0;
    for (const Type& t : types) {
        switch (t.kind()) {
            case TypeKind::map: ++maps; break;
            case TypeKind::list: ++lists; break;
            case TypeKind::set: ++sets; break;
            case TypeKind::object: ++objects; break;
            case TypeKind::tuple: ++tuples; break;
            case TypeKind::dynamic: ++dynamics; break;
            default: break;
        }
    }
    const std::size_t n = types.size();
    if (maps > 0 && maps + dynamics == n) return unify_collections(TypeKind::map, types, safety, dynamics > 0);
    if (maps > 0 && maps + objects + dynamics == n) {
        std::vector<Type> objs;
        for (const Type& t : types)
            if (t.is_object()) objs.push_back(t);
        if (const auto as_map = unify_objects_to_map(objs, safety); as_map && as_map->type.is_map()) {
            if (auto u = reunify_with(types, TypeKind::object, as_map->type, safety)) return u;
        }
    } else if (lists > 0 && lists + dynamics == n) {
        return unify_collections(TypeKind::list, types, safety, dynamics > 0);
    } else if (lists > 0 && lists + tuples + dynamics == n) {
        std::vector<Type> tups;
        for (const Type& t : types)
            if (t.is_tuple()) tups.push_back(t);
        if (const auto as_list = unify_tuples_to_list(tups, safety); as_list && as_list->type.is_list()) {
            if (auto u = reunify_with(types, TypeKind::tuple, as_list->type, safety)) return u;
        }
    } else if (sets > 0 && sets + dynamics == n) {
        return unify_collections(TypeKind::set, types, safety, dynamics > 0);
    } else if (objects > 0 && objects + dynamics == n) {
        return unify_objects(types, safety, dynamics > 0);
    } else if (tuples > 0 && tuples + dynamics == n) {
        return unify_tuples(types, safety, dynamics > 0);
    } else if (objects > 0 && tuples > 0) {
        return std::nullopt;
    }

    for (const std::size_t want : preference_order(types)) {
        if (all_convert(types, types[want], safety)) return Unification{types[want]};
    }
    return std::nullopt;
}

}  // namespace

std::optional<Unification> unify(std::span<const Type> types, Safety safety) {
    return unify_types(std::vector<Type>(types.begin(), types.end()), safety);
}

std::string mismatch_message(const Type& got, const Type& want) {
    if (want.is_object() && got.is_object()) {
        for (const auto& [name, _] : want.attributes()) {
            if (!got.has_attribute(name) && !want.optional_attributes().contains(name))
                return "attribute \"" + name + "\" is required";
        }
    }
    return want.friendly_name() + " required";
}

}  // namespace tfsift::cty
