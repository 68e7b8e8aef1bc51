// The HCL native-syntax scanner: turns source bytes into the token stream the
// parser reads, with the same token boundaries and modes (quoted template,
// heredoc, bare template, nested interpolation) as hclsyntax's Ragel scanner.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "hcl/kind_limit.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/source.hpp"

namespace tfsift::hcl::detail {

// Four bytes, as wide as the rest of a token's second word: a copy then
// stores and loads it whole.
enum class Tok : std::uint32_t {
    obrace,
    cbrace,
    obrack,
    cbrack,
    oparen,
    cparen,
    oquote,
    cquote,
    oheredoc,
    cheredoc,
    star,
    slash,
    plus,
    minus,
    percent,
    equal,
    equal_op,
    not_equal,
    less,
    less_eq,
    greater,
    greater_eq,
    and_,
    or_,
    bang,
    dot,
    comma,
    ellipsis,
    fat_arrow,
    question,
    colon,
    double_colon,
    template_interp,
    template_control,
    template_seq_end,
    quoted_lit,
    string_lit,
    number_lit,
    ident,
    comment,
    newline,
    eof,
    // recognised only to report them
    bitwise_and,
    bitwise_or,
    bitwise_not,
    bitwise_xor,
    apostrophe,
    backtick,
    semicolon,
    invalid,
    bad_utf8,
    quoted_newline,
    nil,
};

// The range first: a token passes in two registers (range, type), and
// copies of it then store and load the same two pieces, which the processor
// forwards from a store to the next load; with the type first, a copy's
// range spanned both pieces and every read-back of a fresh token stalled.
struct Token {
    Range range;
    Tok type = Tok::nil;
};

// Where scanning starts: a whole file, or the inside of a template.
enum class LexMode : std::uint8_t { normal, bare_template };

class Lexer {
public:
    // `text` starts at `start` in its file. Comments are appended to
    // `comments` (if not null); diagnostics for tokens that never belong in
    // HCL (hclsyntax's checkInvalidTokens) are appended to `diags`.
    Lexer(std::string_view text, Pos start, LexMode mode, std::string_view filename, std::vector<Comment>* comments,
          Diagnostics* diags);

    // The next token.
    Token next() {
        Token t;
        fill(&t, 1);
        return t;
    }
    // Scans up to `room` tokens (at least one) into `out` and returns how
    // many: fewer when the end of input is reached, eof being the last.
    // Scanning ahead this way costs no more than scanning one at a time, and
    // the tokens of the common mode come out of one loop, not a call each.
    std::size_t fill(Token* out, std::size_t room);
    [[nodiscard]] std::string_view text_of(const Token& t) const {
        return text_.substr(t.range.start.byte - base_, t.range.end.byte - t.range.start.byte);
    }

private:
    enum class Mode : std::uint8_t { main, quoted, heredoc, bare };
    struct Frame {
        Mode mode;
        bool start_of_line = true;  // heredoc: next literal begins a line
        std::string_view marker;    // heredoc: closing marker
    };

    std::size_t lex_main(Token* out, std::size_t k, std::size_t room);
    Tok main_token(std::size_t& s, std::size_t& e);
    Token lex_quoted();
    Token lex_heredoc();
    Token lex_bare();
    Token lex_template_opener(bool in_heredoc);  // at '$' or '%'
    Range range_of(std::size_t from, std::size_t to) const;
    // Not inlined: inlined into the scanner, the compiler built the token
    // on the stack half by half and read it back whole (a stall per token);
    // on its own it returns the token in registers.
    [[gnu::noinline]] Token emit(Tok type, std::size_t from, std::size_t to);
    void report(const Token& t);
    std::size_t line_end_after(std::size_t p) const;
    [[gnu::noinline]] void record_comment(std::size_t s, std::size_t e, CommentStyle style);
    void enter_interpolation();

    std::string_view text_;
    std::uint32_t base_;
    std::size_t p_ = 0;
    std::vector<Frame> frames_;
    int braces_ = 0;
    std::vector<int> ret_braces_;
    std::deque<Token> pending_;
    std::string_view filename_;
    std::vector<Comment>* comments_;
    Diagnostics* diags_;
    int told_bitwise_ = 0, told_backtick_ = 0, told_apostrophe_ = 0, told_semicolon_ = 0, told_bad_utf8_ = 0;
    std::size_t invalid_run_ = SIZE_MAX;  // index in *diags_ of the last "Invalid character", to extend
    std::optional<Pos> invalid_end_;      // where the last run of invalid characters ends
    KindLimit limit_;

public:
    // Diagnostics of each kind beyond the limit were counted, not kept.
    [[nodiscard]] const KindLimit& limit() const { return limit_; }
};

// Length of the UTF-8 sequence at s[i] as hclsyntax's scanner accepts it
// (lead byte plus the right number of continuation bytes), or 0 if broken.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

// Whether a code point may start / continue an identifier (UAX #31).
bool is_id_start(std::int32_t cp);
bool is_id_continue(std::int32_t cp);

}  // namespace tfsift::hcl::detail
