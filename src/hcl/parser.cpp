// The HCL native-syntax parser: recursive descent over the scanner's token
// stream, following hclsyntax's parser (newline sensitivity, recovery and the
// diagnostics it reports, including where).
#include <algorithm>
#include <cassert>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <utf8proc.h>

#include "hcl/lexer.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::hcl {
namespace {

using detail::Lexer;
using detail::LexMode;
using detail::Tok;
using detail::Token;

Range between(Range a, Range b) {
    Range r;
    r.start = a.start.byte <= b.start.byte ? a.start : b.start;
    r.end = a.end.byte >= b.end.byte ? a.end : b.end;
    return r;
}

Tok opposite(Tok t) {
    switch (t) {
        case Tok::obrace: return Tok::cbrace;
        case Tok::cbrace: return Tok::obrace;
        case Tok::obrack: return Tok::cbrack;
        case Tok::cbrack: return Tok::obrack;
        case Tok::oparen: return Tok::cparen;
        case Tok::cparen: return Tok::oparen;
        case Tok::oquote: return Tok::cquote;
        case Tok::cquote: return Tok::oquote;
        case Tok::oheredoc: return Tok::cheredoc;
        case Tok::cheredoc: return Tok::oheredoc;
        case Tok::template_control:
        case Tok::template_interp: return Tok::template_seq_end;
        case Tok::template_seq_end: return Tok::template_interp;
        default: return Tok::nil;
    }
}

// unicode.IsSpace for the code points that matter in practice.
std::size_t leading_space_bytes(std::string_view s, std::size_t* count = nullptr) {
    std::size_t i = 0, n = 0;
    while (i < s.size()) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            ++i;
        } else if (c == 0xC2 && i + 1 < s.size() &&
                   (static_cast<unsigned char>(s[i + 1]) == 0x85 || static_cast<unsigned char>(s[i + 1]) == 0xA0)) {
            i += 2;
        } else {
            break;
        }
        ++n;
    }
    if (count) *count = n;
    return i;
}

std::size_t trailing_space_bytes(std::string_view s) {
    std::size_t i = s.size();
    while (i > 0) {
        unsigned char c = static_cast<unsigned char>(s[i - 1]);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            --i;
        } else if (i >= 2 && static_cast<unsigned char>(s[i - 2]) == 0xC2 && (c == 0x85 || c == 0xA0)) {
            i -= 2;
        } else {
            break;
        }
    }
    return s.size() - i;
}

bool valid_number_spelling(std::string_view s) {
    std::size_t i = 0;
    auto digits = [&] {
        std::size_t b = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i > b;
    };
    if (!digits()) return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        digits();
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digits()) return false;
    }
    return i == s.size();
}

// Whether s starts with an escaped template opener, "$${" or "%%{".
bool escaped_opener(std::string_view s) {
    return s.size() >= 3 && (s[0] == '$' || s[0] == '%') && s[1] == s[0] && s[2] == '{';
}

// A template part before lowering (hclsyntax's templateToken).
struct TemplatePart {
    enum Kind : std::uint8_t { literal, interp, if_, else_, endif, for_, endfor, end } kind;
    Range range;
    std::string_view text;       // literal value
    const Expr* expr = nullptr;  // interp expression, if condition, for collection
    std::string_view key_var, value_var;
};

// A list under construction (a body's attributes, a call's arguments, a
// traversal's steps): a stretch at the top of a stack the thread keeps
// between parses, not a vector of its own, as a corpus holds millions of
// such lists and each vector would allocate. A list starts where its stack
// ends and gives the place back when it goes (its items copied into the tree
// space by then), exceptions included. Lists of one type nest the way the
// syntax does, so only the innermost open list of a type grows.
template <class T>
class ListOnStack {
public:
    ListOnStack() : stack_(thread_stack()), start_(stack_.size()), depth_(++open_lists()) {}
    ~ListOnStack() {
        stack_.resize(start_);
        --open_lists();
    }
    ListOnStack(const ListOnStack&) = delete;
    ListOnStack& operator=(const ListOnStack&) = delete;

    void push_back(const T& item) {
        assert(depth_ == open_lists() && "only the innermost open list of a type may grow");
        stack_.push_back(item);
    }
    void clear() { stack_.resize(start_); }
    [[nodiscard]] std::size_t size() const { return stack_.size() - start_; }
    [[nodiscard]] bool empty() const { return stack_.size() == start_; }
    [[nodiscard]] const T& operator[](std::size_t i) const { return stack_[start_ + i]; }
    [[nodiscard]] const T& back() const { return stack_.back(); }
    [[nodiscard]] const T* begin() const { return stack_.data() + start_; }
    [[nodiscard]] const T* end() const { return stack_.data() + stack_.size(); }
    [[nodiscard]] std::span<const T> items() const { return {begin(), size()}; }

private:
    static std::vector<T>& thread_stack() {
        thread_local std::vector<T> stack;
        return stack;
    }
    static std::size_t& open_lists() {
        thread_local std::size_t open = 0;
        return open;
    }
    std::vector<T>& stack_;
    std::size_t start_;
    std::size_t depth_;  // how many lists of this type were open, this one included
};

class Parser {
public:
    Parser(const SourceFile& source, std::string_view text, Pos start, LexMode mode, Arena& arena,
           std::vector<Comment>* comments)
        : source_(source),
          full_(source.text()),
          arena_(arena),
          lexer_(text, start, mode, source.path(), comments, &lex_diags_) {
        newlines_ = mode == LexMode::normal;
    }

    Body parse_file_body() {
        batch_ = true;
        return parse_body(Tok::eof);
    }

    const Expr* parse_whole_expression() {
        newlines_ = false;
        const Expr* e = parse_expression();
        Token next = peek();
        if (next.type != Tok::eof && !recovery_) {
            error("Extra characters after expression",
                  "An expression was successfully parsed, but extra characters were found after it.", next.range);
        }
        return e;
    }

    const Expr* parse_whole_template() { return parse_template(Tok::eof, false, false, Range{}); }

    // Whether a function call with a namespaced name was parsed.
    [[nodiscard]] bool namespaced_calls() const { return namespaced_calls_; }

    // Lexer diagnostics first, as hclsyntax reports them before parsing.
    Diagnostics take_diagnostics() {
        Diagnostics all = std::move(lex_diags_);
        lexer_.limit().append_left_out(all, source_.path());
        for (auto& d : diags_) all.push_back(std::move(d));
        limit_.append_left_out(all, source_.path());
        return all;
    }

private:
    // ---- the peeker ------------------------------------------------------
    // The tokens scanned and not yet read are buf_[head_, tail_). A whole
    // file is scanned a batch at a time (the lexer's loop, not a call per
    // token): it is read to its end in any case, so the lexer's comments and
    // diagnostics come out the same. Elsewhere (an expression, which may stop
    // early) one token at a time. The buffer doubles when a peek looks
    // further ahead than it holds (a long run of blank lines or comments
    // inside brackets).
    Token raw(std::size_t i) {
        if (tail_ - head_ > i) [[likely]]
            return buf_[head_ + i];
        return scan(i);
    }

    [[gnu::noinline]] Token scan(std::size_t i) {
        do {
            if (tail_ == buf_.size()) {
                if (head_ == 0) {
                    buf_.resize(buf_.size() * 2);
                } else {
                    std::copy(buf_.begin() + static_cast<std::ptrdiff_t>(head_),
                              buf_.begin() + static_cast<std::ptrdiff_t>(tail_), buf_.begin());
                    tail_ -= head_;
                    head_ = 0;
                }
            }
            tail_ += lexer_.fill(buf_.data() + tail_, batch_ ? buf_.size() - tail_ : 1);
        } while (tail_ - head_ <= i);
        return buf_[head_ + i];
    }

    bool comment_ends_line(const Token& t) const {
        return t.range.end.byte > t.range.start.byte && full_[t.range.end.byte - 1] == '\n';
    }

    // Inline, as it runs several times per token: every precedence level
    // peeks at the same token; it is remembered until it is read or the
    // newline mode changes.
    // Most often the token to peek at is the next one scanned, neither a
    // comment nor a newline to pass over: that is looked at here, before
    // the scan's call.
    std::pair<Token, std::size_t> peek_index() {
        if (peeked_in_ == mode_key(newlines_)) [[likely]]
            return {peek_tok_, peek_idx_};
        if (head_ < tail_) {
            const Token t = buf_[head_];
            if (t.type != Tok::comment && (t.type != Tok::newline || newlines_)) return remember(t, 0, newlines_);
        }
        return peek_scan();
    }

    [[gnu::noinline]] std::pair<Token, std::size_t> peek_scan() {
        const bool nl = newlines_;
        for (std::size_t i = 0;; ++i) {
            Token t = raw(i);
            if (t.type == Tok::comment) {
                if (!nl) continue;
                if (comment_ends_line(t)) {
                    t.type = Tok::newline;  // a line comment ends its line
                    return remember(t, i, nl);
                }
                continue;
            }
            if (t.type == Tok::newline && !nl) continue;
            return remember(t, i, nl);
        }
    }

    // The newline mode as one nonzero byte, so that whether the remembered
    // token holds is one comparison.
    static std::uint8_t mode_key(bool newlines) { return newlines ? 2 : 1; }

    std::pair<Token, std::size_t> remember(const Token& t, std::size_t i, bool nl) {
        peeked_in_ = mode_key(nl);
        peek_tok_ = t;
        peek_idx_ = i;
        return {t, i};
    }

    // The remembered token is taken here, inline: a call to peek_index
    // returns its pair through memory.
    Token peek() {
        if (peeked_in_ == mode_key(newlines_)) [[likely]]
            return peek_tok_;
        return peek_index().first;
    }

    Token read() {
        auto [t, i] = peek_index();
        head_ += i + 1;
        peeked_in_ = 0;
        prev_ = t.range;
        has_prev_ = true;
        return t;
    }

    Range prev_range() {
        if (!has_prev_) return peek().range;
        return prev_;
    }

    struct NewlineScope {
        Parser& p;
        bool saved;
        NewlineScope(Parser& parser, bool include) : p(parser), saved(parser.newlines_) { p.newlines_ = include; }
        ~NewlineScope() { p.newlines_ = saved; }
        NewlineScope(const NewlineScope&) = delete;
        NewlineScope& operator=(const NewlineScope&) = delete;
    };

    // A token's text. Its range is inside the file (the lexer made it), so
    // no bounds check.
    std::string_view text(const Token& t) const {
        return {full_.data() + t.range.start.byte, t.range.end.byte - t.range.start.byte};
    }

    // ---- recovery (hclsyntax's recover / recoverAfterBodyItem) -----------
    Token recover(Tok end) {
        const Tok start = opposite(end);
        recovery_ = true;
        int nest = 0;
        for (;;) {
            Token t = read();
            Tok ty = t.type;
            if (end == Tok::template_seq_end && ty == Tok::template_control) ty = Tok::template_interp;
            if (ty == start && start != Tok::nil) {
                ++nest;
            } else if (ty == end) {
                if (nest < 1) return t;
                --nest;
            } else if (ty == Tok::eof) {
                return t;
            }
        }
    }

    void recover_over(Tok end) {
        // Reads up to and including the next `end` at this nesting level.
        recover(end);
    }

    void recover_after_body_item() {
        recovery_ = true;
        std::vector<Tok> open;
        for (;;) {
            Token t = read();
            switch (t.type) {
                case Tok::newline:
                    if (open.empty()) return;
                    break;
                case Tok::eof: return;
                case Tok::obrace:
                case Tok::obrack:
                case Tok::oparen:
                case Tok::oquote:
                case Tok::oheredoc:
                case Tok::template_interp:
                case Tok::template_control: open.push_back(t.type); break;
                case Tok::cbrace:
                case Tok::cbrack:
                case Tok::cparen:
                case Tok::cquote:
                case Tok::cheredoc: {
                    Tok opener = opposite(t.type);
                    while (!open.empty() && open.back() != opener) open.pop_back();
                    if (!open.empty()) open.pop_back();
                    break;
                }
                case Tok::template_seq_end:
                    while (!open.empty() && open.back() != Tok::template_interp && open.back() != Tok::template_control)
                        open.pop_back();
                    if (!open.empty()) open.pop_back();
                    break;
                default: break;
            }
        }
    }

    // ---- diagnostics -----------------------------------------------------
    void error(const char* summary, std::string detail, Range subject) {
        ++errors_;
        if (!limit_.admit(summary, subject)) return;
        diags_.push_back(Diagnostic{Severity::error, summary, std::move(detail), source_.path(), subject, {}});
    }
    // By errors seen, not kept: recovery must not depend on the limit.
    std::size_t mark() const { return errors_; }
    bool failed_since(std::size_t m) const { return errors_ > m; }

    // Bounds recursion so hostile nesting gives a diagnostic, not a crash.
    struct DepthGuard {
        Parser& p;
        bool ok;
        explicit DepthGuard(Parser& parser) : p(parser), ok(++parser.depth_ <= max_nesting_depth) {}
        ~DepthGuard() { --p.depth_; }
        DepthGuard(const DepthGuard&) = delete;
        DepthGuard& operator=(const DepthGuard&) = delete;
    };

    void too_deep(Range at) {
        if (!recovery_)
            error(
                "Nesting too deep",
                fmt::format(
                    "This configuration nests brackets, blocks or templates more than {} levels deep, which tfsift does not support.",
                    max_nesting_depth),
                at);
        recovery_ = true;
    }

    // ---- node construction -----------------------------------------------
    const LiteralExpr* literal(LiteralKind k, std::string_view text, Range r) {
        return arena_.make<LiteralExpr>(Expr{ExprKind::literal, r}, k, text);
    }
    // Stands in for an expression that could not be parsed. Its text is
    // copied: a node's strings must live in the tree space.
    const Expr* placeholder(Range r) { return literal(LiteralKind::null, arena_.copy(std::string_view("null")), r); }

    template <class T>
    std::span<const T> to_arena(const std::vector<T>& v) {
        auto s = arena_.copy(std::span<const T>(v.data(), v.size()));
        return {s.data(), s.size()};
    }
    template <class T>
    std::span<const T> to_arena(const ListOnStack<T>& list) {
        auto s = arena_.copy(list.items());
        return {s.data(), s.size()};
    }
    // Child lists are kept as 4-byte references.
    std::span<const Ref<Expr>> to_arena(std::span<const Expr* const> v) {
        if (v.empty()) return {};
        auto* out = static_cast<Ref<Expr>*>(arena_.allocate(v.size() * sizeof(Ref<Expr>), alignof(Ref<Expr>)));
        for (std::size_t i = 0; i < v.size(); ++i) ::new (out + i) Ref<Expr>(v[i]);
        return {out, v.size()};
    }
    std::span<const Ref<Expr>> to_arena(const std::vector<const Expr*>& v) {
        return to_arena(std::span<const Expr* const>(v.data(), v.size()));
    }
    std::span<const Ref<Expr>> to_arena(const ListOnStack<const Expr*>& list) { return to_arena(list.items()); }

    // ---- structure -------------------------------------------------------
    Body parse_body(Tok end) {
        ListOnStack<Attribute> attrs;
        ListOnStack<Block> blocks;
        std::unordered_map<std::string_view, std::size_t> index;
        Range start_range = prev_range();
        Range end_range = start_range;

        for (;;) {
            Token next = peek();
            if (next.type == end) {
                end_range = next.range;
                read();
                break;
            }
            if (next.type == Tok::newline) {
                read();
                continue;
            }
            if (next.type == Tok::ident) {
                Attribute attr{};
                Block block{};
                int kind = parse_body_item(attr, block);
                if (kind == 1) {
                    blocks.push_back(block);
                } else if (kind == 2) {
                    const Attribute* existing = nullptr;
                    if (attrs.size() < 16) {
                        for (const auto& a : attrs)
                            if (a.name == attr.name) existing = &a;
                    } else {
                        if (index.empty())
                            for (std::size_t i = 0; i < attrs.size(); ++i) index.emplace(attrs[i].name, i);
                        auto it = index.find(attr.name);
                        if (it != index.end()) existing = &attrs[it->second];
                    }
                    if (existing) {
                        ResolvedPos s = source_.resolve(existing->name_range().start);
                        ResolvedPos e = source_.resolve(existing->name_range().end);
                        error(
                            "Attribute redefined",
                            fmt::format(
                                "The argument \"{}\" was already set at {}:{},{}-{}. Each argument may be set only once.",
                                attr.name, source_.path(), s.line, s.column,
                                s.line == e.line ? fmt::format("{}", e.column)
                                                 : fmt::format("{},{}", e.line, e.column)),
                            attr.name_range());
                    } else {
                        if (!index.empty()) index.emplace(attr.name, attrs.size());
                        attrs.push_back(attr);
                    }
                }
                continue;
            }
            Token bad = read();
            if (!recovery_) {
                if (bad.type == Tok::oquote) {
                    error("Invalid argument name", "Argument names must not be quoted.", bad.range);
                } else if (bad.type == Tok::eof) {
                    if (end == Tok::cbrace)
                        error(
                            "Unclosed configuration block",
                            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            start_range);
                    else
                        error("Unclosed configuration body",
                              "Found end of file before the end of this configuration body.", start_range);
                } else {
                    error("Argument or block definition required", "An argument or block definition is required here.",
                          bad.range);
                }
            }
            end_range = prev_range();
            recover(end);
            break;
        }
        Body body;
        body.attributes = to_arena(attrs);
        body.blocks = to_arena(blocks);
        body.range = between(start_range, end_range);
        return body;
    }

    // 0: nothing usable, 1: block, 2: attribute.
    int parse_body_item(Attribute& attr, Block& block) {
        Token ident = read();
        Token next = peek();
        switch (next.type) {
            case Tok::equal: attr = finish_attribute(ident, false); return 2;
            case Tok::oquote:
            case Tok::obrace:
            case Tok::ident: return finish_block(ident, block) ? 1 : 0;
            default:
                error(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.range);
                recover_after_body_item();
                return 0;
        }
    }

    Attribute finish_attribute(const Token& ident, bool single_line) {
        Token eq = read();
        (void)eq;
        std::size_t m = mark();
        const Expr* expr = parse_expression();
        Range end_range;
        if (recovery_ && failed_since(m)) {
            end_range = prev_range();
            recover_after_body_item();
        } else {
            end_range = prev_range();
            if (!single_line) {
                Token end = peek();
                if (end.type != Tok::newline && end.type != Tok::eof) {
                    if (!recovery_) {
                        if (end.type == Tok::comma)
                            error(
                                "Unexpected comma after argument",
                                "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
                                end.range);
                        else
                            error("Missing newline after argument", "An argument definition must end with a newline.",
                                  end.range);
                    }
                    end_range = prev_range();
                    recover_after_body_item();
                } else {
                    end_range = prev_range();
                    read();
                }
            }
        }
        Attribute a;
        a.name = text(ident);
        a.expr = expr;
        a.range = between(ident.range, end_range);
        return a;
    }

    bool finish_block(const Token& ident, Block& block) {
        DepthGuard guard(*this);
        ListOnStack<Label> labels;
        Token obrace;
        block.type = text(ident);
        block.type_start = ident.range.start;
        if (!guard.ok) {
            too_deep(ident.range);
            recover_after_body_item();
            return false;
        }
        for (;;) {
            Token t = peek();
            if (t.type == Tok::obrace) {
                obrace = read();
                break;
            }
            if (t.type == Tok::oquote) {
                labels.push_back(parse_quoted_label());
                continue;
            }
            if (t.type == Tok::ident) {
                read();
                labels.push_back(Label{text(t), t.range, false});
                continue;
            }
            if (t.type == Tok::equal) {
                error(
                    "Invalid block definition",
                    "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
                    t.range);
            } else if (t.type == Tok::newline) {
                error(
                    "Invalid block definition",
                    "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                    t.range);
            } else if (!recovery_) {
                error("Invalid block definition",
                      "Either a quoted string block label or an opening brace (\"{\") is expected here.", t.range);
            }
            recover_after_body_item();
            block.labels = to_arena(labels);
            block.open_brace = ident.range;
            block.close_brace = labels.empty() ? ident.range : labels.back().range;
            block.body.range = ident.range;
            return true;
        }
        block.labels = to_arena(labels);
        block.open_brace = obrace.range;

        Body body;
        bool have_body = true;
        Token first = peek();
        if (first.type == Tok::newline || first.type == Tok::eof || first.type == Tok::cbrace) {
            body = parse_body(Tok::cbrace);
        } else {
            have_body = parse_single_attribute_body(body);
            Token after = peek();
            if (after.type == Tok::cbrace) {
                read();
            } else if (after.type == Tok::comma) {
                error(
                    "Invalid single-argument block definition",
                    "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
                    after.range);
                recover(Tok::cbrace);
            } else if (after.type == Tok::newline) {
                error(
                    "Invalid single-argument block definition",
                    "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
                    after.range);
                recover(Tok::cbrace);
            } else {
                if (!recovery_) {
                    if (after.type == Tok::eof)
                        error(
                            "Unclosed configuration block",
                            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            obrace.range);
                    else
                        error(
                            "Invalid single-argument block definition",
                            "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                            after.range);
                }
                recover(Tok::cbrace);
            }
        }
        Range cbrace = prev_range();
        Token eol = peek();
        if (eol.type == Tok::newline || eol.type == Tok::eof) {
            read();
        } else {
            if (!recovery_)
                error("Missing newline after block definition", "A block definition must end with a newline.",
                      eol.range);
            recover_after_body_item();
        }
        if (!have_body) body.range = between(obrace.range, cbrace);
        block.close_brace = cbrace;
        block.body = body;
        return true;
    }

    bool parse_single_attribute_body(Body& body) {
        Token ident = read();
        if (ident.type != Tok::ident) {
            recover_after_body_item();
            error("Argument or block definition required", "An argument or block definition is required here.",
                  ident.range);
            return false;
        }
        Token next = peek();
        if (next.type == Tok::equal) {
            Attribute a = finish_attribute(ident, true);
            body.attributes = arena_.copy(std::span<const Attribute>(&a, 1));
            body.range = a.range;
            return true;
        }
        recover_after_body_item();
        if (next.type == Tok::oquote || next.type == Tok::obrace || next.type == Tok::ident) {
            error(
                "Argument definition required",
                fmt::format(
                    "A single-line block definition can contain only a single argument. If you meant to define argument \"{}\", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.",
                    text(ident)),
                between(ident.range, next.range));
        } else {
            error(
                "Argument or block definition required",
                "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                ident.range);
        }
        return false;
    }

    Label parse_quoted_label() {
        Token oquote = read();
        std::string value;
        bool copied = false;
        std::string_view single;
        int pieces = 0;
        Range end_range = oquote.range;
        for (;;) {
            Token t = read();
            if (t.type == Tok::cquote) {
                end_range = t.range;
                break;
            }
            if (t.type == Tok::quoted_lit) {
                std::string_view piece = decode_literal(t);
                if (pieces == 0)
                    single = piece;
                else {
                    if (!copied) value.assign(single);
                    copied = true;
                    value.append(piece);
                }
                ++pieces;
                continue;
            }
            if (t.type == Tok::template_interp || t.type == Tok::template_control) {
                const char* which = t.type == Tok::template_control ? "%" : "$";
                error(
                    "Invalid string literal",
                    fmt::format(
                        "Template sequences are not allowed in this string. To include a literal \"{0}\", double it (as \"{0}{0}\") to escape it.",
                        which),
                    t.range);
                recover(Tok::template_seq_end);
                continue;
            }
            if (t.type == Tok::eof) {
                error("Unterminated template string", "No closing marker was found for the string.", t.range);
                end_range = t.range;
                break;
            }
            error("Invalid string literal", "This item is not valid in a string literal.", t.range);
            recover(Tok::cquote);
            end_range = t.range;
            break;
        }
        std::string_view v = copied ? arena_.copy(value) : single;
        return Label{v, between(oquote.range, end_range), true};
    }

    // ---- string literal decoding (hclsyntax ParseStringLiteralToken) -----
    std::string_view decode_literal(const Token& t) {
        std::string_view raw_text = text(t);
        if (t.type == Tok::string_lit) {
            if (escaped_opener(raw_text)) {
                std::string s(raw_text.substr(1));
                return arena_.copy(s);
            }
            return raw_text;
        }
        if (raw_text.find('\\') == std::string_view::npos) {
            if (escaped_opener(raw_text)) return arena_.copy(std::string(raw_text.substr(1)));
            return raw_text;
        }
        std::string out;
        out.reserve(raw_text.size());
        for (std::size_t i = 0; i < raw_text.size();) {
            char c = raw_text[i];
            if (c != '\\') {
                out.push_back(c);
                ++i;
                continue;
            }
            Range at = t.range;
            at.start.byte += static_cast<std::uint32_t>(i);
            at.end.byte = std::min(at.end.byte, at.start.byte + 2);
            if (i + 1 >= raw_text.size()) {
                error("Invalid escape sequence", "Backslash must be followed by an escape sequence selector character.",
                      at);
                break;
            }
            char sel = raw_text[i + 1];
            switch (sel) {
                case 'n':
                    out.push_back('\n');
                    i += 2;
                    continue;
                case 'r':
                    out.push_back('\r');
                    i += 2;
                    continue;
                case 't':
                    out.push_back('\t');
                    i += 2;
                    continue;
                case '"':
                    out.push_back('"');
                    i += 2;
                    continue;
                case '\\':
                    out.push_back('\\');
                    i += 2;
                    continue;
                case 'u':
                case 'U': {
                    std::size_t digits = sel == 'u' ? 4 : 8;
                    std::uint32_t cp = 0;
                    bool ok = i + 2 + digits <= raw_text.size();
                    for (std::size_t k = 0; ok && k < digits; ++k) {
                        char h = raw_text[i + 2 + k];
                        int v = (h >= '0' && h <= '9')   ? h - '0'
                                : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                                : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                                         : -1;
                        if (v < 0)
                            ok = false;
                        else
                            cp = cp * 16 + static_cast<std::uint32_t>(v);
                    }
                    if (!ok || !utf8proc_codepoint_valid(static_cast<utf8proc_int32_t>(cp))) {
                        error("Invalid escape sequence",
                              ok ? "Invalid unicode code point in escape sequence."
                                 : fmt::format("The \\{} escape sequence requires {} hexadecimal digits.", sel, digits),
                              at);
                        i += 2;
                        continue;
                    }
                    utf8proc_uint8_t buf[4];
                    auto n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(cp), buf);
                    out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
                    i += 2 + digits;
                    continue;
                }
                default: {
                    std::size_t u = detail::utf8_sequence_length(raw_text, i + 1);
                    if (u == 0) u = 1;
                    error("Invalid escape sequence",
                          fmt::format("The symbol \"{}\" is not a valid escape sequence selector.",
                                      raw_text.substr(i + 1, u)),
                          at);
                    out.append(raw_text.substr(i + 1, u));
                    i += 1 + u;
                    continue;
                }
            }
        }
        if (escaped_opener(out) && escaped_opener(raw_text)) out.erase(0, 1);
        return arena_.copy(out);
    }

    // ---- expressions -----------------------------------------------------
public:
    const Expr* parse_expression() {
        DepthGuard guard(*this);
        if (!guard.ok) {
            Token t = peek();
            too_deep(t.range);
            return placeholder(t.range);
        }
        return parse_conditional();
    }

private:
    const Expr* parse_conditional() {
        std::size_t m = mark();
        const Expr* cond = parse_binary(0);
        if (recovery_ && failed_since(m)) return cond;
        Token q = peek();
        if (q.type != Tok::question) return cond;
        read();
        std::size_t m2 = mark();
        const Expr* t = parse_expression();
        if (recovery_ && failed_since(m2)) return cond;
        Token colon = peek();
        if (colon.type != Tok::colon) {
            error("Missing false expression in conditional",
                  "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                  colon.range);
            return cond;
        }
        read();
        std::size_t m3 = mark();
        const Expr* f = parse_expression();
        if (recovery_ && failed_since(m3)) return cond;
        return arena_.make<ConditionalExpr>(Expr{ExprKind::conditional, between(cond->range, f->range)}, cond, t, f);
    }

    // The precedence level of a binary operator token, lowest first (`||`,
    // `&&`, equality, comparison, addition, multiplication), and its
    // operation; -1 for a token that is no binary operator.
    static int binary_level(Tok t, BinaryOp& op) {
        switch (t) {
            case Tok::or_: op = BinaryOp::logical_or; return 0;
            case Tok::and_: op = BinaryOp::logical_and; return 1;
            case Tok::equal_op: op = BinaryOp::equal; return 2;
            case Tok::not_equal: op = BinaryOp::not_equal; return 2;
            case Tok::greater: op = BinaryOp::greater; return 3;
            case Tok::greater_eq: op = BinaryOp::greater_or_equal; return 3;
            case Tok::less: op = BinaryOp::less; return 3;
            case Tok::less_eq: op = BinaryOp::less_or_equal; return 3;
            case Tok::plus: op = BinaryOp::add; return 4;
            case Tok::minus: op = BinaryOp::subtract; return 4;
            case Tok::star: op = BinaryOp::multiply; return 5;
            case Tok::slash: op = BinaryOp::divide; return 5;
            case Tok::percent: op = BinaryOp::modulo; return 5;
            default: return -1;
        }
    }

    // The operators of level `min_level` and above, left-associative, by
    // precedence climbing: the trees (and, after an error, the parts kept)
    // of hclsyntax's one function per level, without passing every operand
    // down through all six levels. When an operand fails while recovering,
    // what was built before its operator is returned, and so on outwards.
    const Expr* parse_binary(int min_level) {
        const std::size_t m = mark();
        const Expr* lhs = parse_with_traversals();
        if (recovery_ && failed_since(m)) return lhs;
        for (;;) {
            BinaryOp op{};
            const int level = binary_level(peek().type, op);
            if (level < min_level) return lhs;
            read();
            const std::size_t m2 = mark();
            const Expr* rhs = parse_binary(level + 1);
            if (recovery_ && failed_since(m2)) return lhs;
            lhs = arena_.make<BinaryOpExpr>(Expr{ExprKind::binary_op, between(lhs->range, rhs->range)}, op, lhs, rhs);
        }
    }

    const Expr* parse_with_traversals() {
        const Expr* term = parse_term();
        return parse_traversals(term);
    }

    // Steps collected for the traversal under construction; materialised
    // into a ScopeTraversalExpr or RelativeTraversalExpr when it ends.
    const Expr* attach_steps(const Expr* base, ListOnStack<TraversalStep>& steps) {
        if (steps.empty()) return base;
        Range r{base->range.start, steps.back().range.end};
        if (base->kind == ExprKind::scope_traversal) {
            // The root-only node was made by parse_term for this traversal.
            auto* st = const_cast<ScopeTraversalExpr*>(&as<ScopeTraversalExpr>(*base));
            st->steps = joined(st->steps, steps);
            st->range = r;
            steps.clear();
            return st;
        }
        if (base->kind == ExprKind::relative_traversal) {
            auto* rt = const_cast<RelativeTraversalExpr*>(&as<RelativeTraversalExpr>(*base));
            rt->steps = joined(rt->steps, steps);
            rt->range = r;
            steps.clear();
            return rt;
        }
        const Expr* out =
            arena_.make<RelativeTraversalExpr>(Expr{ExprKind::relative_traversal, r}, base, to_arena(steps));
        steps.clear();
        return out;
    }

    // The steps a traversal has, then `more`, in the tree space.
    std::span<const TraversalStep> joined(std::span<const TraversalStep> have, const ListOnStack<TraversalStep>& more) {
        if (have.empty()) return to_arena(more);
        auto* out = static_cast<TraversalStep*>(
            arena_.allocate((have.size() + more.size()) * sizeof(TraversalStep), alignof(TraversalStep)));
        std::uninitialized_copy(have.begin(), have.end(), out);
        std::uninitialized_copy(more.begin(), more.end(), out + have.size());
        return {out, have.size() + more.size()};
    }

    TraversalStep legacy_index_step(const Token& dot, const Token& num) {
        TraversalStep s{};
        s.kind = StepKind::index;
        s.legacy_index = true;
        s.range = between(dot.range, num.range);
        std::string_view spelling = text(num);
        if (auto d = spelling.find('.'); d != std::string_view::npos) {
            // foo.0.1 scans as the number 0.1; hcl refuses it rather than guess.
            error(
                "Invalid legacy index syntax",
                fmt::format(
                    "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{}][{}].",
                    spelling.substr(0, d), spelling.substr(d + 1)),
                num.range);
            s.set_key(literal(LiteralKind::number, spelling, num.range));
            return s;
        }
        s.set_key(number_literal(num));
        return s;
    }

    const LiteralExpr* number_literal(const Token& t) {
        std::string_view spelling = text(t);
        if (!valid_number_spelling(spelling))
            error("Invalid number literal", "Failed to recognize the value of this number literal.", t.range);
        return literal(LiteralKind::number, spelling, t.range);
    }

    const Expr* parse_traversals(const Expr* from) {
        DepthGuard guard(*this);
        if (!guard.ok) {
            too_deep(from->range);
            return from;
        }
        // Most terms have no traversal after them.
        if (const Tok first = peek().type; first != Tok::dot && first != Tok::obrack) return from;
        const Expr* ret = from;
        ListOnStack<TraversalStep> steps;
        for (;;) {
            Token next = peek();
            if (next.type == Tok::dot) {
                Token dot = read();
                Token attr = peek();
                if (attr.type == Tok::ident) {
                    read();
                    TraversalStep s{};
                    s.kind = StepKind::attr;
                    s.range = between(dot.range, attr.range);
                    s.name = text(attr);
                    steps.push_back(s);
                } else if (attr.type == Tok::number_lit) {
                    read();
                    steps.push_back(legacy_index_step(dot, attr));
                } else if (attr.type == Tok::star) {
                    Token marker = read();
                    ret = attach_steps(ret, steps);
                    ListOnStack<TraversalStep> each_steps;
                    Range first = peek().range;
                    Range last = marker.range;
                    while (peek().type == Tok::dot) {
                        Token d = read();
                        Token nt = peek();
                        if (nt.type == Tok::number_lit) {
                            read();
                            each_steps.push_back(legacy_index_step(d, nt));
                            last = nt.range;
                            continue;
                        }
                        if (nt.type != Tok::ident) {
                            if (!recovery_) {
                                if (nt.type == Tok::star)
                                    error(
                                        "Nested splat expression not allowed",
                                        "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                                        nt.range);
                                else
                                    error("Invalid attribute name", "An attribute name is required after a dot.",
                                          nt.range);
                            }
                            recovery_ = true;
                            continue;
                        }
                        read();
                        TraversalStep s{};
                        s.kind = StepKind::attr;
                        s.range = between(d.range, nt.range);
                        s.name = text(nt);
                        each_steps.push_back(s);
                        last = nt.range;
                    }
                    Range marker_range = between(dot.range, marker.range);
                    const auto* item =
                        arena_.make<AnonSymbolExpr>(AnonSymbolExpr{Expr{ExprKind::anon_symbol, marker_range}});
                    const Expr* each = item;
                    if (!each_steps.empty())
                        each = arena_.make<RelativeTraversalExpr>(
                            Expr{ExprKind::relative_traversal, between(first, last)}, item, to_arena(each_steps));
                    ret = arena_.make<SplatExpr>(Expr{ExprKind::splat, between(from->range, last)}, ret, each, item,
                                                 marker_range);
                } else {
                    error("Invalid attribute name", "An attribute name is required after a dot.", attr.range);
                    recovery_ = true;
                    // hclsyntax leaves the peeker here; guard against looping
                    // on a token that can never advance.
                    if (attr.type != Tok::dot) break;
                }
                continue;
            }
            if (next.type == Tok::obrack) {
                Token open = read();
                if (peek().type == Tok::star) {
                    read();
                    Token close = read();
                    if (close.type != Tok::cbrack && !recovery_) {
                        error(
                            "Missing close bracket on splat index",
                            "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                            close.range);
                        close = recover(Tok::cbrack);
                    }
                    ret = attach_steps(ret, steps);
                    Range marker_range = between(open.range, close.range);
                    const auto* item =
                        arena_.make<AnonSymbolExpr>(AnonSymbolExpr{Expr{ExprKind::anon_symbol, marker_range}});
                    const Expr* each = parse_traversals(item);
                    ret = arena_.make<SplatExpr>(Expr{ExprKind::splat, between(from->range, each->range)}, ret, each,
                                                 item, marker_range);
                    continue;
                }
                Token close;
                const Expr* key;
                {
                    NewlineScope nl(*this, false);
                    std::size_t m = mark();
                    key = parse_expression();
                    if (recovery_ && failed_since(m)) {
                        close = recover(Tok::cbrack);
                    } else {
                        close = read();
                        if (close.type != Tok::cbrack && !recovery_) {
                            error("Missing close bracket on index",
                                  "The index operator must end with a closing bracket (\"]\").", close.range);
                            close = recover(Tok::cbrack);
                        }
                    }
                }
                Range r = between(open.range, close.range);
                const LiteralExpr* lit_key = nullptr;
                if (key->kind == ExprKind::literal) {
                    lit_key = &as<LiteralExpr>(*key);
                } else if (key->kind == ExprKind::template_) {
                    const auto& tpl = as<TemplateExpr>(*key);
                    if (tpl.parts.size() == 1 && tpl.parts[0]->kind == ExprKind::literal)
                        lit_key = &as<LiteralExpr>(*tpl.parts[0]);
                }
                if (lit_key) {
                    TraversalStep s{};
                    s.kind = StepKind::index;
                    s.range = r;
                    s.set_key(lit_key);
                    steps.push_back(s);
                } else {
                    ret = attach_steps(ret, steps);
                    ret = arena_.make<IndexExpr>(Expr{ExprKind::index, between(from->range, r)}, ret, key, r);
                }
                continue;
            }
            break;
        }
        return attach_steps(ret, steps);
    }

    const Expr* parse_term() {
        Token start = peek();
        switch (start.type) {
            case Tok::oparen: {
                Token oparen = read();
                NewlineScope nl(*this, false);
                std::size_t m = mark();
                const Expr* inner = parse_expression();
                if (failed_since(m)) {
                    recover(Tok::cparen);
                    return inner;
                }
                Token close = peek();
                if (close.type != Tok::cparen) {
                    error("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.",
                          close.range);
                    recovery_ = true;
                }
                Token cparen = read();
                return arena_.make<ParenthesesExpr>(Expr{ExprKind::parentheses, between(oparen.range, cparen.range)},
                                                    inner);
            }
            case Tok::number_lit: {
                Token t = read();
                return number_literal(t);
            }
            case Tok::ident: {
                Token t = read();
                Tok after = peek().type;
                if (after == Tok::oparen || after == Tok::double_colon) return finish_function_call(t);
                std::string_view name = text(t);
                if (name == "true" || name == "false") return literal(LiteralKind::boolean, name, t.range);
                if (name == "null") return literal(LiteralKind::null, name, t.range);
                return arena_.make<ScopeTraversalExpr>(Expr{ExprKind::scope_traversal, t.range}, RootEnd::after_name,
                                                       name, std::span<const TraversalStep>{});
            }
            case Tok::oquote:
            case Tok::oheredoc: {
                if (start.type == Tok::oquote && plain_string_next()) return plain_string();
                Token open = read();
                bool heredoc = open.type == Tok::oheredoc;
                bool flush = heredoc && text(open).substr(0, 3) == "<<-";
                return parse_template(opposite(open.type), flush, heredoc, open.range);
            }
            case Tok::minus:
            case Tok::bang: {
                Token t = read();
                DepthGuard guard(*this);
                if (!guard.ok) {
                    too_deep(t.range);
                    return placeholder(t.range);
                }
                const Expr* operand = parse_with_traversals();
                return arena_.make<UnaryOpExpr>(Expr{ExprKind::unary_op, between(t.range, operand->range)},
                                                t.type == Tok::minus ? UnaryOp::negate : UnaryOp::logical_not, operand,
                                                t.range);
            }
            case Tok::obrack: return parse_tuple();
            case Tok::obrace: return parse_object();
            default:
                if (!recovery_) {
                    if (start.type == Tok::eof)
                        error("Missing expression",
                              "Expected the start of an expression, but found the end of the file.", start.range);
                    else
                        error("Invalid expression",
                              "Expected the start of an expression, but found an invalid expression token.",
                              start.range);
                }
                recovery_ = true;
                return placeholder(start.range);
        }
    }

    const Expr* finish_function_call(const Token& name) {
        Token open = read();
        std::string_view name_text = text(name);
        Pos name_end = name.range.end;
        while (open.type == Tok::double_colon) {
            Token next = read();
            if (next.type != Tok::ident) {
                error("Missing function name",
                      "Function scope resolution symbol :: must be followed by a function name in this scope.",
                      next.range);
                recover_over(Tok::oparen);
                return placeholder(between(name.range, next.range));
            }
            name_end = next.range.end;
            open = read();
        }
        name_text = full_.substr(name.range.start.byte, name_end.byte - name.range.start.byte);
        if (name_end.byte != name.range.end.byte) namespaced_calls_ = true;
        Range name_range{name.range.start, name_end};
        if (open.type != Tok::oparen) {
            error("Missing open parenthesis",
                  "Function selector must be followed by an open parenthesis to begin the function call.", open.range);
            recover_over(Tok::oparen);
            return placeholder(between(name.range, open.range));
        }
        // A namespaced name is stored without any spaces between its parts.
        if (name_text.find_first_of(" \t\r\n#/") != std::string_view::npos) {
            std::string compact;
            for (char c : name_text)
                if (c != ' ' && c != '\t' && c != '\r' && c != '\n') compact.push_back(c);
            name_text = arena_.copy(compact);
        }
        ListOnStack<const Expr*> args;
        bool expand_final = false;
        Token close = open;
        {
            NewlineScope nl(*this, false);
            for (;;) {
                if (peek().type == Tok::cparen) {
                    close = read();
                    break;
                }
                std::size_t m = mark();
                args.push_back(parse_expression());
                if (recovery_ && failed_since(m)) {
                    Token r = recover(Tok::cparen);
                    if (r.type == Tok::cparen) close = r;
                    break;
                }
                Token sep = read();
                if (sep.type == Tok::cparen) {
                    close = sep;
                    break;
                }
                if (sep.type == Tok::ellipsis) {
                    expand_final = true;
                    if (peek().type != Tok::cparen) {
                        if (!recovery_)
                            error(
                                "Missing closing parenthesis",
                                "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                                sep.range);
                        close = recover(Tok::cparen);
                    } else {
                        close = read();
                    }
                    break;
                }
                if (sep.type != Tok::comma) {
                    if (sep.type == Tok::eof)
                        error(
                            "Unterminated function call",
                            "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                            between(name.range, open.range));
                    else
                        error("Missing argument separator",
                              "A comma is required to separate each function argument from the next.", sep.range);
                    close = recover(Tok::cparen);
                    break;
                }
                if (peek().type == Tok::cparen) {
                    close = read();
                    break;
                }
            }
        }
        return arena_.make<FunctionCallExpr>(Expr{ExprKind::function_call, between(name_range, close.range)},
                                             expand_final, name_text, name_end, to_arena(args), open.range.start,
                                             close.range);
    }

    bool peek_is_for() {
        Token t = peek();
        return t.type == Tok::ident && text(t) == "for";
    }

    const Expr* parse_tuple() {
        Token open = read();
        NewlineScope nl(*this, false);
        if (peek_is_for()) return finish_for(open);
        ListOnStack<const Expr*> items;
        Token close;
        for (;;) {
            if (peek().type == Tok::cbrack) {
                close = read();
                break;
            }
            std::size_t m = mark();
            items.push_back(parse_expression());
            if (recovery_ && failed_since(m)) {
                close = recover(Tok::cbrack);
                break;
            }
            Token next = peek();
            if (next.type == Tok::cbrack) {
                close = read();
                break;
            }
            if (next.type != Tok::comma) {
                if (!recovery_) {
                    if (next.type == Tok::eof)
                        error(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                            open.range);
                    else
                        error("Missing item separator", "Expected a comma to mark the beginning of the next item.",
                              next.range);
                }
                close = recover(Tok::cbrack);
                break;
            }
            read();
        }
        return arena_.make<TupleExpr>(Expr{ExprKind::tuple, between(open.range, close.range)}, to_arena(items),
                                      close.range);
    }

    const Expr* parse_object() {
        Token open = read();
        bool is_for;
        {
            NewlineScope nl(*this, false);
            is_for = peek_is_for();
        }
        if (is_for) return finish_for(open);
        NewlineScope nl(*this, true);
        ListOnStack<ObjectItem> items;
        Token close;
        for (;;) {
            Token next = peek();
            if (next.type == Tok::newline) {
                read();
                continue;
            }
            if (next.type == Tok::cbrace) {
                close = read();
                break;
            }
            bool force_non_literal = next.type == Tok::oparen;
            std::size_t m = mark();
            const Expr* key = parse_expression();
            if (recovery_ && failed_since(m)) {
                close = recover(Tok::cbrace);
                break;
            }
            const Expr* key_expr =
                arena_.make<ObjectKeyExpr>(Expr{ExprKind::object_key, key->range}, force_non_literal, key);
            next = peek();
            if (next.type != Tok::equal && next.type != Tok::colon) {
                if (!recovery_) {
                    if (next.type == Tok::newline || next.type == Tok::comma)
                        error("Missing attribute value",
                              "Expected an attribute value, introduced by an equals sign (\"=\").", next.range);
                    else if (next.type == Tok::eof)
                        error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.range);
                    else
                        error("Missing key/value separator",
                              "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                              next.range);
                }
                close = recover(Tok::cbrace);
                break;
            }
            read();
            std::size_t m2 = mark();
            const Expr* value = parse_expression();
            items.push_back(ObjectItem{key_expr, value});
            if (recovery_ && failed_since(m2)) {
                close = recover(Tok::cbrace);
                break;
            }
            next = peek();
            if (next.type == Tok::cbrace) {
                close = read();
                break;
            }
            if (next.type != Tok::comma && next.type != Tok::newline) {
                if (!recovery_) {
                    if (next.type == Tok::eof)
                        error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.range);
                    else
                        error("Missing attribute separator",
                              "Expected a newline or comma to mark the beginning of the next attribute.", next.range);
                }
                close = recover(Tok::cbrace);
                break;
            }
            read();
        }
        return arena_.make<ObjectExpr>(Expr{ExprKind::object, between(open.range, close.range)}, to_arena(items),
                                       close.range);
    }

    const Expr* finish_for(const Token& open) {
        NewlineScope nl(*this, false);
        read();  // "for"
        const bool make_object = open.type == Tok::obrace;
        const Tok close_type = make_object ? Tok::cbrace : Tok::cbrack;
        auto bail = [&](const char* detail, bool report) -> const Expr* {
            if (report && !recovery_) error("Invalid 'for' expression", detail, peek().range);
            Token close = recover(close_type);
            return placeholder(between(open.range, close.range));
        };
        if (peek().type != Tok::ident) return bail("For expression requires variable name after 'for'.", true);
        std::string_view key_var, value_var = text(read());
        if (peek().type == Tok::comma) {
            key_var = value_var;
            read();
            if (peek().type != Tok::ident)
                return bail("For expression requires value variable name after comma.", true);
            value_var = text(read());
        }
        {
            Token in = peek();
            if (!(in.type == Tok::ident && text(in) == "in"))
                return bail("For expression requires the 'in' keyword after its name declarations.", true);
        }
        read();
        std::size_t m = mark();
        const Expr* coll = parse_expression();
        if (recovery_ && failed_since(m)) return bail("", false);
        if (peek().type != Tok::colon)
            return bail("For expression requires a colon after the collection expression.", true);
        read();
        const Expr* key_expr = nullptr;
        std::size_t m2 = mark();
        const Expr* value_expr = parse_expression();
        if (peek().type == Tok::fat_arrow) {
            read();
            key_expr = value_expr;
            value_expr = parse_expression();
        }
        if (recovery_ && failed_since(m2)) return bail("", false);
        bool group = false;
        Range ellipsis{};
        if (peek().type == Tok::ellipsis) {
            ellipsis = read().range;
            group = true;
        }
        const Expr* cond = nullptr;
        {
            Token t = peek();
            if (t.type == Tok::ident && text(t) == "if") {
                read();
                std::size_t m3 = mark();
                cond = parse_expression();
                if (recovery_ && failed_since(m3)) return bail("", false);
            }
        }
        Token close;
        if (peek().type == close_type) {
            close = read();
        } else {
            if (!recovery_)
                error("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.",
                      peek().range);
            close = recover(close_type);
        }
        if (!make_object) {
            if (key_expr)
                error("Invalid 'for' expression", "Key expression is not valid when building a tuple.",
                      key_expr->range);
            if (group)
                error("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.",
                      ellipsis);
        } else if (!key_expr) {
            error("Invalid 'for' expression", "Key expression is required when building an object.", value_expr->range);
        }
        auto* f = arena_.make<ForExpr>(Expr{ExprKind::for_, between(open.range, close.range)});
        f->key_var = key_var;
        f->value_var = value_var;
        f->collection = coll;
        f->key_expr = key_expr;
        f->value_expr = value_expr;
        f->condition = cond;
        f->group = group;
        f->open = open.range;
        f->close = close.range;
        return f;
    }

    // ---- templates -------------------------------------------------------
    // Appends the parts of the template up to `end` to `parts` (empty).
    void parse_template_parts(Tok end, Range& whole, std::vector<TemplatePart>& parts) {
        Range start_range = peek().range;
        Range end_range = start_range;
        bool ltrim_next = false, next_can_trim_prev = false;
        for (;;) {
            Token next = read();
            if (next.type == end) {
                end_range = next.range;
                break;
            }
            bool ltrim = ltrim_next;
            ltrim_next = false;
            bool can_trim_prev = next_can_trim_prev;
            next_can_trim_prev = false;
            auto trim_prev = [&] {
                if (can_trim_prev && text(next).size() == 3 && !parts.empty() &&
                    parts.back().kind == TemplatePart::literal) {
                    auto& s = parts.back().text;
                    s.remove_suffix(trailing_space_bytes(s));
                }
            };
            switch (next.type) {
                case Tok::string_lit:
                case Tok::quoted_lit: {
                    std::string_view s = decode_literal(next);
                    if (ltrim) s.remove_prefix(leading_space_bytes(s));
                    parts.push_back(TemplatePart{TemplatePart::literal, next.range, s});
                    next_can_trim_prev = true;
                    break;
                }
                case Tok::template_interp: {
                    trim_prev();
                    NewlineScope nl(*this, false);
                    const Expr* e = parse_expression();
                    Token close = peek();
                    if (close.type != Tok::template_seq_end) {
                        if (!recovery_) {
                            if (close.type == Tok::eof)
                                error(
                                    "Unclosed template interpolation sequence",
                                    "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                                    next.range);
                            else
                                error(
                                    "Extra characters after interpolation expression",
                                    "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                                    close.range);
                        }
                        recover(Tok::template_seq_end);
                    } else {
                        read();
                        if (text(close).size() == 2) ltrim_next = true;
                    }
                    parts.push_back(TemplatePart{TemplatePart::interp, between(next.range, close.range), {}, e});
                    break;
                }
                case Tok::template_control: {
                    trim_prev();
                    NewlineScope nl(*this, false);
                    Token kw = peek();
                    if (kw.type != Tok::ident) {
                        if (!recovery_)
                            error(
                                "Invalid template directive",
                                "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                                kw.range);
                        recover(Tok::template_seq_end);
                        continue;
                    }
                    read();
                    std::string_view word = text(kw);
                    TemplatePart part{TemplatePart::end, next.range};
                    if (word == "if") {
                        part.kind = TemplatePart::if_;
                        part.expr = parse_expression();
                    } else if (word == "else") {
                        part.kind = TemplatePart::else_;
                    } else if (word == "endif") {
                        part.kind = TemplatePart::endif;
                    } else if (word == "endfor") {
                        part.kind = TemplatePart::endfor;
                    } else if (word == "for") {
                        part.kind = TemplatePart::for_;
                        auto fail = [&](const char* detail) {
                            if (!recovery_) error("Invalid 'for' directive", detail, peek().range);
                            recover(Tok::template_seq_end);
                        };
                        if (peek().type != Tok::ident) {
                            fail("For directive requires variable name after 'for'.");
                            continue;
                        }
                        part.value_var = text(read());
                        if (peek().type == Tok::comma) {
                            part.key_var = part.value_var;
                            read();
                            if (peek().type != Tok::ident) {
                                fail("For directive requires value variable name after comma.");
                                continue;
                            }
                            part.value_var = text(read());
                        }
                        Token in = peek();
                        if (!(in.type == Tok::ident && text(in) == "in")) {
                            fail("For directive requires 'in' keyword after names.");
                            continue;
                        }
                        read();
                        part.expr = parse_expression();
                    } else {
                        if (!recovery_)
                            error("Invalid template control keyword",
                                  fmt::format("\"{}\" is not a valid template control keyword.", word), kw.range);
                        recover(Tok::template_seq_end);
                        continue;
                    }
                    part.range = between(next.range, peek().range);
                    Token close = peek();
                    if (close.type != Tok::template_seq_end) {
                        if (!recovery_) {
                            if (close.type == Tok::eof)
                                error(
                                    "Unclosed template directive",
                                    "There is no closing brace for this directive before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                                    next.range);
                            else
                                error(
                                    "Extra characters in template directive",
                                    fmt::format(
                                        "Expected a closing brace to end the sequence, but found extra characters after \"{}\".",
                                        word),
                                    close.range);
                        }
                        recover(Tok::template_seq_end);
                    } else {
                        read();
                        if (text(close).size() == 2) ltrim_next = true;
                    }
                    parts.push_back(part);
                    break;
                }
                default:
                    if (!recovery_)
                        error("Unterminated template string", "No closing marker was found for the string.",
                              next.range);
                    {
                        Token final_tok = next.type == Tok::eof ? next : recover(end);
                        end_range = final_tok.range;
                    }
                    goto done;
            }
        }
    done:
        if (parts.empty())
            parts.push_back(TemplatePart{TemplatePart::literal, Range{start_range.start, start_range.start}, {}});
        parts.push_back(TemplatePart{TemplatePart::end, end_range});
        whole = between(start_range, end_range);
    }

    // `<<-` heredocs: remove the smallest common leading whitespace.
    void flush_heredoc(std::vector<TemplatePart>& parts) {
        std::size_t min_spaces = SIZE_MAX;
        bool newline = true;
        std::vector<std::size_t> adjust;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const auto& p = parts[i];
            if (newline) {
                newline = false;
                std::size_t spaces;
                if (p.kind == TemplatePart::literal) {
                    std::size_t count = 0;
                    std::size_t bytes = leading_space_bytes(p.text, &count);
                    if (bytes == p.text.size() && !p.text.empty() && p.text.back() == '\n') {
                        spaces = SIZE_MAX;
                    } else {
                        spaces = count;
                        // the grapheme count of leading spaces: a CRLF pair is one
                        adjust.push_back(i);
                    }
                } else if (p.kind == TemplatePart::end) {
                    break;
                } else {
                    spaces = 0;
                }
                min_spaces = std::min(min_spaces, spaces);
            }
            if (p.kind == TemplatePart::literal && !p.text.empty() && p.text.back() == '\n') newline = true;
        }
        if (min_spaces == SIZE_MAX) return;
        for (std::size_t i : adjust) {
            auto& p = parts[i];
            std::size_t bytes = 0;
            for (std::size_t k = 0; k < min_spaces && bytes < p.text.size(); ++k) {
                std::size_t u = detail::utf8_sequence_length(p.text, bytes);
                if (u == 0) u = 1;
                if (p.text[bytes] == '\r' && bytes + 1 < p.text.size() && p.text[bytes + 1] == '\n') u = 2;
                bytes += u;
            }
            p.text.remove_prefix(std::min(bytes, p.text.size()));
            p.range.start.byte += static_cast<std::uint32_t>(bytes);
        }
    }

    // Joins each run of adjacent literal parts into one. A run whose pieces
    // lie back to back in the source stays a view of it; any other run (a
    // heredoc with its indentation removed, decoded escapes) is copied into
    // the arena once, whatever its length.
    // In place: each run of literals becomes one part, written at or before
    // where the run starts.
    void meld_literals(std::vector<TemplatePart>& parts) {
        std::size_t kept = 0;
        std::string joined;
        for (std::size_t i = 0; i < parts.size();) {
            if (parts[i].kind != TemplatePart::literal) {
                parts[kept++] = parts[i++];
                continue;
            }
            TemplatePart run = parts[i];
            std::size_t end = i + 1;
            bool contiguous = true;
            const char* last_end = run.text.empty() ? nullptr : run.text.data() + run.text.size();
            for (; end < parts.size() && parts[end].kind == TemplatePart::literal; ++end) {
                std::string_view t = parts[end].text;
                run.range = between(run.range, parts[end].range);
                if (t.empty()) continue;
                if (last_end == nullptr) {
                    run.text = t;
                } else if (t.data() != last_end) {
                    contiguous = false;
                }
                last_end = t.data() + t.size();
            }
            if (contiguous) {
                if (!run.text.empty())
                    run.text = std::string_view(run.text.data(), static_cast<std::size_t>(last_end - run.text.data()));
            } else {
                joined.clear();
                for (std::size_t k = i; k < end; ++k) joined.append(parts[k].text);
                run.text = arena_.copy(joined);
            }
            parts[kept++] = run;
            i = end;
        }
        parts.resize(kept);
    }

    // A quoted string of one literal and no template sequence, the most
    // common kind, built as parse_template builds it without its scratch
    // lists. (Inside quotes the lexer makes no newline or comment tokens,
    // so the next tokens scanned are the next ones read.)
    bool plain_string_next() {
        const std::size_t at = peek_index().second;  // where the quote is among the tokens scanned
        return raw(at + 1).type == Tok::quoted_lit && raw(at + 2).type == Tok::cquote;
    }
    const Expr* plain_string() {
        const Token open = read();
        const Token lit = read();
        const std::string_view value = decode_literal(lit);
        const Token close = read();
        abandoned_template_ = false;
        const Expr* part = literal(LiteralKind::string, value, lit.range);
        return arena_.make<TemplateExpr>(Expr{ExprKind::template_, between(open.range, close.range)}, false,
                                         to_arena(std::span<const Expr* const>(&part, 1)));
    }

    const Expr* parse_template(Tok end, bool flush, bool heredoc, Range open) {
        DepthGuard guard(*this);
        Range whole;
        // Scratch vectors from the parser's pools: a file has as many
        // templates as quoted strings, and each would allocate them anew.
        std::vector<TemplatePart> parts = take_scratch(part_pool_);
        parse_template_parts(end, whole, parts);
        if (flush) flush_heredoc(parts);
        meld_literals(parts);
        std::size_t pos = 0;
        std::vector<const Expr*> exprs = take_scratch(expr_pool_);
        abandoned_template_ = false;
        while (parts[pos].kind != TemplatePart::end) exprs.push_back(lower_part(parts, pos));
        Range r = end == Tok::eof ? whole : between(open, prev_range());
        const Expr* out = nullptr;
        if (parts.size() == 2 && parts[0].kind == TemplatePart::interp && !heredoc) {
            out = arena_.make<TemplateWrapExpr>(Expr{ExprKind::template_wrap, r}, exprs[0]);
        } else {
            out = arena_.make<TemplateExpr>(Expr{ExprKind::template_, r}, heredoc, to_arena(exprs));
        }
        part_pool_.push_back(std::move(parts));
        expr_pool_.push_back(std::move(exprs));
        return out;
    }

    // An empty vector with the capacity of one used before, if any.
    template <class T>
    static std::vector<T> take_scratch(std::vector<std::vector<T>>& pool) {
        if (pool.empty()) return {};
        std::vector<T> v = std::move(pool.back());
        pool.pop_back();
        v.clear();
        return v;
    }

    const Expr* template_of(std::vector<const Expr*>& exprs, Pos at) {
        if (exprs.empty()) exprs.push_back(literal(LiteralKind::string, {}, Range{at, at}));
        Range r = between(exprs.front()->range, exprs.back()->range);
        return arena_.make<TemplateExpr>(Expr{ExprKind::template_, r}, false, to_arena(exprs));
    }

    const Expr* lower_part(const std::vector<TemplatePart>& parts, std::size_t& pos) {
        const TemplatePart& p = parts[pos];
        switch (p.kind) {
            case TemplatePart::literal: ++pos; return literal(LiteralKind::string, p.text, p.range);
            case TemplatePart::interp: ++pos; return p.expr;
            case TemplatePart::if_:
            case TemplatePart::for_: {
                DepthGuard guard(*this);
                if (!guard.ok) {
                    too_deep(p.range);
                    // The rest of the template is skipped: the directives
                    // still open around it are not missing their ends.
                    abandoned_template_ = true;
                    while (parts[pos].kind != TemplatePart::end) ++pos;
                    return placeholder(p.range);
                }
                return p.kind == TemplatePart::if_ ? lower_if(parts, pos) : lower_for(parts, pos);
            }
            case TemplatePart::end:
                error("Unexpected end of template", "The control directives within this template are unbalanced.",
                      p.range);
                return placeholder(p.range);
            default: {
                const char* name = p.kind == TemplatePart::else_   ? "else"
                                   : p.kind == TemplatePart::endif ? "endif"
                                                                   : "endfor";
                ++pos;
                error(fmt::format("Unexpected {} directive", name).c_str(),
                      "The control directives within this template are unbalanced.", p.range);
                return placeholder(p.range);
            }
        }
    }

    const Expr* lower_if(const std::vector<TemplatePart>& parts, std::size_t& pos) {
        const TemplatePart& open = parts[pos++];
        std::vector<const Expr*> then_exprs, else_exprs;
        std::vector<const Expr*>* current = &then_exprs;
        Range endif_range;
        for (;;) {
            const TemplatePart& p = parts[pos];
            if (p.kind == TemplatePart::end) {
                if (!abandoned_template_)
                    error("Unexpected end of template",
                          "The if directive is missing its corresponding endif directive.", p.range);
                return placeholder(p.range);
            }
            if (p.kind == TemplatePart::else_ || p.kind == TemplatePart::endif || p.kind == TemplatePart::endfor) {
                ++pos;
                if (p.kind == TemplatePart::else_ && current == &then_exprs) {
                    current = &else_exprs;
                    continue;
                }
                if (p.kind == TemplatePart::endif) {
                    endif_range = p.range;
                    break;
                }
                error(p.kind == TemplatePart::else_ ? "Unexpected else directive" : "Unexpected endfor directive",
                      "Expecting an endif directive for the if started here.", p.range);
                return placeholder(p.range);
            }
            current->push_back(lower_part(parts, pos));
        }
        const Expr* t = template_of(then_exprs, open.range.end);
        const Expr* f = template_of(else_exprs, endif_range.start);
        return arena_.make<ConditionalExpr>(Expr{ExprKind::conditional, between(open.range, endif_range)}, open.expr, t,
                                            f);
    }

    const Expr* lower_for(const std::vector<TemplatePart>& parts, std::size_t& pos) {
        const TemplatePart& open = parts[pos++];
        std::vector<const Expr*> body;
        Range endfor_range;
        for (;;) {
            const TemplatePart& p = parts[pos];
            if (p.kind == TemplatePart::end) {
                if (!abandoned_template_)
                    error("Unexpected end of template",
                          "The for directive is missing its corresponding endfor directive.", p.range);
                return placeholder(p.range);
            }
            if (p.kind == TemplatePart::else_ || p.kind == TemplatePart::endif || p.kind == TemplatePart::endfor) {
                ++pos;
                if (p.kind == TemplatePart::endfor) {
                    endfor_range = p.range;
                    break;
                }
                error(p.kind == TemplatePart::else_ ? "Unexpected else directive" : "Unexpected endif directive",
                      "Expecting an endfor directive corresponding to the for directive.", p.range);
                return placeholder(p.range);
            }
            body.push_back(lower_part(parts, pos));
        }
        auto* f = arena_.make<ForExpr>(Expr{ExprKind::for_, between(open.range, endfor_range)});
        f->key_var = open.key_var;
        f->value_var = open.value_var;
        f->collection = open.expr;
        f->value_expr = template_of(body, open.range.end);
        f->open = open.range;
        f->close = endfor_range;
        return arena_.make<TemplateJoinExpr>(Expr{ExprKind::template_join, f->range}, f);
    }

    const SourceFile& source_;
    std::string_view full_;
    Arena& arena_;
    Diagnostics lex_diags_;
    Diagnostics diags_;
    std::size_t errors_ = 0;  // parser errors seen, kept or not
    detail::KindLimit limit_;
    Lexer lexer_;
    std::vector<Token> buf_ = std::vector<Token>(128);
    std::size_t head_ = 0;                              // tokens read from buf_
    std::size_t tail_ = 0;                              // tokens scanned into buf_
    bool batch_ = false;                                // scan ahead (see raw)
    std::vector<std::vector<TemplatePart>> part_pool_;  // see take_scratch
    std::vector<std::vector<const Expr*>> expr_pool_;
    std::uint8_t peeked_in_ = 0;  // the mode_key of the newline mode peek_tok_ was found in; 0: none
    Token peek_tok_;
    std::size_t peek_idx_ = 0;
    Range prev_{};
    bool has_prev_ = false;
    bool newlines_ = true;  // whether newlines are tokens here (NewlineScope)
    bool recovery_ = false;
    bool abandoned_template_ = false;  // lowering skipped to the end after nesting too deep
    bool namespaced_calls_ = false;
    int depth_ = 0;
};

Pos start_pos(const SourceFile& source) {
    std::string_view t = source.text();
    if (t.size() >= 3 && t.substr(0, 3) == "\xEF\xBB\xBF") return Pos{3};
    return Pos{0};
}

}  // namespace

File parse(const std::shared_ptr<const SourceFile>& source) {
    File file;
    file.source = source;
    // A tree takes about one and a half to three times the bytes of its
    // source, varying from file to file. The first block holds five quarters
    // of the source; when it is full it grows in place if it can (nothing
    // else was allocated after it), otherwise the rest come in blocks of a
    // sixteenth of the source (within bounds). Once the tree is complete the
    // unused end of the last block is given back if it can be. (The sizes
    // measured best with bench/parse_bench.cpp.)
    const std::size_t size = source->size();
    file.arena =
        std::make_unique<Arena>(size * 5 / 4 + 64, std::clamp<std::size_t>(size / 16, 256, std::size_t{32} * 1024));
    Pos start = start_pos(*source);
    std::string_view text = source->text().substr(start.byte);
    if (source->size() > UINT32_MAX - 16) {
        file.diagnostics.push_back(Diagnostic{Severity::error,
                                              "File too large",
                                              "tfsift reads configuration files up to 4 GiB.",
                                              source->path(),
                                              Range{},
                                              {}});
        file.body = file.arena->make<Body>();
        return file;
    }
    Parser parser(*source, text, start, LexMode::normal, *file.arena, &file.comments);
    Body body = parser.parse_file_body();
    file.body = file.arena->make<Body>(body);
    file.diagnostics = parser.take_diagnostics();
    file.calls_namespaced_functions = parser.namespaced_calls();
    file.comments.shrink_to_fit();  // kept as long as the tree
    file.arena->trim();
    return file;
}

const Expr* parse_expression(const SourceFile& source, std::string_view text, Pos start, Arena& arena,
                             Diagnostics& diags) {
    Parser parser(source, text, start, LexMode::normal, arena, nullptr);
    const Expr* e = parser.parse_whole_expression();
    for (auto& d : parser.take_diagnostics()) diags.push_back(std::move(d));
    return e;
}

const Expr* parse_template(const SourceFile& source, std::string_view text, Pos start, Arena& arena,
                           Diagnostics& diags) {
    Parser parser(source, text, start, LexMode::bare_template, arena, nullptr);
    const Expr* e = parser.parse_whole_template();
    for (auto& d : parser.take_diagnostics()) diags.push_back(std::move(d));
    return e;
}

}  // namespace tfsift::hcl
