// Conversions, unification and JSON encoding of cty values.
#include <catch2/catch.hpp>

#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"

using namespace tfsift::cty;

namespace {
Value n(std::string_view s) { return Value::number(*Number::parse(s)); }
Value s(std::string_view v) { return Value::string(v); }
std::string json(const Value& v) { return to_json_text(v).value_or("<none>"); }
}  // namespace

TEST_CASE("primitive conversions", "[cty][convert]") {
    CHECK(json(convert(n("1.50"), Type::string()).value) == "\"1.5\"");
    CHECK(json(convert(Value::boolean(true), Type::string()).value) == "\"true\"");
    CHECK(json(convert(s("12"), Type::number()).value) == "12");
    CHECK(convert(s("x"), Type::number()).error == "a number is required");
    CHECK(json(convert(s("1"), Type::boolean()).value) == "true");
    CHECK(json(convert(s("false"), Type::boolean()).value) == "false");
    CHECK(convert(s("True"), Type::boolean()).error.find("lowercase") != std::string::npos);
    CHECK_FALSE(can_convert(Type::string(), Type::number(), Safety::safe));
    CHECK(can_convert(Type::string(), Type::number(), Safety::unsafe));
    CHECK(can_convert(Type::number(), Type::string(), Safety::safe));
}

TEST_CASE("structural to collection conversions", "[cty][convert]") {
    const Value tup = Value::tuple({n("1"), s("a")});
    const Converted l = convert(tup, Type::list(Type::string()));
    REQUIRE(l.ok());
    CHECK(l.value.type() == Type::list(Type::string()));
    CHECK(json(l.value) == "[\"1\",\"a\"]");
    // list(any) unifies the element types first.
    const Converted any = convert(tup, Type::list(Type::dynamic()));
    REQUIRE(any.ok());
    CHECK(any.value.type() == Type::list(Type::string()));
    const Converted m = convert(Value::object({{"a", n("1")}, {"b", s("x")}}), Type::map(Type::dynamic()));
    REQUIRE(m.ok());
    CHECK(m.value.type() == Type::map(Type::string()));
    CHECK(json(m.value) == "{\"a\":\"1\",\"b\":\"x\"}");
    // number and bool have no common type.
    CHECK_FALSE(convert(Value::object({{"a", n("1")}, {"b", Value::boolean(true)}}), Type::map(Type::dynamic())).ok());
    CHECK_FALSE(convert(Value::tuple({n("1"), s("x")}), Type::list(Type::number())).ok());
    // list -> set is unsafe; duplicates collapse.
    const Value lst = Value::list(Type::number(), {n("1"), n("1"), n("2")});
    CHECK_FALSE(can_convert(lst.type(), Type::set(Type::number()), Safety::safe));
    CHECK(convert(lst, Type::set(Type::number())).value.length() == 2);
}

TEST_CASE("object conversions drop extra attributes and need required ones", "[cty][convert]") {
    const Type want = Type::object({{"a", Type::string()}, {"b", Type::number()}}, {"b"});
    const Converted c = convert(Value::object({{"a", n("1")}, {"z", n("2")}}), want);
    REQUIRE(c.ok());
    CHECK(json(c.value) == "{\"a\":\"1\",\"b\":null}");
    CHECK_FALSE(can_convert(Type::object({{"b", Type::number()}}), want, Safety::unsafe));
}

TEST_CASE("unification", "[cty][unify]") {
    const Type num_str[] = {Type::number(), Type::string()};
    CHECK(unify(num_str, Safety::unsafe)->type == Type::string());
    const Type tuples[] = {Type::tuple({Type::number()}), Type::tuple({Type::string(), Type::number()})};
    CHECK(unify(tuples, Safety::unsafe)->type == Type::list(Type::string()));
    const Type same_len[] = {Type::tuple({Type::number()}), Type::tuple({Type::string()})};
    CHECK(unify(same_len, Safety::unsafe)->type == Type::tuple({Type::string()}));
    const Type objects[] = {Type::object({{"a", Type::number()}}),
                            Type::object({{"a", Type::string()}, {"b", Type::number()}})};
    CHECK(unify(objects, Safety::unsafe)->type == Type::map(Type::string()));
    const Type incompatible[] = {Type::object({}), Type::tuple({})};
    CHECK_FALSE(unify(incompatible, Safety::unsafe).has_value());
    const Type bool_num[] = {Type::boolean(), Type::number()};
    CHECK_FALSE(unify(bool_num, Safety::unsafe).has_value());
}

TEST_CASE("equality does not convert", "[cty][value]") {
    CHECK_FALSE(n("1").equals(s("1")).as_bool());
    CHECK(n("1").equals(n("1.0")).as_bool());
    CHECK(Value::null(Type::string()).equals(Value::dynamic_null()).as_bool());
    CHECK_FALSE(Value::tuple({n("1")}).equals(Value::list(Type::number(), {n("1")})).as_bool());
    CHECK_FALSE(n("1").equals(Value::unknown(Type::number())).is_known());
}

TEST_CASE("strings and keys are NFC-normalised", "[cty][value]") {
    CHECK(s("e\xCC\x81").as_string() == "\xC3\xA9");
    const Value o = Value::object({{"e\xCC\x81", n("1")}});
    CHECK(o.attributes().begin()->first == "\xC3\xA9");
}

TEST_CASE("JSON encoding", "[cty][json]") {
    CHECK(json(Value::tuple({n("1e400"), Value::dynamic_null(), s("a\"\n")})) ==
          "[1" + std::string(400, '0') + ",null,\"a\\\"\\n\"]");
    CHECK_FALSE(to_json_text(Value::tuple({Value::dynamic_unknown()})).has_value());
    CHECK_FALSE(to_json_text(Value::number(*Number::parse("Inf"))).has_value());
    CHECK(to_json(n("-0"))->dump() == "-0.0");
    CHECK(to_json(Value::object({{"k", n("2")}}))->dump() == "{\"k\":2}");
}
