// The objects an expression or a block body refers to, as the leading names
// of each reference (`aws_instance.web.id[0]` -> {"aws_instance", "web",
// "id"}), for native expressions and for JSON values whose strings hold
// templates. Rules that follow dependencies between the objects of a module
// read these.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfsift/arena.hpp"
#include "tfsift/config/model.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::lint {

using ReferenceName = std::vector<std::string>;

std::vector<ReferenceName> expression_references(const config::Expression& expr);

// Every argument and nested block of a body, JSON properties included.
std::vector<ReferenceName> body_references(const config::Body& body);

// A `depends_on` item (`module.net`, `aws_instance.web`) as a reference.
ReferenceName traversal_reference(const config::Traversal& traversal);

// A JSON string parsed as a native expression (as `.tf.json` files write
// references), with what it points into.
struct JsonStringExpression {
    std::shared_ptr<const SourceFile> source;
    std::unique_ptr<Arena> arena;
    const hcl::Expr* expr = nullptr;  // null when the text does not parse
};
JsonStringExpression parse_json_string(const json::Value& value, bool as_template);

// `range`, a range of `text` (the decoded content of the JSON string `value`,
// as parse_json_string reads it), in the file that holds `value`. Inside a
// string without escapes the offsets carry over; after an escape they would
// not, so the whole string stands for them.
Range json_string_file_range(const json::Value& value, const SourceFile* text, Range range);

// The same, parsed once per string while a ModuleMemo lives (several rules
// walk the same `.tf.json` files), else each time.
std::shared_ptr<const JsonStringExpression> shared_json_string(const json::Value& value, bool as_template);

}  // namespace tfsift::lint
