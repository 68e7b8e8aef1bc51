// Internal to the configuration decoder: one view over native-syntax and
// JSON bodies, so that each block type is decoded once against its schema
// (hcl's Body.Content / PartialContent), plus the static evaluation and
// traversal helpers Terraform's load-time decoding uses.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tfsift/arena.hpp"
#include "tfsift/config/block_schemas.hpp"
#include "tfsift/config/diagnostic_limit.hpp"
#include "tfsift/config/model.hpp"
#include "tfsift/cty/value.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::config::detail {

// What decoding one file needs: the file, an arena for expressions parsed
// out of JSON strings, and where diagnostics go.
struct DecodeContext {
    const SourceFile* file = nullptr;
    Arena* arena = nullptr;
    // Sources made for JSON strings with escapes (see json_string_expr).
    std::deque<std::shared_ptr<SourceFile>>* scratch = nullptr;
    Diagnostics* diags = nullptr;
    bool is_override = false;  // required arguments are not required in override files

    // While set, the code of the "unsupported argument" diagnostics of
    // body_content (an argument or block the schema does not name), for a
    // block that has a code of its own for them.
    std::string_view unknown_member_code;

    // While set, diagnostics go through this limit as they arise (only
    // where no caller looks back at the diagnostics it added).
    DiagnosticLimit* limit = nullptr;

    void error(std::string_view code, std::string summary, std::string detail, Range subject) const;
    void warning(std::string_view code, std::string summary, std::string detail, Range subject) const;
    void add(Severity severity, std::string_view code, std::string summary, std::string detail, Range subject) const;
};

// A block body: native, or a JSON object.
struct BodyRef {
    const hcl::Body* native = nullptr;
    const json::Value* json = nullptr;
    Range missing_item;  // where a missing required argument is reported
};

// Names and labels are views of the parsed file (the syntax tree or the
// JSON document), which outlives decoding: content is built for every block
// of every file, so it copies and allocates as little as it can.
struct ContentAttr {
    std::string_view name;
    Range name_range;
    Expression expr;
};

// No block schema has more than two labels, so a block's labels are kept
// inline rather than in vectors of their own.
inline constexpr std::size_t max_block_labels = 2;

struct ContentBlock {
    std::string_view type;
    Range type_range;
    std::array<std::string_view, max_block_labels> labels{};  // as many as the schema names
    std::array<Range, max_block_labels> label_ranges{};
    Range def_range;
    Pos origin;  // the model's origin for the block
    BodyRef body;
};

// The arguments one body sets of its schema's: a schema names a handful and
// a body sets fewer, so they are held inline, with no allocation for each of
// the many bodies decoded; past `inline_count` they move to a vector. Reads
// like a vector of ContentAttr (ContentAttr is trivially copyable).
class ContentAttrs {
public:
    static constexpr std::size_t inline_count = 8;

    ContentAttrs() = default;
    ContentAttrs(const ContentAttrs& o) : size_(o.size_), spilled_(o.spilled_) { copy_inline(o); }
    ContentAttrs& operator=(const ContentAttrs& o) {
        size_ = o.size_;
        spilled_ = o.spilled_;
        copy_inline(o);
        return *this;
    }
    ContentAttrs(ContentAttrs&& o) noexcept : size_(o.size_), spilled_(std::move(o.spilled_)) { copy_inline(o); }
    ContentAttrs& operator=(ContentAttrs&& o) noexcept {
        size_ = o.size_;
        spilled_ = std::move(o.spilled_);
        copy_inline(o);
        return *this;
    }
    ~ContentAttrs() = default;

    void reserve(std::size_t n) {
        if (n > inline_count) spilled_.reserve(n);
    }
    void push_back(const ContentAttr& a) {
        if (size_ < inline_count) {
            new (slots_ + size_ * sizeof(ContentAttr)) ContentAttr(a);
        } else {
            if (size_ == inline_count) spilled_.assign(inline_begin(), inline_begin() + inline_count);
            spilled_.push_back(a);
        }
        ++size_;
    }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] const ContentAttr* begin() const { return size_ > inline_count ? spilled_.data() : inline_begin(); }
    [[nodiscard]] const ContentAttr* end() const { return begin() + size_; }
    [[nodiscard]] const ContentAttr& operator[](std::size_t i) const { return begin()[i]; }

private:
    static_assert(std::is_trivially_copyable_v<ContentAttr> && std::is_trivially_destructible_v<ContentAttr>);
    [[nodiscard]] const ContentAttr* inline_begin() const {
        return std::launder(reinterpret_cast<const ContentAttr*>(slots_));
    }
    void copy_inline(const ContentAttrs& o) {
        std::memcpy(slots_, o.slots_, std::min(o.size_, inline_count) * sizeof(ContentAttr));
    }

    alignas(ContentAttr) unsigned char slots_[inline_count * sizeof(ContentAttr)];
    std::size_t size_ = 0;
    std::vector<ContentAttr> spilled_;  // every attribute, once there are more than inline_count
};

struct Content {
    ContentAttrs attributes;
    std::vector<ContentBlock> blocks;

    // Defined here so that the decoders' calls, with a literal name, compare
    // the names inline rather than through memcmp.
    [[nodiscard]] const ContentAttr* attribute(std::string_view name) const {
        for (const auto& a : attributes) {
            if (a.name == name) return &a;
        }
        return nullptr;
    }
};

// hcl Content (schema.partial false) or PartialContent (true): the schema's
// arguments and blocks; when `remain` is given, everything else goes into it
// (native arguments and nested blocks, or undecided JSON properties).
Content body_content(const DecodeContext& ctx, const BodyRef& body, const BodySchema& schema, Body* remain);

// A whole body with no schema: every argument and nested block (native), or
// every property undecided (JSON).
Body whole_body(const DecodeContext& ctx, const BodyRef& body);

// Appends the `_` escaping block's content: arguments join, blocks follow.
void merge_escape_body(Body& into, Body&& escaped);

// The value of an expression evaluated with no variables and no functions
// (hcl's expr.Value(nil)); diagnostics go to the context.
cty::Value static_value(const DecodeContext& ctx, const Expression& expr, bool report = true);

// The text of a template that is one literal string ("foo", or a heredoc
// without interpolation), else nullopt. Most statically decoded arguments
// (descriptions, sources, string defaults) are such a template, and its value
// is that text as a string: no evaluator needs to be set up for it.
std::optional<std::string_view> literal_template_text(const hcl::Expr& e);

// A native expression for a JSON string (a template) or a JSON value parsed
// as an expression (as hcl's JSON syntax does for traversals and keywords).
const hcl::Expr* json_string_expr(const DecodeContext& ctx, const json::Value& v, bool as_template, Diagnostics& diags);

// hcl.ExprList: the elements of a static list; an error and nullopt when
// the expression is not one.
std::optional<std::vector<Expression>> expr_list(const DecodeContext& ctx, const Expression& expr);

// hcl.ExprMap: key/value pairs of a static object.
struct MapPair {
    Expression key;
    Expression value;
};
std::optional<std::vector<MapPair>> expr_map(const DecodeContext& ctx, const Expression& expr);

// hcl.ExprAsKeyword: the identifier when the expression is a bare single
// name (JSON: a string holding one), "" otherwise.
std::string expr_keyword(const DecodeContext& ctx, const Expression& expr);

// True for a native quoted string with one literal part ("foo").
bool is_native_quoted_string(const Expression& expr);

// hcl.AbsTraversalForExpr / RelTraversalForExpr after Terraform's
// shimTraversalInString (quoted references give a warning): the traversal
// expression, or nullptr with an error.
const hcl::ScopeTraversalExpr* traversal_for_expr(const DecodeContext& ctx, const Expression& expr, bool relative,
                                                  bool shim_quoted, bool want_keyword);

// The traversal as the document writes it.
Traversal make_traversal(const DecodeContext& ctx, const hcl::ScopeTraversalExpr& t, const Expression& from);

// hclsyntax.ValidIdentifier.
bool valid_identifier(std::string_view s);

// The scope traversals an expression refers to (hcl's Variables()).
std::vector<const hcl::ScopeTraversalExpr*> expression_variables(const DecodeContext& ctx, const Expression& expr);

}  // namespace tfsift::config::detail
