#include "hcl/lexer.hpp"

#include "hcl/byte_scan.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstring>

#include <tao/pegtl.hpp>
#include <utf8proc.h>

namespace tfsift::hcl::detail {

namespace pegtl = tao::pegtl;

// ---- lexical grammar (PEGTL) ------------------------------------------------
namespace grammar {
using namespace tao::pegtl;

// An identifier: (ID_Start | '_') (ID_Continue | '-')*. ASCII is decided
// inline; other code points go through utf8proc's category tables.
struct identifier {
    using rule_t = identifier;
    using subs_t = type_list<>;
    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class, typename Input,
              typename... States>
    static bool match(Input& in, States&&...) {
        const char* b = in.current();
        const char* e = in.end();
        std::string_view s(b, static_cast<std::size_t>(e - b));
        std::size_t i = 0;
        auto take = [&](bool first) -> bool {
            if (i >= s.size()) return false;
            unsigned char c = static_cast<unsigned char>(s[i]);
            if (c < 0x80) {
                bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                          (!first && ((c >= '0' && c <= '9') || c == '-'));
                if (ok) ++i;
                return ok;
            }
            // hclsyntax's generated Unicode tables accept 0xCF followed by
            // any byte as an identifier character; mirror that so the same
            // files are accepted.
            if (c == 0xCF && i + 1 < s.size()) {
                i += 2;
                return true;
            }
            std::size_t n = utf8_sequence_length(s, i);
            if (n == 0) return false;
            utf8proc_int32_t cp = 0;
            if (utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + i),
                                 static_cast<utf8proc_ssize_t>(n), &cp) <= 0)
                return false;
            if (!(first ? is_id_start(cp) : is_id_continue(cp))) return false;
            i += n;
            return true;
        };
        if (!take(true)) return false;
        while (take(false)) {
        }
        in.bump_in_this_line(i);
        return true;
    }
};

struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, digit> {};
// Greedy; the scanner then gives back trailing dots, since a number literal
// never ends with '.' (so `a.0.b` keeps its dots as separators).
struct number_lit : seq<digit, star<sor<digit, one<'.'>, exponent>>> {};
struct newline_seq : seq<opt<one<'\r'>>, one<'\n'>> {};
struct heredoc_intro : seq<two<'<'>, opt<one<'-'>>, identifier, newline_seq> {};

}  // namespace grammar

namespace {

using Input = pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf>;

// Length of the match of Rule at text[p], or npos.
template <class Rule>
std::size_t match_length(std::string_view text, std::size_t p) {
    Input in(text.data() + p, text.data() + text.size(), "");
    if (!pegtl::parse<Rule>(in)) return std::string_view::npos;
    return static_cast<std::size_t>(in.current() - (text.data() + p));
}

// ASCII bytes that start an identifier (grammar::identifier); the ones
// that continue it are byte_scan.hpp's.
constexpr bool ascii_id_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'; }

std::string_view trim_space(std::string_view s) {
    while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    if (c < 0x80) return 1;
    if (c >= 0xC0 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF7)
        n = 4;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        auto d = static_cast<unsigned char>(s[i + k]);
        if (d < 0x80 || d > 0xBF) return 0;
    }
    return n;
}

bool is_id_start(std::int32_t cp) {
    switch (utf8proc_category(cp)) {
        case UTF8PROC_CATEGORY_LU:
        case UTF8PROC_CATEGORY_LL:
        case UTF8PROC_CATEGORY_LT:
        case UTF8PROC_CATEGORY_LM:
        case UTF8PROC_CATEGORY_LO:
        case UTF8PROC_CATEGORY_NL: return true;
        default:
            // Other_ID_Start
            return cp == 0x1885 || cp == 0x1886 || cp == 0x2118 || cp == 0x212E || cp == 0x309B || cp == 0x309C;
    }
}

bool is_id_continue(std::int32_t cp) {
    if (is_id_start(cp)) return true;
    switch (utf8proc_category(cp)) {
        case UTF8PROC_CATEGORY_MN:
        case UTF8PROC_CATEGORY_MC:
        case UTF8PROC_CATEGORY_ND:
        case UTF8PROC_CATEGORY_PC: return true;
        default:
            // Other_ID_Continue
            return cp == 0x00B7 || cp == 0x0387 || (cp >= 0x1369 && cp <= 0x1371) || cp == 0x19DA;
    }
}

Lexer::Lexer(std::string_view text, Pos start, LexMode mode, std::string_view filename, std::vector<Comment>* comments,
             Diagnostics* diags)
    : text_(text), base_(start.byte), filename_(filename), comments_(comments), diags_(diags) {
    frames_.push_back(Frame{mode == LexMode::normal ? Mode::main : Mode::bare});
}

// A token's range made as one 64-bit value: set field by field, it was
// stored as two halves and loaded back whole, which stalls the processor on
// every token.
Range Lexer::range_of(std::size_t from, std::size_t to) const {
    static_assert(sizeof(Range) == sizeof(std::uint64_t) && offsetof(Range, end) == sizeof(std::uint32_t));
    const std::uint64_t start = base_ + static_cast<std::uint32_t>(from);
    const std::uint64_t end = base_ + static_cast<std::uint32_t>(to);
    return std::bit_cast<Range>(std::endian::native == std::endian::little ? start | (end << 32) : (start << 32) | end);
}

Token Lexer::emit(Tok type, std::size_t from, std::size_t to) {
    Token t;
    t.type = type;
    t.range = range_of(from, to);
    p_ = to;
    // Only the tokens listed after `eof` (recognised to be reported) have
    // anything to report.
    if (type > Tok::eof) [[unlikely]]
        report(t);
    return t;
}

// hclsyntax reports these in a pass over all tokens before the parser runs;
// the parser puts them ahead of its own diagnostics to keep that order.
void Lexer::report(const Token& t) {
    if (!diags_) return;
    // Returns whether the diagnostic was kept (see KindLimit).
    auto add = [&](const char* summary, std::string detail) {
        if (!limit_.admit(summary, t.range)) return false;
        diags_->push_back(Diagnostic{Severity::error, summary, std::move(detail), std::string(filename_), t.range, {}});
        return true;
    };
    switch (t.type) {
        case Tok::bitwise_and:
        case Tok::bitwise_or:
        case Tok::bitwise_xor:
        case Tok::bitwise_not:
            if (told_bitwise_ < 4) {
                const char* hint = t.type == Tok::bitwise_and   ? " Did you mean boolean AND (\"&&\")?"
                                   : t.type == Tok::bitwise_or  ? " Did you mean boolean OR (\"||\")?"
                                   : t.type == Tok::bitwise_not ? " Did you mean boolean NOT (\"!\")?"
                                                                : "";
                add("Unsupported operator", std::string("Bitwise operators are not supported.") + hint);
                ++told_bitwise_;
            }
            break;
        case Tok::backtick:
            if (told_backtick_ % 2 == 0)
                add("Invalid character",
                    "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".");
            if (told_backtick_ <= 2) ++told_backtick_;
            break;
        case Tok::apostrophe:
            if (told_apostrophe_ % 2 == 0)
                add("Invalid character", "Single quotes are not valid. Use double quotes (\") to enclose strings.");
            if (told_apostrophe_ <= 2) ++told_apostrophe_;
            break;
        case Tok::semicolon:
            if (told_semicolon_ < 1) {
                add("Invalid character",
                    "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.");
                ++told_semicolon_;
            }
            break;
        case Tok::bad_utf8:
            if (told_bad_utf8_ < 1) {
                add("Invalid character encoding",
                    "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.");
                ++told_bad_utf8_;
            }
            break;
        case Tok::quoted_newline:
            add("Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.");
            break;
        case Tok::invalid:
            // A run of invalid characters (a zero-filled file, a binary named
            // .tf) is one diagnostic covering the run, not one per byte.
            if (invalid_end_ && *invalid_end_ == t.range.start) {
                invalid_end_ = t.range.end;
                if (invalid_run_ < diags_->size()) (*diags_)[invalid_run_].subject->end = t.range.end;
                break;
            }
            invalid_end_ = t.range.end;
            invalid_run_ = diags_->size();
            if (!add("Invalid character", "This character is not used within the language.")) invalid_run_ = SIZE_MAX;
            break;
        default: break;
    }
}

std::size_t Lexer::fill(Token* out, std::size_t room) {
    std::size_t k = 0;
    while (k < room) {
        if (!pending_.empty()) {
            out[k++] = pending_.front();
            pending_.pop_front();
            continue;
        }
        switch (frames_.back().mode) {
            case Mode::main: k = lex_main(out, k, room); break;
            case Mode::quoted: out[k++] = lex_quoted(); break;
            case Mode::heredoc: out[k++] = lex_heredoc(); break;
            case Mode::bare: out[k++] = lex_bare(); break;
        }
        if (out[k - 1].type == Tok::eof) break;
    }
    return k;
}

void Lexer::enter_interpolation() {
    ++braces_;
    ret_braces_.push_back(braces_);
    if (frames_.back().mode == Mode::heredoc) frames_.back().start_of_line = false;
    frames_.push_back(Frame{Mode::main});
}

// Where the line that goes on at p ends, its line end included (a line
// comment's end).
std::size_t Lexer::line_end_after(std::size_t p) const {
    const auto* nl = static_cast<const char*>(std::memchr(text_.data() + p, '\n', text_.size() - p));
    return nl != nullptr ? static_cast<std::size_t>(nl - text_.data()) + 1 : text_.size();
}

// A comment from s to e, without the line end of a line comment.
void Lexer::record_comment(std::size_t s, std::size_t e, CommentStyle style) {
    if (style != CommentStyle::block && e > s && text_[e - 1] == '\n') {
        --e;
        if (e > s && text_[e - 1] == '\r') --e;
    }
    comments_->push_back(
        Comment{Range{Pos{base_ + static_cast<std::uint32_t>(s)}, Pos{base_ + static_cast<std::uint32_t>(e)}}, style});
}

// The tokens of main mode, from one loop: it stops when `out` is full, at
// the end of input, and after a token that changes the mode.
std::size_t Lexer::lex_main(Token* out, std::size_t k, std::size_t room) {
    // The tokens after which another mode may scan next.
    constexpr std::uint64_t mode_changes = (std::uint64_t{1} << static_cast<unsigned>(Tok::oquote)) |
                                           (std::uint64_t{1} << static_cast<unsigned>(Tok::oheredoc)) |
                                           (std::uint64_t{1} << static_cast<unsigned>(Tok::template_seq_end)) |
                                           (std::uint64_t{1} << static_cast<unsigned>(Tok::eof));
    static_assert(static_cast<unsigned>(Tok::nil) < 64);
    // The tokens listed after `eof` have something to report (see emit).
    constexpr std::uint64_t stop_or_report =
        mode_changes | (~std::uint64_t{0} << (static_cast<unsigned>(Tok::eof) + 1));
    for (;;) {
        std::size_t s = 0, e = 0;
        const Tok type = main_token(s, e);
        Token& t = out[k++];
        t.range = range_of(s, e);
        t.type = type;
        p_ = e;
        // One test for the rare tokens: those that change the mode and
        // those to report.
        if (((stop_or_report >> static_cast<unsigned>(type)) & 1) != 0) [[unlikely]] {
            if (type > Tok::eof) report(t);  // see emit
            if (((mode_changes >> static_cast<unsigned>(type)) & 1) != 0) return k;
        }
        if (k == room) return k;
    }
}

// The token at p_ in main mode (after any blanks): its type, and where it
// starts and ends. Comments are recorded here; p_ is left for the caller.
[[gnu::always_inline]] inline Tok Lexer::main_token(std::size_t& s, std::size_t& e) {
    const std::size_t n = text_.size();
    auto token = [&e](Tok type, std::size_t end) {
        e = end;
        return type;
    };
    for (;;) {
        if (p_ >= n) {
            s = e = n;
            return Tok::eof;
        }
        s = p_;
        // One space before a token, the most common blank, passed over
        // here rather than by a turn of this loop.
        if (text_[s] == ' ' && s + 1 < n && text_[s + 1] != ' ' && text_[s + 1] != '\t') ++s;
        const char c = text_[s];
        const char d = s + 1 < n ? text_[s + 1] : '\0';
        switch (c) {
            case ' ':
            case '\t': {
                p_ = s + 1 + blank_run(text_.data() + s + 1, text_.data() + n);
                continue;
            }
            case '\n': return token(Tok::newline, s + 1);
            case '\r':
                if (d == '\n') return token(Tok::newline, s + 2);
                return token(Tok::invalid, s + 1);
            case '#': {
                const std::size_t end = line_end_after(s + 1);
                if (comments_) record_comment(s, end, CommentStyle::hash);
                return token(Tok::comment, end);
            }
            case '/':
                if (d == '/' || d == '*') {
                    bool line = d == '/';
                    std::size_t end = line ? line_end_after(s + 2) : text_.find("*/", s + 2);
                    if (end != std::string_view::npos) {
                        if (!line) end += 2;
                        if (comments_) record_comment(s, end, line ? CommentStyle::slashes : CommentStyle::block);
                        return token(Tok::comment, end);
                    }
                }
                return token(Tok::slash, s + 1);
            case '"': frames_.push_back(Frame{Mode::quoted}); return token(Tok::oquote, s + 1);
            case '<': {
                if (d == '<') {
                    std::size_t len = match_length<grammar::heredoc_intro>(text_, s);
                    if (len != std::string_view::npos) {
                        std::string_view marker = text_.substr(s + 2, len - 2);
                        if (!marker.empty() && marker.front() == '-') marker.remove_prefix(1);
                        while (!marker.empty() && (marker.back() == '\n' || marker.back() == '\r'))
                            marker.remove_suffix(1);
                        frames_.push_back(Frame{Mode::heredoc, true, marker});
                        return token(Tok::oheredoc, s + len);
                    }
                }
                if (d == '=') return token(Tok::less_eq, s + 2);
                return token(Tok::less, s + 1);
            }
            case '{': ++braces_; return token(Tok::obrace, s + 1);
            case '}':
                if (!ret_braces_.empty() && ret_braces_.back() == braces_) {
                    --braces_;
                    ret_braces_.pop_back();
                    frames_.pop_back();
                    return token(Tok::template_seq_end, s + 1);
                }
                --braces_;
                return token(Tok::cbrace, s + 1);
            case '~':
                if (d == '}') {
                    // Always a sequence end, so the parser can complain about a
                    // `~}` that closes an ordinary brace.
                    if (!ret_braces_.empty() && ret_braces_.back() == braces_) {
                        ret_braces_.pop_back();
                        if (frames_.size() > 1) frames_.pop_back();
                    }
                    --braces_;
                    return token(Tok::template_seq_end, s + 2);
                }
                return token(Tok::bitwise_not, s + 1);
            case '=':
                if (d == '=') return token(Tok::equal_op, s + 2);
                if (d == '>') return token(Tok::fat_arrow, s + 2);
                return token(Tok::equal, s + 1);
            case '!':
                if (d == '=') return token(Tok::not_equal, s + 2);
                return token(Tok::bang, s + 1);
            case '>':
                if (d == '=') return token(Tok::greater_eq, s + 2);
                return token(Tok::greater, s + 1);
            case '&':
                if (d == '&') return token(Tok::and_, s + 2);
                return token(Tok::bitwise_and, s + 1);
            case '|':
                if (d == '|') return token(Tok::or_, s + 2);
                return token(Tok::bitwise_or, s + 1);
            case ':':
                if (d == ':') return token(Tok::double_colon, s + 2);
                return token(Tok::colon, s + 1);
            case '.':
                if (d == '.' && s + 2 < n && text_[s + 2] == '.') return token(Tok::ellipsis, s + 3);
                return token(Tok::dot, s + 1);
            case '[': return token(Tok::obrack, s + 1);
            case ']': return token(Tok::cbrack, s + 1);
            case '(': return token(Tok::oparen, s + 1);
            case ')': return token(Tok::cparen, s + 1);
            case ',': return token(Tok::comma, s + 1);
            case '*': return token(Tok::star, s + 1);
            case '%': return token(Tok::percent, s + 1);
            case '+': return token(Tok::plus, s + 1);
            case '-': return token(Tok::minus, s + 1);
            case '?': return token(Tok::question, s + 1);
            case '^': return token(Tok::bitwise_xor, s + 1);
            case ';': return token(Tok::semicolon, s + 1);
            case '`': return token(Tok::backtick, s + 1);
            case '\'': return token(Tok::apostrophe, s + 1);
            default: break;
        }
        if (c >= '0' && c <= '9') {
            std::size_t len = match_length<grammar::number_lit>(text_, s);
            while (text_[s + len - 1] == '.') --len;
            return token(Tok::number_lit, s + len);
        }
        if (ascii_id_start(c)) {
            // The common case, all ASCII, without the rule; a multi-byte
            // character after the ASCII part may continue the identifier, so
            // then the rule reads it whole.
            const std::size_t b = s + 1 + id_continue_run(text_.data() + s + 1, text_.data() + n);
            if (b == n || static_cast<unsigned char>(text_[b]) < 0x80) return token(Tok::ident, b);
        }
        std::size_t len = match_length<grammar::identifier>(text_, s);
        if (len != std::string_view::npos) return token(Tok::ident, s + len);
        std::size_t u = utf8_sequence_length(text_, s);
        if (u == 0) return token(Tok::bad_utf8, s + 1);
        return token(Tok::invalid, s + u);
    }
}

// At '$' or '%' inside a template: an interpolation/directive opener, an
// escaped opener ($${ / %%{) or a lone character, each its own token.
Token Lexer::lex_template_opener(bool in_heredoc) {
    const std::size_t n = text_.size();
    const std::size_t s = p_;
    const char c = text_[s];
    const Tok literal = frames_.back().mode == Mode::quoted ? Tok::quoted_lit : Tok::string_lit;
    if (s + 1 < n && text_[s + 1] == '{') {
        std::size_t e = s + 2;
        if (e < n && text_[e] == '~') ++e;
        enter_interpolation();
        return emit(c == '$' ? Tok::template_interp : Tok::template_control, s, e);
    }
    if (s + 1 >= n) return emit(Tok::invalid, s, n);  // the scanner cannot decide at EOF
    if (in_heredoc) frames_.back().start_of_line = false;
    if (text_[s + 1] == c && s + 2 < n && text_[s + 2] == '{') {
        std::size_t e = s + 3;
        if (e < n && text_[e] == '~') ++e;
        return emit(literal, s, e);
    }
    return emit(literal, s, s + 1);
}

Token Lexer::lex_quoted() {
    const std::size_t n = text_.size();
    const std::size_t s = p_;
    if (s >= n) return emit(Tok::eof, n, n);
    const char c = text_[s];
    if (c == '$' || c == '%') return lex_template_opener(false);
    if (c == '"') {
        frames_.pop_back();
        return emit(Tok::cquote, s, s + 1);
    }
    if (c == '\r' || c == '\n') {
        std::size_t e = s;
        while (e < n && (text_[e] == '\r' || text_[e] == '\n')) ++e;
        return emit(Tok::quoted_newline, s, e);
    }
    std::size_t e = s;
    while (e < n) {
        e += literal_run<true>(text_.data() + e, text_.data() + n);
        if (e >= n) break;
        char x = text_[e];
        if (x == '$' || x == '%' || x == '"' || x == '\r' || x == '\n') break;
        if (static_cast<unsigned char>(x) < 0x80) {
            if (x == '\\') {
                if (e + 1 >= n || text_[e + 1] == '\r' || text_[e + 1] == '\n') break;
                std::size_t u = utf8_sequence_length(text_, e + 1);
                if (u == 0) break;
                e += 1 + u;
                continue;
            }
            ++e;
            continue;
        }
        std::size_t u = utf8_sequence_length(text_, e);
        if (u == 0) break;
        e += u;
    }
    if (e > s) return emit(Tok::quoted_lit, s, e);
    if (c == '\\') return emit(Tok::invalid, s, s + 1);
    return emit(Tok::bad_utf8, s, s + 1);
}

Token Lexer::lex_heredoc() {
    const std::size_t n = text_.size();
    const std::size_t s = p_;
    if (s >= n) return emit(Tok::eof, n, n);
    const char c = text_[s];
    if (c == '$' || c == '%') return lex_template_opener(true);
    std::size_t e = s;
    while (e < n) {
        e += literal_run<false>(text_.data() + e, text_.data() + n);
        if (e >= n) break;
        char x = text_[e];
        if (x == '$' || x == '%' || x == '\r' || x == '\n') break;
        std::size_t u = utf8_sequence_length(text_, e);
        if (u == 0) break;
        e += u;
    }
    std::size_t nl = 0;
    if (e < n && text_[e] == '\n')
        nl = 1;
    else if (e + 1 < n && text_[e] == '\r' && text_[e + 1] == '\n')
        nl = 2;
    Frame& f = frames_.back();
    if (nl > 0) {
        if (f.start_of_line && trim_space(text_.substr(s, e - s)) == f.marker) {
            // The closing marker and the newline after it are two tokens, so
            // that the newline still ends the attribute.
            Token close = emit(Tok::cheredoc, s, e);
            frames_.pop_back();
            pending_.push_back(emit(Tok::newline, e, e + nl));
            return close;
        }
        f.start_of_line = true;
        return emit(Tok::string_lit, s, e + nl);
    }
    if (e > s) {
        f.start_of_line = false;
        return emit(Tok::string_lit, s, e);
    }
    if (e < n && text_[e] == '\r') return emit(Tok::invalid, s, n);  // a lone CR stops hcl's scanner
    return emit(Tok::bad_utf8, s, s + 1);
}

Token Lexer::lex_bare() {
    const std::size_t n = text_.size();
    const std::size_t s = p_;
    if (s >= n) return emit(Tok::eof, n, n);
    const char c = text_[s];
    if (c == '$' || c == '%') {
        if (s + 1 >= n) return emit(Tok::string_lit, s, n);  // trailing '$' is literal text here
        return lex_template_opener(false);
    }
    std::size_t e = s;
    while (e < n) {
        e += literal_run<false>(text_.data() + e, text_.data() + n);
        if (e >= n) break;
        char x = text_[e];
        if (x == '$' || x == '%' || x == '\r' || x == '\n') break;
        std::size_t u = utf8_sequence_length(text_, e);
        if (u == 0) break;
        e += u;
    }
    // The line break belongs to the literal; a lone CR only when it is all there is.
    if (e + 1 < n && text_[e] == '\r' && text_[e + 1] == '\n')
        e += 2;
    else if (e < n && (text_[e] == '\n' || (e == s && text_[e] == '\r')))
        ++e;
    if (e > s) return emit(Tok::string_lit, s, e);
    return emit(Tok::bad_utf8, s, s + 1);
}

}  // namespace tfsift::hcl::detail
