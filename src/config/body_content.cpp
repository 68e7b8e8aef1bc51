#include "body_content.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/edit_distance.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/hcl/references.hpp"

namespace tfsift::config::detail {

void DecodeContext::add(Severity severity, std::string_view code, std::string summary, std::string detail,
                        Range subject) const {
    Diagnostic d;
    d.severity = severity;
    d.code = code;
    d.summary = std::move(summary);
    d.detail = std::move(detail);
    d.filename = file ? file->path() : std::string();
    d.subject = subject;
    if (limit != nullptr && !limit->admit(d)) return;
    diags->push_back(std::move(d));
}

void DecodeContext::error(std::string_view code, std::string summary, std::string detail, Range subject) const {
    add(Severity::error, code, std::move(summary), std::move(detail), subject);
}

void DecodeContext::warning(std::string_view code, std::string summary, std::string detail, Range subject) const {
    add(Severity::warning, code, std::move(summary), std::move(detail), subject);
}

namespace {

// ContentBlock holds labels inline; a schema with more would be a
// programming error, not bad input.
void check_label_count(const BlockHeaderSchema& bs) {
    if (bs.label_names.size() > max_block_labels)
        throw std::logic_error("block schema with more labels than ContentBlock holds");
}

std::string join_labels(std::span<const std::string_view> names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += ", ";
        out += names[i];
    }
    return out;
}

NestedBlock native_nested(const DecodeContext& ctx, const hcl::Block& b);

Body native_whole(const DecodeContext& ctx, const hcl::Body& body) {
    Body out;
    out.arguments.reserve(body.attributes.size());
    out.blocks.reserve(body.blocks.size());
    for (const auto& a : body.attributes) {
        out.arguments.push_back(
            Argument{std::string(a.name), a.name_range(), Expression{ctx.file, a.expr->range, a.expr, nullptr}});
    }
    for (const auto& b : body.blocks) out.blocks.push_back(native_nested(ctx, b));
    return out;
}

NestedBlock native_nested(const DecodeContext& ctx, const hcl::Block& b) {
    NestedBlock nb;
    nb.type = std::string(b.type);
    nb.labels.reserve(b.labels.size());
    for (const auto& l : b.labels) nb.labels.emplace_back(l.value);
    nb.origin = Origin{ctx.file, b.type_range().start};
    nb.body = native_whole(ctx, b.body);
    return nb;
}

// Unpacks JSON block values down the label levels (hcl's JSON unpackBlock):
// each level of labels is an object keyed by label; the body is an object or
// an array of objects.
void unpack_json_blocks(const DecodeContext& ctx, const json::Member& prop, const json::Value& v,
                        std::span<const std::string_view> label_names, std::vector<std::string_view>& labels,
                        std::vector<Range>& label_ranges, std::vector<ContentBlock>& out) {
    if (labels.size() == label_names.size()) {
        auto add = [&](const json::Value& body, Pos origin, Range def) {
            ContentBlock b;
            b.type = prop.name;
            b.type_range = prop.name_range;
            std::copy(labels.begin(), labels.end(), b.labels.begin());
            std::copy(label_ranges.begin(), label_ranges.end(), b.label_ranges.begin());
            b.def_range = def;
            b.origin = origin;
            b.body.json = &body;
            b.body.missing_item = Range{body.range.start, body.range.start};
            out.push_back(b);
        };
        const Range open_brace{v.range.start, Pos{static_cast<std::uint32_t>(v.range.start.byte + 1)}};
        if (v.is_object()) {
            add(v, v.range.start, open_brace);
        } else if (v.is_array()) {
            for (const auto& item : v.items) {
                if (item.is_object()) {
                    add(item, v.range.start, open_brace);
                } else {
                    ctx.error(code::incorrect_json_value_type, "Incorrect JSON value type",
                              "A JSON object is required here, setting the arguments for this block.", item.range);
                }
            }
        } else {
            ctx.error(code::incorrect_json_value_type, "Incorrect JSON value type",
                      "A JSON object is required here, setting the arguments for this block.", v.range);
        }
        return;
    }
    if (v.is_array()) {
        for (const auto& item : v.items) unpack_json_blocks(ctx, prop, item, label_names, labels, label_ranges, out);
        return;
    }
    if (!v.is_object()) {
        ctx.error(code::incorrect_json_value_type, "Incorrect JSON value type",
                  fmt::format("A JSON object is required here, to specify {} labels for this block.",
                              label_names[labels.size()]),
                  v.range);
        return;
    }
    for (const auto& m : v.members) {
        labels.push_back(m.name);
        label_ranges.push_back(m.name_range);
        unpack_json_blocks(ctx, prop, m.value, label_names, labels, label_ranges, out);
        labels.pop_back();
        label_ranges.pop_back();
    }
}

}  // namespace

Body whole_body(const DecodeContext& ctx, const BodyRef& body) {
    if (body.native) return native_whole(ctx, *body.native);
    Body out;
    out.from_json = true;
    if (body.json && body.json->is_object()) {
        for (const auto& m : body.json->members)
            out.undecided.push_back(JsonProperty{m.name, m.name_range, &m.value, ctx.file});
    }
    return out;
}

void merge_escape_body(Body& into, Body&& escaped) {
    for (auto& a : escaped.arguments) into.arguments.push_back(std::move(a));
    for (auto& b : escaped.blocks) into.blocks.push_back(std::move(b));
    for (auto& p : escaped.undecided) into.undecided.push_back(std::move(p));
}

namespace {

// hcl's didyoumean: the first candidate at a Levenshtein distance under 3,
// as " Did you mean \"X\"?", or "".
template <class Names>
std::string did_you_mean(std::string_view given, const Names& candidates) {
    for (std::string_view c : candidates) {
        if (edit_distance(given, c) < 3) return fmt::format(" Did you mean \"{}\"?", c);
    }
    return {};
}

// hcl's suggestion for an argument the schema does not have: a close
// attribute not set yet in the body, else a block type of that very name.
std::string argument_suggestion(std::string_view name, const BodySchema& schema, const hcl::Body& body) {
    std::vector<std::string_view> unset;
    for (const AttributeSchema& a : schema.attributes) {
        bool set = false;
        for (const auto& written : body.attributes) set = set || written.name == a.name;
        if (!set) unset.push_back(a.name);
    }
    std::string hint = did_you_mean(name, unset);
    if (hint.empty()) {
        for (const BlockHeaderSchema& b : schema.blocks) {
            if (b.type == name) return fmt::format(" Did you mean to define a block of type \"{}\"?", name);
        }
    }
    return hint;
}

// hcl's suggestion for a block type the schema does not have.
std::string block_suggestion(std::string_view type, const BodySchema& schema) {
    std::vector<std::string_view> types;
    for (const BlockHeaderSchema& b : schema.blocks) types.push_back(b.type);
    std::string hint = did_you_mean(type, types);
    if (hint.empty()) {
        for (const AttributeSchema& a : schema.attributes) {
            if (a.name == type) {
                return fmt::format(
                    " Did you mean to define argument \"{}\"? If so, use the equals sign to assign it "
                    "a value.",
                    type);
            }
        }
    }
    return hint;
}

}  // namespace

Content body_content(const DecodeContext& ctx, const BodyRef& body, const BodySchema& schema, Body* remain) {
    Content out;
    if (body.native) {
        // One allocation each instead of a vector growing step by step.
        out.attributes.reserve(std::min(body.native->attributes.size(), schema.attributes.size()));
        out.blocks.reserve(body.native->blocks.size());
        if (remain && schema.partial) {
            remain->arguments.reserve(remain->arguments.size() + body.native->attributes.size());
        }
        for (const auto& a : body.native->attributes) {
            if (find_attribute(schema, a.name)) {
                out.attributes.push_back(
                    ContentAttr{a.name, a.name_range(), Expression{ctx.file, a.expr->range, a.expr, nullptr}});
            } else if (schema.partial) {
                if (remain) {
                    remain->arguments.push_back(Argument{std::string(a.name), a.name_range(),
                                                         Expression{ctx.file, a.expr->range, a.expr, nullptr}});
                }
            } else {
                ctx.error(ctx.unknown_member_code.empty() ? code::unsupported_argument : ctx.unknown_member_code,
                          "Unsupported argument",
                          fmt::format("An argument named \"{}\" is not expected here.{}", a.name,
                                      argument_suggestion(a.name, schema, *body.native)),
                          a.name_range());
            }
        }
        for (const auto& b : body.native->blocks) {
            const BlockHeaderSchema* bs = find_block(schema, b.type);
            if (!bs) {
                if (schema.partial) {
                    if (remain) remain->blocks.push_back(native_nested(ctx, b));
                } else {
                    ctx.error(ctx.unknown_member_code.empty() ? code::unsupported_block_type : ctx.unknown_member_code,
                              "Unsupported block type",
                              fmt::format("Blocks of type \"{}\" are not expected here.{}", b.type,
                                          block_suggestion(b.type, schema)),
                              b.type_range());
                }
                continue;
            }
            if (b.labels.size() > bs->label_names.size()) {
                if (bs->label_names.empty()) {
                    ctx.error(code::extraneous_label, fmt::format("Extraneous label for {}", b.type),
                              fmt::format("No labels are expected for {} blocks.", b.type), b.labels[0].range);
                } else {
                    ctx.error(code::extraneous_label, fmt::format("Extraneous label for {}", b.type),
                              fmt::format("Only {} labels ({}) are expected for {} blocks.", bs->label_names.size(),
                                          join_labels(bs->label_names), b.type),
                              b.labels[bs->label_names.size()].range);
                }
                continue;
            }
            if (b.labels.size() < bs->label_names.size()) {
                ctx.error(code::missing_block_label,
                          fmt::format("Missing {} for {}", bs->label_names[b.labels.size()], b.type),
                          fmt::format("All {} blocks must have {} labels ({}).", b.type, bs->label_names.size(),
                                      join_labels(bs->label_names)),
                          b.open_brace);
                continue;
            }
            check_label_count(*bs);
            ContentBlock cb;
            cb.type = b.type;
            cb.type_range = b.type_range();
            for (std::size_t i = 0; i < b.labels.size(); ++i) {
                cb.labels[i] = b.labels[i].value;
                cb.label_ranges[i] = b.labels[i].range;
            }
            cb.def_range = b.def_range();
            cb.origin = b.type_range().start;
            cb.body.native = &b.body;
            cb.body.missing_item = b.open_brace;
            out.blocks.push_back(cb);
        }
    } else if (body.json) {
        if (remain) remain->from_json = true;
        if (!body.json->is_object()) {
            ctx.error(code::incorrect_json_value_type, "Incorrect JSON value type",
                      "A JSON object is required here, setting the arguments for this block.", body.json->range);
            return out;
        }
        for (const auto& m : body.json->members) {
            if (find_attribute(schema, m.name)) {
                if (out.attribute(m.name)) {
                    ctx.error(
                        code::duplicate_argument, "Duplicate argument",
                        fmt::format("The argument \"{}\" was already set at {}:{}. Each argument may be set only once.",
                                    m.name, ctx.file->path(), ctx.file->line(out.attribute(m.name)->name_range.start)),
                        m.name_range);
                    continue;
                }
                out.attributes.push_back(
                    ContentAttr{m.name, m.name_range, Expression{ctx.file, m.value.range, nullptr, &m.value}});
            } else if (const BlockHeaderSchema* bs = find_block(schema, m.name)) {
                check_label_count(*bs);
                std::vector<std::string_view> labels;
                std::vector<Range> label_ranges;
                unpack_json_blocks(ctx, m, m.value, bs->label_names, labels, label_ranges, out.blocks);
            } else if (m.name == "//") {
                continue;
            } else if (schema.partial) {
                if (remain) remain->undecided.push_back(JsonProperty{m.name, m.name_range, &m.value, ctx.file});
            } else {
                ctx.error(
                    ctx.unknown_member_code.empty() ? code::extraneous_json_object_property : ctx.unknown_member_code,
                    "Extraneous JSON object property",
                    fmt::format("No argument or block type is named \"{}\".", m.name), m.name_range);
            }
        }
    }
    for (const auto& a : schema.attributes) {
        if (a.required && !ctx.is_override && !out.attribute(a.name)) {
            ctx.error(code::missing_required_argument, "Missing required argument",
                      fmt::format("The argument \"{}\" is required, but no definition was found.", a.name),
                      body.missing_item);
        }
    }
    return out;
}

const hcl::Expr* json_string_expr(const DecodeContext& ctx, const json::Value& v, bool as_template,
                                  Diagnostics& diags) {
    // The parser reads tokens out of the source text, so the string must be
    // a slice of a source. When the JSON string has no escapes its content is
    // the bytes between the quotes; otherwise a scratch source holds the file
    // up to the opening quote followed by the decoded content, so positions
    // and lines still match the file.
    const std::uint32_t inner = v.range.start.byte + 1;
    const std::string_view all = ctx.file->text();
    const SourceFile* src = ctx.file;
    Pos start = Pos{static_cast<std::uint32_t>(inner)};
    std::string_view text;
    if (v.range.end.byte >= inner + 1 && all.substr(inner, v.range.end.byte - 1 - inner) == v.text) {
        text = all.substr(inner, v.text.size());
    } else {
        std::string bytes(all.substr(0, inner));
        bytes += v.text;
        auto scratch = std::make_shared<SourceFile>(ctx.file->path(), std::move(bytes));
        ctx.scratch->push_back(scratch);
        src = scratch.get();
        text = src->text().substr(inner);
    }
    return as_template ? hcl::parse_template(*src, text, start, *ctx.arena, diags)
                       : hcl::parse_expression(*src, text, start, *ctx.arena, diags);
}

namespace {

cty::Value json_static_value(const DecodeContext& ctx, const json::Value& v, Diagnostics& diags) {
    switch (v.kind) {
        case json::Kind::null: return cty::Value::dynamic_null();
        case json::Kind::boolean: return cty::Value::boolean(v.boolean);
        case json::Kind::number: {
            auto n = cty::Number::parse(v.text);
            return n ? cty::Value::number(*n) : cty::Value::unknown(cty::Type::number());
        }
        case json::Kind::string: {
            if (v.text.find("${") == std::string::npos && v.text.find("%{") == std::string::npos) {
                return cty::Value::string(v.text);
            }
            const hcl::Expr* e = json_string_expr(ctx, v, true, diags);
            if (!e) return cty::Value::unknown(cty::Type::string());
            auto r = hcl::evaluate(*e, nullptr);
            for (auto& d : r.diagnostics) diags.push_back(std::move(d));
            return r.value;
        }
        case json::Kind::array: {
            cty::Value::Elements items;
            for (const auto& i : v.items) items.push_back(json_static_value(ctx, i, diags));
            return cty::Value::tuple(std::move(items));
        }
        case json::Kind::object: {
            cty::Value::Attributes attrs;
            for (const auto& m : v.members) {
                if (m.name == "//") continue;
                attrs.insert_or_assign(m.name, json_static_value(ctx, m.value, diags));
            }
            return cty::Value::object(std::move(attrs));
        }
    }
    return cty::Value::dynamic_unknown();
}

}  // namespace

std::optional<std::string_view> literal_template_text(const hcl::Expr& e) {
    if (e.kind != hcl::ExprKind::template_) return std::nullopt;
    const auto& t = hcl::as<hcl::TemplateExpr>(e);
    if (t.parts.size() != 1 || t.parts[0]->kind != hcl::ExprKind::literal) return std::nullopt;
    const auto& lit = hcl::as<hcl::LiteralExpr>(*t.parts[0]);
    if (lit.literal != hcl::LiteralKind::string) return std::nullopt;
    return std::string_view(lit.text);
}

cty::Value static_value(const DecodeContext& ctx, const Expression& expr, bool report) {
    Diagnostics diags;
    cty::Value v;
    if (expr.native) {
        if (auto text = literal_template_text(*expr.native)) return cty::Value::string(*text);
        // `null`, `true` and `false` (a variable's default, `sensitive`,
        // `nullable`...) are their own value: no evaluator is set up for
        // them. A number literal is evaluated, which checks its text.
        if (expr.native->kind == hcl::ExprKind::literal) {
            const auto& lit = hcl::as<hcl::LiteralExpr>(*expr.native);
            if (lit.literal == hcl::LiteralKind::null) return cty::Value::dynamic_null();
            if (lit.literal == hcl::LiteralKind::boolean)
                return cty::Value::boolean(std::string_view(lit.text) == "true");
        }
        auto r = hcl::evaluate(*expr.native, nullptr);
        v = std::move(r.value);
        diags = std::move(r.diagnostics);
    } else if (expr.json) {
        v = json_static_value(ctx, *expr.json, diags);
    }
    if (report) {
        for (auto& d : diags) {
            // Evaluation without a context does not know the file name.
            if (d.filename.empty()) d.filename = ctx.file->path();
            ctx.diags->push_back(std::move(d));
        }
    } else if (has_errors(diags)) {
        return cty::Value::dynamic_unknown();
    }
    return v;
}

std::optional<std::vector<Expression>> expr_list(const DecodeContext& ctx, const Expression& expr) {
    std::vector<Expression> out;
    if (expr.native) {
        const hcl::Expr* e = expr.native;
        if (e->kind == hcl::ExprKind::tuple) {
            for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(*e).items)
                out.push_back(Expression{ctx.file, item->range, item, nullptr});
            return out;
        }
    } else if (expr.json && expr.json->is_array()) {
        for (const auto& item : expr.json->items) out.push_back(Expression{ctx.file, item.range, nullptr, &item});
        return out;
    }
    ctx.error(code::static_list_required, "Invalid expression", "A static list expression is required.", expr.range);
    return std::nullopt;
}

std::optional<std::vector<MapPair>> expr_map(const DecodeContext& ctx, const Expression& expr) {
    std::vector<MapPair> out;
    if (expr.native && expr.native->kind == hcl::ExprKind::object) {
        for (const auto& item : hcl::as<hcl::ObjectExpr>(*expr.native).items) {
            out.push_back(MapPair{Expression{ctx.file, item.key->range, item.key, nullptr},
                                  Expression{ctx.file, item.value->range, item.value, nullptr}});
        }
        return out;
    }
    if (expr.json && expr.json->is_object()) {
        for (const auto& m : expr.json->members) {
            // A JSON object key stands for a string; keep its range.
            out.push_back(MapPair{Expression{ctx.file, m.name_range, nullptr, nullptr},
                                  Expression{ctx.file, m.value.range, nullptr, &m.value}});
        }
        return out;
    }
    ctx.error(code::static_map_required, "Invalid expression", "A static map expression is required.", expr.range);
    return std::nullopt;
}

namespace {

const hcl::Expr* unwrap_key(const hcl::Expr* e) {
    if (e && e->kind == hcl::ExprKind::object_key) return hcl::as<hcl::ObjectKeyExpr>(*e).wrapped;
    return e;
}

}  // namespace

bool is_native_quoted_string(const Expression& expr) {
    const hcl::Expr* e = unwrap_key(expr.native);
    if (!e || e->kind != hcl::ExprKind::template_) return false;
    const auto& t = hcl::as<hcl::TemplateExpr>(*e);
    if (t.heredoc || t.parts.size() != 1) return false;
    return t.parts[0]->kind == hcl::ExprKind::literal;
}

std::string expr_keyword(const DecodeContext& ctx, const Expression& expr) {
    const hcl::Expr* e = unwrap_key(expr.native);
    if (expr.json) {
        if (!expr.json->is_string()) return {};
        Diagnostics scratch;
        e = json_string_expr(ctx, *expr.json, false, scratch);
        if (has_errors(scratch)) return {};
    }
    if (!e || e->kind != hcl::ExprKind::scope_traversal) return {};
    const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
    if (!t.steps.empty()) return {};
    return std::string(t.root);
}

namespace {

// hclsyntax.ParseTraversalAbs on a string's content (quoted references and
// JSON strings): name, then `.name`, `.N` or `[KEY]` steps with a number or
// quoted string key. nullptr with an error when the text is not one.
const hcl::ScopeTraversalExpr* parse_traversal_text(const DecodeContext& ctx, std::string_view text, Range whole) {
    auto fail = [&]() -> const hcl::ScopeTraversalExpr* {
        ctx.error(code::static_reference_required, "Invalid expression",
                  "A single static variable reference is required: only attribute access and indexing with constant "
                  "keys. No calculations, function calls, template expressions, etc are allowed here.",
                  whole);
        return nullptr;
    };
    auto ident_start = [](char c) {
        return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
    };
    auto ident_char = [&](char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'; };
    std::size_t i = 0;
    auto ident = [&]() {
        std::size_t b = i;
        if (i < text.size() && ident_start(text[i])) {
            ++i;
            while (i < text.size() && ident_char(text[i])) ++i;
        }
        return text.substr(b, i - b);
    };
    std::string_view root = ident();
    if (root.empty()) return fail();
    std::vector<hcl::TraversalStep> steps;
    while (i < text.size()) {
        if (text[i] == '.') {
            ++i;
            if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
                std::size_t b = i;
                while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
                auto* key =
                    ctx.arena->make<hcl::LiteralExpr>(hcl::Expr{hcl::ExprKind::literal, whole},
                                                      hcl::LiteralKind::number, ctx.arena->copy(text.substr(b, i - b)));
                steps.push_back(hcl::TraversalStep::index(whole, key, /*legacy=*/true));
                continue;
            }
            std::string_view name = ident();
            if (name.empty()) return fail();
            steps.push_back(hcl::TraversalStep::attr(whole, ctx.arena->copy(name)));
        } else if (text[i] == '[') {
            ++i;
            const hcl::LiteralExpr* key = nullptr;
            if (i < text.size() && text[i] == '"') {
                ++i;
                std::string value;
                while (i < text.size() && text[i] != '"') {
                    if (text[i] == '\\' && i + 1 < text.size()) ++i;
                    value += text[i++];
                }
                if (i >= text.size()) return fail();
                ++i;
                key = ctx.arena->make<hcl::LiteralExpr>(hcl::Expr{hcl::ExprKind::literal, whole},
                                                        hcl::LiteralKind::string,
                                                        ctx.arena->copy(std::string_view(value)));
            } else {
                std::size_t b = i;
                if (i < text.size() && text[i] == '-') ++i;
                while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
                if (b == i) return fail();
                key =
                    ctx.arena->make<hcl::LiteralExpr>(hcl::Expr{hcl::ExprKind::literal, whole},
                                                      hcl::LiteralKind::number, ctx.arena->copy(text.substr(b, i - b)));
            }
            if (i >= text.size() || text[i] != ']') return fail();
            ++i;
            steps.push_back(hcl::TraversalStep::index(whole, key));
        } else {
            return fail();
        }
    }
    auto span = ctx.arena->copy(steps);
    return ctx.arena->make<hcl::ScopeTraversalExpr>(hcl::Expr{hcl::ExprKind::scope_traversal, whole},
                                                    hcl::RootEnd::at_end, ctx.arena->copy(root),
                                                    std::span<const hcl::TraversalStep>(span.data(), span.size()));
}

}  // namespace

namespace {

// The parser reads `null`, `true` and `false` as literals, also where they
// start a traversal (`null.plain`, a provider configuration of the `null`
// provider). Read statically as a reference, as hcl does, they are names
// again: returns the traversal with the keyword as its root, or nullptr when
// `e` is not a keyword or a traversal from one.
const hcl::ScopeTraversalExpr* keyword_rooted_traversal(const DecodeContext& ctx, const hcl::Expr* e) {
    if (e == nullptr || ctx.arena == nullptr) return nullptr;
    const hcl::Expr* source = e;
    std::span<const hcl::TraversalStep> steps;
    if (e->kind == hcl::ExprKind::relative_traversal) {
        const auto& rt = hcl::as<hcl::RelativeTraversalExpr>(*e);
        source = rt.source;
        steps = rt.steps;
    }
    if (source->kind != hcl::ExprKind::literal) return nullptr;
    const auto& lit = hcl::as<hcl::LiteralExpr>(*source);
    if (lit.literal != hcl::LiteralKind::null && lit.literal != hcl::LiteralKind::boolean) return nullptr;
    // The keyword's range starts the expression's, and its text is its spelling.
    return ctx.arena->make<hcl::ScopeTraversalExpr>(hcl::Expr{hcl::ExprKind::scope_traversal, e->range},
                                                    hcl::RootEnd::after_name, lit.text, steps);
}

}  // namespace

const hcl::ScopeTraversalExpr* traversal_for_expr(const DecodeContext& ctx, const Expression& expr, bool relative,
                                                  bool shim_quoted, bool want_keyword) {
    const hcl::Expr* e = unwrap_key(expr.native);
    if (expr.json) {
        if (expr.json->is_string()) return parse_traversal_text(ctx, expr.json->text, expr.range);
        e = nullptr;
    } else if (shim_quoted && is_native_quoted_string(expr)) {
        // Terraform 0.11 wrote references in quotes; they are still read,
        // with a deprecation warning.
        const auto& lit = hcl::as<hcl::LiteralExpr>(*hcl::as<hcl::TemplateExpr>(*e).parts[0]);
        const hcl::ScopeTraversalExpr* t = parse_traversal_text(ctx, lit.text, expr.range);
        if (!t) return nullptr;
        if (want_keyword) {
            ctx.warning(
                code::quoted_keywords_are_deprecated, "Quoted keywords are deprecated",
                "In this context, keywords are expected literally rather than in quotes. Terraform 0.11 and "
                "earlier required quotes, but quoted keywords are now deprecated and will be removed in a future "
                "version of Terraform. Remove the quotes surrounding this keyword to silence this warning.",
                expr.range);
        } else {
            ctx.warning(code::quoted_references_are_deprecated, "Quoted references are deprecated",
                        "In this context, references are expected literally rather than in quotes. Terraform 0.11 and "
                        "earlier required quotes, but quoted references are now deprecated and will be removed in a "
                        "future version of Terraform. Remove the quotes surrounding this reference to silence this "
                        "warning.",
                        expr.range);
        }
        return t;
    }
    if (e && e->kind == hcl::ExprKind::scope_traversal) return &hcl::as<hcl::ScopeTraversalExpr>(*e);
    if (const hcl::ScopeTraversalExpr* t = keyword_rooted_traversal(ctx, e)) return t;
    (void)relative;
    {
        ctx.error(code::static_reference_required, "Invalid expression",
                  "A single static variable reference is required: only attribute access and indexing with constant "
                  "keys. No calculations, function calls, template expressions, etc are allowed here.",
                  expr.range);
    }
    return nullptr;
}

Traversal make_traversal(const DecodeContext& ctx, const hcl::ScopeTraversalExpr& t, const Expression& from) {
    Traversal out;
    out.text = hcl::render_traversal(t);
    out.range = from.range;
    out.file = ctx.file;
    return out;
}

namespace {

// A byte table rather than <cctype>: every block label goes through here,
// and the classification must not depend on the C locale anyway.
enum IdentifierByte : std::uint8_t { not_identifier = 0, identifier_start_byte = 1, identifier_byte = 2 };

constexpr std::array<std::uint8_t, 256> identifier_bytes = [] {
    std::array<std::uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) {
        const bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
        const bool inner = start || (c >= '0' && c <= '9') || c == '-';
        const int bits = (start ? identifier_start_byte : 0) | (inner ? identifier_byte : 0);
        t[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(bits);
    }
    return t;
}();

bool identifier_start(unsigned char c) { return (identifier_bytes[c] & identifier_start_byte) != 0; }

}  // namespace

bool valid_identifier(std::string_view s) {
    if (s.empty()) return false;
    if (!identifier_start(static_cast<unsigned char>(s[0]))) return false;
    // Names are nearly always valid, and read whole: the bytes' classes are
    // ANDed together, four at a time, with no branch per byte.
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::uint8_t all = identifier_byte;
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        all &= identifier_bytes[p[i]] & identifier_bytes[p[i + 1]] & identifier_bytes[p[i + 2]] &
               identifier_bytes[p[i + 3]];
    }
    for (; i < n; ++i) all &= identifier_bytes[p[i]];
    return (all & identifier_byte) != 0;
}

std::vector<const hcl::ScopeTraversalExpr*> expression_variables(const DecodeContext& ctx, const Expression& expr) {
    if (expr.native) return hcl::referenced_traversals(*expr.native);
    std::vector<const hcl::ScopeTraversalExpr*> out;
    if (!expr.json) return out;
    // JSON: every string is a template that may hold references.
    std::vector<const json::Value*> stack{expr.json};
    while (!stack.empty()) {
        const json::Value* v = stack.back();
        stack.pop_back();
        if (v->is_string()) {
            if (v->text.find("${") == std::string::npos && v->text.find("%{") == std::string::npos) continue;
            Diagnostics d;
            if (const hcl::Expr* e = json_string_expr(ctx, *v, true, d)) {
                for (auto* t : hcl::referenced_traversals(*e)) out.push_back(t);
            }
        } else if (v->is_array()) {
            for (const auto& i : v->items) stack.push_back(&i);
        } else if (v->is_object()) {
            for (const auto& m : v->members) stack.push_back(&m.value);
        }
    }
    return out;
}

}  // namespace tfsift::config::detail
