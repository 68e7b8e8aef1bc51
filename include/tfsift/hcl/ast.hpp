// The HCL native-syntax tree. It mirrors hashicorp/hcl's hclsyntax node types
// so that evaluation and reference extraction can follow upstream semantics
// node for node. Every node carries its source range.
//
// All nodes live in the Arena of the File that owns them and are trivially
// destructible: strings are views into the source text or into the arena,
// sequences are spans into the arena, child links are references into the
// arena. A kept tree is a few times the size of its source, so nodes are laid
// out tightly: strings and sequences are 8-byte PackedString / PackedSpan,
// child links 4-byte Ref (all three are offsets into the tree space), ranges
// are byte offsets only, and a range that follows from other fields (a
// name's, an opening bracket's) is computed by an accessor of the same name
// instead of being stored.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "tfsift/arena.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/hcl/packed.hpp"
#include "tfsift/source.hpp"

namespace tfsift::hcl {

// ---- expressions ------------------------------------------------------------

enum class ExprKind : std::uint8_t {
    literal,             // LiteralExpr: number, string part, bool, null
    template_,           // TemplateExpr: "..." or heredoc, as a sequence of parts
    template_wrap,       // TemplateWrapExpr: "${x}" and nothing else
    template_join,       // TemplateJoinExpr: a %{for} directive (joins a ForExpr's tuple)
    scope_traversal,     // ScopeTraversalExpr: var.a.b[0]
    relative_traversal,  // RelativeTraversalExpr: f(x).a[0]
    function_call,       // FunctionCallExpr
    conditional,         // ConditionalExpr: c ? a : b, and %{if} directives
    binary_op,           // BinaryOpExpr
    unary_op,            // UnaryOpExpr
    tuple,               // TupleExpr: [a, b]
    object,              // ObjectExpr: {k = v}
    object_key,          // ObjectKeyExpr: the key of an ObjectExpr item
    for_,                // ForExpr
    index,               // IndexExpr: coll[key] with a non-literal key or source
    splat,               // SplatExpr: x[*].a, x.*.a
    anon_symbol,         // AnonSymbolExpr: the item placeholder inside a splat
    parentheses,         // ParenthesesExpr: (x)
};

// The header of every node: 9 bytes of fields in 12. The constructor makes
// it a non-POD for the purposes of the Itanium C++ ABI, whose layout then
// lets a node's own one-byte field (a literal's kind, a flag, an operator)
// occupy the header's 3 bytes of tail padding instead of 4 more of its own.
struct Expr {
    Range range;
    ExprKind kind{};

    Expr() = default;
    Expr(ExprKind k, Range r) : range(r), kind(k) {}
};

enum class LiteralKind : std::uint8_t { number, string, boolean, null };

// A literal value. For numbers `text` is the source spelling (e.g. "1.5e3"),
// converted to an exact value by the evaluator. For strings `text` is the
// decoded content (escapes resolved, heredoc indentation removed). For
// booleans `text` is "true" or "false"; for null it is "null".
struct LiteralExpr : Expr {
    LiteralKind literal;
    PackedString text;
};

// One step after the root of a traversal.
enum class StepKind : std::uint8_t { attr, index };
struct TraversalStep {
    StepKind kind = StepKind::attr;
    bool legacy_index = false;  // written `.0` instead of `[0]`
    Range range;
    PackedString name;  // attr: the attribute name; index: empty, holding the key

    static TraversalStep attr(Range r, PackedString name) { return {StepKind::attr, false, r, name}; }
    static TraversalStep index(Range r, const LiteralExpr* key, bool legacy = false) {
        TraversalStep s{StepKind::index, legacy, r, {}};
        s.set_key(key);
        return s;
    }

    // index: the literal key (number, string, bool, null), or null for an
    // index step whose key is not a literal; always null for an attr step.
    // An index step has no name, so the key's reference is kept in the
    // name's spare offset, which keeps the step at 20 bytes.
    [[nodiscard]] const LiteralExpr* key() const {
        return kind == StepKind::index ? Ref<LiteralExpr>::from_offset(name.held_bits()).get() : nullptr;
    }
    void set_key(const LiteralExpr* k) { name = PackedString::empty_holding(Ref<LiteralExpr>(k).offset()); }
};

// Where the root name of a traversal ends.
enum class RootEnd : std::uint8_t {
    after_name,  // right after the name as written (native syntax)
    at_end,      // where the whole expression ends (a traversal read from a JSON string)
};

struct ScopeTraversalExpr : Expr {
    RootEnd root_end = RootEnd::after_name;
    PackedString root;
    PackedSpan<TraversalStep> steps;

    // The root name's range: from the start of the expression to where
    // root_end says.
    [[nodiscard]] Range root_range() const {
        if (root_end == RootEnd::at_end) return {range.start, range.end};
        return {range.start, Pos{range.start.byte + static_cast<std::uint32_t>(root.size())}};
    }
};

struct RelativeTraversalExpr : Expr {
    Ref<Expr> source;
    PackedSpan<TraversalStep> steps;
};

struct FunctionCallExpr : Expr {
    bool expand_final = false;  // last argument followed by `...`
    PackedString name;          // full name, e.g. "upper" or "provider::aws::arn_parse"
    Pos name_end;               // the name starts where the expression does
    PackedSpan<Ref<Expr>> args;
    Pos open_paren_start;  // the one-byte `(`
    Range close_paren;     // the `)`, or what stood in its place

    [[nodiscard]] Range name_range() const { return {range.start, name_end}; }
    [[nodiscard]] Range open_paren() const { return {open_paren_start, Pos{open_paren_start.byte + 1}}; }
};

struct ConditionalExpr : Expr {
    Ref<Expr> condition;
    Ref<Expr> true_result;
    Ref<Expr> false_result;
};

enum class BinaryOp : std::uint8_t {
    logical_or,
    logical_and,
    equal,
    not_equal,
    greater,
    greater_or_equal,
    less,
    less_or_equal,
    add,
    subtract,
    multiply,
    divide,
    modulo,
};

struct BinaryOpExpr : Expr {
    BinaryOp op;
    Ref<Expr> lhs;
    Ref<Expr> rhs;
};

enum class UnaryOp : std::uint8_t { logical_not, negate };

struct UnaryOpExpr : Expr {
    UnaryOp op;
    Ref<Expr> operand;
    Range symbol_range;
};

// A tuple or object constructor starts with its one-byte opening bracket.
inline Range opening_bracket(const Expr& e) { return {e.range.start, Pos{e.range.start.byte + 1}}; }

struct TupleExpr : Expr {
    PackedSpan<Ref<Expr>> items;
    Range close;

    [[nodiscard]] Range open() const { return opening_bracket(*this); }
};

struct ObjectItem {
    Ref<Expr> key;  // always an ObjectKeyExpr
    Ref<Expr> value;
};

struct ObjectExpr : Expr {
    PackedSpan<ObjectItem> items;
    Range close;

    [[nodiscard]] Range open() const { return opening_bracket(*this); }
};

// An object key. A bare identifier (a ScopeTraversalExpr with no steps) is a
// literal string unless force_non_literal is set (the key was parenthesised).
struct ObjectKeyExpr : Expr {
    bool force_non_literal = false;
    Ref<Expr> wrapped;
};

struct ForExpr : Expr {
    bool group = false;    // `...` after the value in the object form
    PackedString key_var;  // empty when only one iterator is given
    PackedString value_var;
    Ref<Expr> collection;
    Ref<Expr> key_expr = nullptr;  // non-null for the object form {for ...: k => v}
    Ref<Expr> value_expr;
    Ref<Expr> condition = nullptr;
    Range open;
    Range close;
};

struct IndexExpr : Expr {
    Ref<Expr> collection;
    Ref<Expr> key;
    Range bracket_range;
};

struct AnonSymbolExpr : Expr {};

// `source[*].each` / `source.*.each`: `each` is evaluated for every element,
// with `item` standing for the element.
struct SplatExpr : Expr {
    Ref<Expr> source;
    Ref<Expr> each;
    Ref<AnonSymbolExpr> item;
    Range marker_range;
};

struct ParenthesesExpr : Expr {
    Ref<Expr> inner;
};

// A quoted string or heredoc. Parts are LiteralExpr strings, interpolated
// expressions, and directives (lowered as hclsyntax does: %{if} becomes a
// ConditionalExpr of two TemplateExprs, %{for} a TemplateJoinExpr).
struct TemplateExpr : Expr {
    bool heredoc = false;
    PackedSpan<Ref<Expr>> parts;
};

struct TemplateWrapExpr : Expr {
    Ref<Expr> wrapped;
};

struct TemplateJoinExpr : Expr {
    Ref<Expr> tuple;  // a ForExpr in tuple form producing strings
};

// The most numerous nodes (in that order over real configurations); a field
// added to one of them costs every kept tree, so it should be a conscious
// choice.
static_assert(sizeof(ScopeTraversalExpr) == 28);
static_assert(sizeof(TraversalStep) == 20);
static_assert(sizeof(LiteralExpr) == 20);
static_assert(sizeof(TemplateExpr) == 20);
static_assert(sizeof(FunctionCallExpr) == 44);

// Downcast helper: as<ForExpr>(e) returns e as a ForExpr, checked by kind in
// debug builds.
template <class T>
const T& as(const Expr& e) {
    return static_cast<const T&>(e);
}

// Calls f(const Expr&) for every direct child of e, in source order.
template <class F>
void for_each_child(const Expr& e, F&& f);

// The same children in the opposite order: a walk that keeps a stack of
// nodes to visit pushes them so, and then takes them in source order.
template <class F>
void for_each_child_reversed(const Expr& e, F&& f);

// ---- structure --------------------------------------------------------------

struct Attribute {
    PackedString name;  // as written: the range starts with it
    Range range;        // name start .. end of the expression's last token
    Ref<Expr> expr;

    [[nodiscard]] Range name_range() const {
        return {range.start, Pos{range.start.byte + static_cast<std::uint32_t>(name.size())}};
    }
};

struct Label {
    PackedString value;  // decoded (quoted) or as written (identifier)
    Range range;         // includes the quotes of a quoted label
    bool quoted = false;
};

struct Block;

struct Body {
    PackedSpan<Attribute> attributes;  // source order; a redefined name keeps only its first
    PackedSpan<Block> blocks;          // source order
    Range range;                       // the whole body (inside the braces for a block)
};

struct Block {
    PackedString type;  // as written, starting at type_start
    Pos type_start;
    PackedSpan<Label> labels;
    Range open_brace;
    Range close_brace;
    Body body;

    [[nodiscard]] Range type_range() const {
        return {type_start, Pos{type_start.byte + static_cast<std::uint32_t>(type.size())}};
    }

    // hcl's DefRange: type through the last label.
    [[nodiscard]] Range def_range() const {
        return {type_start, labels.empty() ? type_range().end : labels.back().range.end};
    }
    // From the type to the closing brace.
    [[nodiscard]] Range range() const { return {type_start, close_brace.end}; }
};

static_assert(sizeof(Attribute) == 20);
static_assert(sizeof(Block) == 60);

enum class CommentStyle : std::uint8_t { hash, slashes, block };

struct Comment {
    Range range;  // includes the comment markers; a line comment excludes its newline
    CommentStyle style;
};

// ---- a parsed file ----------------------------------------------------------

struct File {
    std::shared_ptr<const SourceFile> source;
    std::unique_ptr<Arena> arena;
    const Body* body = nullptr;     // never null after parse(), possibly empty
    std::vector<Comment> comments;  // in source order
    Diagnostics diagnostics;        // parser diagnostics, in the order emitted
    // Some function call's name has a namespace (`provider::aws::arn_parse`):
    // a question rules ask of every file, answered without a walk.
    bool calls_namespaced_functions = false;

    [[nodiscard]] bool has_errors() const { return tfsift::has_errors(diagnostics); }
};

// Limits that keep hostile input from exhausting the stack.
inline constexpr int max_nesting_depth = 256;

// Parses a whole file of HCL native syntax. Never throws for bad input: every
// problem is a diagnostic, and the tree holds what could be recovered.
File parse(const std::shared_ptr<const SourceFile>& source);

// Parses `text` (a slice of `source` starting at `start`) as a single
// expression or as a template (string content without quotes), as the JSON
// syntax needs. Nodes go into `arena`; diagnostics are appended to `diags`.
// Returns nullptr only when nothing could be recovered.
const Expr* parse_expression(const SourceFile& source, std::string_view text, Pos start, Arena& arena,
                             Diagnostics& diags);
const Expr* parse_template(const SourceFile& source, std::string_view text, Pos start, Arena& arena,
                           Diagnostics& diags);

}  // namespace tfsift::hcl

#include "tfsift/hcl/ast_visit.inl"
