#include <catch2/catch.hpp>

#include "tfsift/json/value.hpp"

using namespace tfsift;

namespace {
json::Document read(std::string text) {
    return json::parse(std::make_shared<const SourceFile>("test.tf.json", std::move(text)));
}
std::string_view slice(const json::Document& d, Range r) {
    return d.source->text().substr(r.start.byte, r.end.byte - r.start.byte);
}
}  // namespace

TEST_CASE("json: values keep their ranges and lines", "[json]") {
    auto doc = read("{\n  \"a\": [1, -2.5e3, true],\n  \"b\" : {\"c\": null, \"d\": \"x\\u00e9\\n\"}\n}\n");
    REQUIRE(doc.diagnostics.empty());
    const auto& root = doc.root;
    REQUIRE(root.kind == json::Kind::object);
    CHECK(doc.source->line(root.range.start) == 1);
    CHECK(doc.source->line(root.range.end) == 4);
    CHECK(slice(doc, root.range).front() == '{');
    CHECK(slice(doc, root.range).back() == '}');
    REQUIRE(root.members.size() == 2);

    const auto& a = root.members[0];
    CHECK(a.name == "a");
    CHECK(slice(doc, a.name_range) == "\"a\"");
    CHECK(doc.source->line(a.name_range.start) == 2);
    CHECK(slice(doc, a.value.range) == "[1, -2.5e3, true]");
    REQUIRE(a.value.items.size() == 3);
    CHECK(a.value.items[1].kind == json::Kind::number);
    CHECK(a.value.items[1].text == "-2.5e3");
    CHECK(a.value.items[2].boolean);

    const auto& b = root.members[1].value;
    CHECK(doc.source->line(b.range.start) == 3);
    REQUIRE(b.find("d") != nullptr);
    CHECK(b.find("d")->text == "x\xC3\xA9\n");
    CHECK(slice(doc, b.find("d")->range) == "\"x\\u00e9\\n\"");
    CHECK(b.find("c")->kind == json::Kind::null);
    CHECK(b.find("missing") == nullptr);
}

TEST_CASE("json: duplicate properties are all kept in order", "[json]") {
    auto doc = read(R"({"k": 1, "k": 2})");
    REQUIRE(doc.diagnostics.empty());
    REQUIRE(doc.root.members.size() == 2);
    CHECK(doc.root.members[0].value.text == "1");
    CHECK(doc.root.members[1].value.text == "2");
}

TEST_CASE("json: surrogate pairs decode to one code point", "[json]") {
    auto doc = read(R"(["\ud83d\ude00", "\ud800"])");
    REQUIRE(doc.diagnostics.empty());
    CHECK(doc.root.items[0].text == "\xF0\x9F\x98\x80");
    CHECK(doc.root.items[1].text == "\xEF\xBF\xBD");
}

TEST_CASE("json: malformed input gives one positioned error", "[json]") {
    struct Case {
        const char* text;
        std::uint32_t line;
        std::uint32_t column;
        const char* summary;
    };
    const Case cases[] = {
        {"", 1, 1, "Empty JSON document"},
        {"{\n  \"a\": 1,\n}", 3, 1, "Trailing comma in object"},
        {"{\"a\" = 1}", 1, 6, "Missing property value colon"},
        {"[1, 2,]", 1, 7, "Trailing comma in array"},
        {"{\"a\": 1", 1, 8, "Unclosed object"},
        {"{a: 1}", 1, 2, "Invalid property name"},
        {"{} x", 1, 4, "Extraneous data after value"},
        {"[tru]", 1, 2, "Invalid JSON value"},
        {"\"abc", 1, 5, "Unterminated string"},
        {"\"a\\qb\"", 1, 4, "Invalid escape sequence in string"},
        {"{\"a\": 1 \"b\": 2}", 1, 9, "Missing property separator"},
    };
    for (const auto& c : cases) {
        INFO(c.text);
        auto doc = read(c.text);
        REQUIRE(doc.diagnostics.size() == 1);
        const auto& d = doc.diagnostics[0];
        CHECK(d.severity == Severity::error);
        CHECK(d.summary == c.summary);
        CHECK(d.filename == "test.tf.json");
        REQUIRE(d.subject.has_value());
        auto at = doc.source->resolve(d.subject->start);
        CHECK(at.line == c.line);
        CHECK(at.column == c.column);
        CHECK(doc.root.kind == json::Kind::null);
    }
}

TEST_CASE("json: deep nesting is an error, not a crash", "[json]") {
    auto doc = read(std::string(5000, '[') + std::string(5000, ']'));
    REQUIRE(doc.diagnostics.size() == 1);
    CHECK(doc.diagnostics[0].summary == "Nesting too deep");
}
