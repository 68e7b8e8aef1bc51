// A JSON document model that remembers where every value and every object
// key was written, as `.tf.json` / `.tofu.json` loading needs for origins
// and diagnostics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/source.hpp"

namespace tfsift::json {

enum class Kind : std::uint8_t { null, boolean, number, string, array, object };

std::string_view to_string(Kind kind);

struct Member;

// One JSON value. Objects keep every property in source order, duplicates
// included: whether a repeated name is an error depends on what the object
// means (an argument body or a set of blocks), which the reader cannot know.
struct Value {
    Kind kind = Kind::null;
    Range range;                  // the value's bytes: quotes, braces and brackets included
    bool boolean = false;         // Kind::boolean
    std::string text;             // Kind::number: the spelling; Kind::string: the decoded content
    std::vector<Value> items;     // Kind::array
    std::vector<Member> members;  // Kind::object

    [[nodiscard]] bool is_object() const { return kind == Kind::object; }
    [[nodiscard]] bool is_array() const { return kind == Kind::array; }
    [[nodiscard]] bool is_string() const { return kind == Kind::string; }
    // The first property named `name`, or nullptr.
    [[nodiscard]] const Value* find(std::string_view name) const;
};

struct Member {
    std::string name;  // decoded
    Range name_range;  // includes the quotes
    Value value;
};

// A parsed `.json` file: the root value (a null value at offset 0 when the
// text is not valid JSON) and the diagnostics of reading it.
struct Document {
    std::shared_ptr<const SourceFile> source;
    Value root;
    Diagnostics diagnostics;

    [[nodiscard]] bool has_errors() const { return tfsift::has_errors(diagnostics); }
};

// Limit on nested arrays and objects, so hostile input cannot exhaust the stack.
inline constexpr int max_nesting_depth = 1000;

// Reads a whole file as one JSON value (RFC 8259). Never throws for bad
// input: a malformed document gives one error diagnostic at the first
// offending character, and the root is then a null value.
Document parse(const std::shared_ptr<const SourceFile>& source);

}  // namespace tfsift::json
