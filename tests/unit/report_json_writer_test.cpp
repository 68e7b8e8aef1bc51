// The streaming JSON writer of the reports must print the very bytes
// nlohmann::json's dump(2, ' ', false, replace) printed before it.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <nlohmann/json.hpp>

#include "report/json_writer.hpp"

using tfsift::report::detail::append_json_string_contents;
using tfsift::report::detail::JsonWriter;
using ordered = nlohmann::ordered_json;

namespace {

std::string nlohmann_string(const std::string& text) {
    return ordered(text).dump(2, ' ', false, ordered::error_handler_t::replace);
}

std::string streamed_string(const std::string& text) {
    std::string out = "\"";
    append_json_string_contents(out, text);
    return out + "\"";
}

// Writes a nlohmann document through the streaming writer.
void stream(JsonWriter& w, const ordered& v) {
    switch (v.type()) {
        case ordered::value_t::object:
            w.begin_object();
            for (const auto& [k, member] : v.items()) {
                w.key(k);
                stream(w, member);
            }
            w.end_object();
            break;
        case ordered::value_t::array:
            w.begin_array();
            for (const auto& item : v) stream(w, item);
            w.end_array();
            break;
        case ordered::value_t::string: w.string(v.get_ref<const std::string&>()); break;
        case ordered::value_t::boolean: w.boolean(v.get<bool>()); break;
        case ordered::value_t::number_integer: w.number(v.get<std::int64_t>()); break;
        case ordered::value_t::number_unsigned: w.number(v.get<std::uint64_t>()); break;
        default: w.null(); break;
    }
}

std::string streamed_document(const ordered& v) {
    std::ostringstream out;
    JsonWriter w(out);
    stream(w, v);
    w.finish();
    return out.str();
}

}  // namespace

TEST_CASE("streamed strings: escapes as nlohmann writes them", "[report][json-writer]") {
    const std::vector<std::string> cases = {
        "",
        "plain text",
        "quote \" backslash \\ slash /",
        std::string("nul \0 inside", 12),
        "\x01\x07\x08\t\n\x0b\x0c\r\x0e\x1b\x1f",
        "del \x7f stays",
        "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf",
        "c1 control \xc2\x9b",
    };
    for (const auto& text : cases) {
        INFO(text);
        CHECK(streamed_string(text) == nlohmann_string(text));
    }
    CHECK(streamed_string("\x1f") == "\"\\u001f\"");
    CHECK(streamed_string("a\tb") == "\"a\\tb\"");
}

TEST_CASE("streamed strings: ill-formed UTF-8 replaced as nlohmann replaces it", "[report][json-writer]") {
    const std::vector<std::string> cases = {
        "stray \x80 continuation",
        "\xbf",
        "overlong \xc0\x80 and \xc1\xbf",
        "overlong \xe0\x80\x80 three",
        "surrogate \xed\xa0\x80 half",
        "past the end \xf4\x90\x80\x80 of unicode",
        "never a lead \xf5\x80\x80\x80 \xf8 \xfe \xff",
        "cut \xe2\x82",
        "cut \xe2\x82 in the middle",
        "cut then whole \xe2\x82\xe2\x82\xac",
        "lead then lead \xc3\xc3\xa9",
        "four cut \xf0\x9f\x98",
        "four broken \xf0\x9f\x98X",
        "\xe2",
        "\xf0\x9f",
        "latin-1 caf\xe9 text",
    };
    for (const auto& text : cases) {
        INFO(text);
        CHECK(streamed_string(text) == nlohmann_string(text));
    }
    // One replacement for a broken sequence, and the breaking byte read again.
    CHECK(streamed_string("\xe2\x82X") == "\"\xef\xbf\xbdX\"");
    CHECK(streamed_string("\xe0\x80") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");
}

TEST_CASE("streamed strings: every short byte string as nlohmann writes it", "[report][json-writer]") {
    // Every string of one and two bytes...
    for (unsigned a = 0; a < 256; ++a) {
        for (unsigned b = 0; b < 256; ++b) {
            const std::string text{static_cast<char>(a), static_cast<char>(b)};
            const std::string streamed = streamed_string(text);
            const std::string expected = nlohmann_string(text);
            if (streamed != expected) {
                FAIL_CHECK("bytes " << a << " " << b << ": " << streamed << " != " << expected);
            }
        }
    }
    // ...and random longer ones from bytes at the edges of UTF-8's ranges.
    const std::vector<unsigned char> edges = {0x00, 0x09, 0x1f, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x8f, 0x90,
                                              0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec,
                                              0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff};
    std::mt19937 random(12);
    std::uniform_int_distribution<std::size_t> pick(0, edges.size() - 1);
    std::uniform_int_distribution<std::size_t> length(0, 12);
    for (int n = 0; n < 20000; ++n) {
        std::string text;
        for (std::size_t k = length(random); k > 0; --k) text += static_cast<char>(edges[pick(random)]);
        const std::string streamed = streamed_string(text);
        const std::string expected = nlohmann_string(text);
        if (streamed != expected) FAIL_CHECK(streamed << " != " << expected);
    }
}

TEST_CASE("streamed documents: layout as nlohmann dumps it", "[report][json-writer]") {
    const ordered doc = ordered::parse(R"({
        "schema_version": 1,
        "empty_object": {},
        "empty_array": [],
        "nested": {"a": [1, -2, 18446744073709551615, -9223372036854775808], "b": [[], [{}], [[true]]]},
        "flags": [true, false, null],
        "key \"quoted\"\n": "value\twith\u0001controls",
        "last": {"x": {"y": {"z": "deep"}}}
    })");
    CHECK(streamed_document(doc) == doc.dump(2, ' ', false, ordered::error_handler_t::replace) + "\n");
    CHECK(streamed_document(ordered::array()) == "[]\n");
    CHECK(streamed_document(ordered::object()) == "{}\n");
    CHECK(streamed_document(ordered("top")) == "\"top\"\n");
}

TEST_CASE("streamed documents: long documents are written whole", "[report][json-writer]") {
    // Past the writer's buffer several times over.
    ordered doc = ordered::array();
    for (int i = 0; i < 20000; ++i)
        doc.push_back({{"index", i}, {"text", std::string(static_cast<std::size_t>(i % 50), 'x')}});
    CHECK(streamed_document(doc) == doc.dump(2, ' ', false, ordered::error_handler_t::replace) + "\n");
}

TEST_CASE("items written in runs by continuing writers splice into the document's bytes", "[report][json-writer]") {
    // {"before": 1, "items": [N items, each an object with an array], "after": true}
    // written by one writer, and with the items in runs of three by writers
    // continuing it, for every number of items from none to more than one
    // round of runs (four runs for each job).
    auto item = [](JsonWriter& w, std::size_t i) {
        w.begin_object();
        w.member("index", i);
        w.key("list");
        w.begin_array();
        for (std::size_t k = 0; k < i % 3; ++k) w.string("x");
        w.end_array();
        w.end_object();
    };
    auto document = [&](std::size_t count, unsigned jobs) {
        std::ostringstream out;
        JsonWriter w(out);
        w.begin_object();
        w.member("before", 1);
        w.key("items");
        w.begin_array();
        tfsift::report::detail::write_items_in_runs(
            w, count, jobs, 3,
            [&](std::ostream& part_out, std::size_t items_before, std::size_t begin, std::size_t end) {
                JsonWriter part(part_out, w.depth(), items_before);
                for (std::size_t i = begin; i < end; ++i) item(part, i);
                part.flush();
            });
        w.end_array();
        w.key("after");
        w.boolean(true);
        w.end_object();
        w.finish();
        return out.str();
    };
    for (std::size_t count = 0; count <= 30; ++count) {
        INFO(count);
        ordered expected = {{"before", 1}, {"items", ordered::array()}, {"after", true}};
        for (std::size_t i = 0; i < count; ++i) {
            ordered list = ordered::array();
            for (std::size_t k = 0; k < i % 3; ++k) list.push_back("x");
            expected["items"].push_back({{"index", i}, {"list", list}});
        }
        const std::string bytes = expected.dump(2, ' ', false, ordered::error_handler_t::replace) + "\n";
        CHECK(document(count, 1) == bytes);
        CHECK(document(count, 2) == bytes);
        CHECK(document(count, 4) == bytes);
    }
}
