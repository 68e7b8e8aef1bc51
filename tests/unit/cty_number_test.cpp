// Number parsing and shortest-decimal formatting, checked against the texts
// Go's big.Float produces at cty's 512-bit precision.
#include <catch2/catch.hpp>

#include "tfsift/cty/number.hpp"

using tfsift::cty::Number;

namespace {
std::string text_of(std::string_view literal) {
    const auto n = Number::parse(literal);
    REQUIRE(n.has_value());
    return n->text();
}
Number num(std::string_view s) { return *Number::parse(s); }
}  // namespace

TEST_CASE("number literals print in plain shortest decimal", "[cty][number]") {
    CHECK(text_of("1e3") == "1000");
    CHECK(text_of("1.10") == "1.1");
    CHECK(text_of("1e-6") == "0.000001");
    CHECK(text_of("-0") == "-0");
    CHECK(text_of("0") == "0");
    CHECK(text_of("00012") == "12");
    CHECK(text_of(".5") == "0.5");
    CHECK(text_of("1.") == "1");
    CHECK(text_of("1p3") == "8");
    CHECK(text_of("123456789012345678901234567890") == "123456789012345678901234567890");
    CHECK(text_of("1e400") == "1" + std::string(400, '0'));
    CHECK(text_of("1e-400") == "0." + std::string(399, '0') + "1");
    CHECK(text_of("9223372036854775807") == "9223372036854775807");
    CHECK(text_of("-9223372036854775808") == "-9223372036854775808");
    CHECK(text_of("9223372036854775808") == "9223372036854775808");
    CHECK(text_of("-42.0") == "-42");
    CHECK(Number::from_int(-9223372036854775807 - 1).text() == "-9223372036854775808");
    CHECK(Number::from_int(7).text() == "7");
    CHECK(text_of("Inf") == "+Inf");
    CHECK(text_of("-inf") == "-Inf");
}

TEST_CASE("number parsing rejects what big.ParseFloat rejects", "[cty][number]") {
    for (const char* bad : {"", " 1", "1 ", "1e", "INF", "nan", "0x10", "1_000", "infinity", "+", ".", "e5"}) {
        CAPTURE(bad);
        CHECK_FALSE(Number::parse(bad).has_value());
    }
}

TEST_CASE("arithmetic follows big.Float at 512 bits", "[cty][number]") {
    CHECK(num("0.1").add(num("0.2"))->text() == "0.3");
    // Texts as the Go oracle prints them.
    CHECK(num("2").divide(num("3"))->text() == "0." + std::string(153, '6') + "7");
    CHECK(num("1").divide(num("3"))->text() == "0." + std::string(154, '3') + "5");
    CHECK(num("123456789012345678901234567890").add(num("1"))->text() == "123456789012345678901234567891");
    CHECK(num("1e308").multiply(num("10"))->text() == "1" + std::string(309, '0'));
    CHECK(num("0").multiply(num("-5"))->text() == "-0");
}

TEST_CASE("modulo keeps the dividend's sign and x % 0 is x", "[cty][number]") {
    CHECK(num("-7").modulo(num("3"))->text() == "-1");
    CHECK(num("7").modulo(num("-3"))->text() == "1");
    CHECK(num("5.5").modulo(num("2"))->text() == "1.5");
    CHECK(num("-5.5").modulo(num("2"))->text() == "-1.5");
    CHECK(num("1").modulo(num("0"))->text() == "1");
    // 0.7 is not exact in binary, so neither is the remainder.
    CHECK(num("3").modulo(num("0.7"))->text() == "0.2" + std::string(153, '0') + "6");
}

TEST_CASE("division by zero gives infinities, undefined forms fail", "[cty][number]") {
    CHECK(num("1").divide(num("0"))->text() == "+Inf");
    CHECK(num("-1").divide(num("0"))->text() == "-Inf");
    CHECK_FALSE(num("0").divide(num("0")).has_value());
    const Number inf = num("Inf");
    CHECK_FALSE(inf.subtract(inf).has_value());
    CHECK_FALSE(inf.multiply(num("0")).has_value());
    CHECK_FALSE(inf.modulo(num("3")).has_value());
}

TEST_CASE("number equality compares the shortest text, -0 equals 0", "[cty][number]") {
    CHECK(num("-0").equals(num("0")));
    CHECK(num("1.0").equals(num("1")));
    CHECK_FALSE(num("1").equals(num("1.0000001")));
    CHECK(num("1").compare(num("2")) < 0);
    CHECK(Number::from_int(5).to_int64() == 5);
    CHECK_FALSE(num("1.5").to_int64().has_value());
}
