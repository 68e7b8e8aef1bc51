#include "tfsift/hcl/block_text.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "hcl/lexer.hpp"

namespace tfsift::hcl {

namespace {

using detail::Tok;

// The opener a closing token matches, or Tok::nil for a token that closes nothing.
Tok opener_of(Tok t) {
    switch (t) {
        case Tok::cbrace: return Tok::obrace;
        case Tok::cbrack: return Tok::obrack;
        case Tok::cparen: return Tok::oparen;
        case Tok::cquote: return Tok::oquote;
        case Tok::cheredoc: return Tok::oheredoc;
        case Tok::template_seq_end: return Tok::template_interp;  // or template_control
        default: return Tok::nil;
    }
}

bool opens(Tok t) {
    return t == Tok::obrace || t == Tok::obrack || t == Tok::oparen || t == Tok::oquote || t == Tok::oheredoc ||
           t == Tok::template_interp || t == Tok::template_control;
}

// Tokens the parser only ever reports.
bool rejected(Tok t) {
    switch (t) {
        case Tok::bitwise_and:
        case Tok::bitwise_or:
        case Tok::bitwise_not:
        case Tok::bitwise_xor:
        case Tok::apostrophe:
        case Tok::backtick:
        case Tok::semicolon:
        case Tok::invalid:
        case Tok::bad_utf8:
        case Tok::quoted_newline:
        case Tok::nil: return true;
        default: return false;
    }
}

}  // namespace

std::optional<std::string> top_level_blocks_text(std::string_view text, std::string_view type,
                                                 const std::vector<std::string_view>& attributes,
                                                 std::size_t stop_after) {
    const bool filtered = !attributes.empty();
    Diagnostics diags;
    detail::Lexer lexer(text, Pos{0}, detail::LexMode::normal, {}, nullptr, &diags);
    std::vector<Tok> open;
    std::string out;
    // Where the body item being read stands: an attribute, a block's type
    // and labels, its body, or its closing brace.
    enum class Item { none, attribute, header, body, closed } item = Item::none;
    bool wanted = false;  // the block is of type `type`
    std::uint32_t start = 0;
    // With `attributes`: where the item of a wanted block's body being read
    // stands (its name, then kept or left out), and where it starts.
    enum class Inner { none, name, kept, dropped } inner = Inner::none;
    std::uint32_t inner_start = 0;
    bool keep = false;  // the item's name is one of `attributes`
    auto name_of = [&](const detail::Token& t) {
        return text.substr(t.range.start.byte, t.range.end.byte - t.range.start.byte);
    };
    // Tokens a batch at a time (the lexer's loop, not a call per token); a
    // batch scanned past a stop is only work, as the diagnostics matter
    // only when every token was read.
    std::array<detail::Token, 64> batch;
    std::size_t at = 0, scanned = 0;
    for (;;) {
        if (at == scanned) {
            scanned = lexer.fill(batch.data(), batch.size());
            at = 0;
        }
        const detail::Token t = batch[at++];
        if (rejected(t.type)) return std::nullopt;
        if (t.type == Tok::eof && !open.empty()) return std::nullopt;
        const bool top = open.empty();
        const bool line_end =
            t.type == Tok::newline || t.type == Tok::eof ||
            (t.type == Tok::comment && t.range.end.byte > t.range.start.byte && text[t.range.end.byte - 1] == '\n');
        if (top && line_end) {
            if (item == Item::header) return std::nullopt;
            item = Item::none;
            if (t.type == Tok::eof) break;
            continue;
        }
        if (top && t.type == Tok::comment) continue;  // a /* */ comment within a line
        if (top) {
            switch (item) {
                case Item::none:
                    if (t.range.start.byte > stop_after) return out;
                    if (t.type != Tok::ident) return std::nullopt;
                    wanted = name_of(t) == type;
                    start = t.range.start.byte;
                    item = Item::header;
                    continue;
                case Item::header:
                    if (t.type == Tok::equal) {
                        item = Item::attribute;
                    } else if (t.type == Tok::obrace) {
                        item = Item::body;
                        if (wanted && filtered) {
                            out.append(text.substr(start, t.range.end.byte - start)).push_back('\n');
                            inner = Inner::none;
                        }
                    } else if (t.type != Tok::ident && t.type != Tok::oquote) {
                        return std::nullopt;
                    }
                    break;
                case Item::closed: return std::nullopt;  // more after a block's closing brace
                default: break;
            }
        }
        if (filtered && wanted && item == Item::body && open.size() == 1) {
            // An item of the block's body: an attribute to keep, or not.
            const bool closing = t.type == Tok::cbrace;
            if (line_end || closing) {
                if (inner == Inner::name) return std::nullopt;  // a name alone
                if (inner == Inner::kept)
                    out.append(text.substr(inner_start, t.range.start.byte - inner_start)).push_back('\n');
                inner = Inner::none;
                if (!closing) continue;
            } else if (t.type == Tok::comment) {
                continue;
            } else if (inner == Inner::none) {
                if (t.type != Tok::ident) return std::nullopt;
                inner = Inner::name;
                inner_start = t.range.start.byte;
                keep = std::find(attributes.begin(), attributes.end(), name_of(t)) != attributes.end();
                continue;
            } else if (inner == Inner::name) {
                // An attribute, or a nested block (left out) after its labels.
                if (t.type != Tok::equal && t.type != Tok::ident && t.type != Tok::oquote && t.type != Tok::obrace) {
                    return std::nullopt;
                }
                inner = t.type == Tok::equal && keep ? Inner::kept : Inner::dropped;
            }
        }
        if (opens(t.type)) {
            open.push_back(t.type);
            continue;
        }
        const Tok opener = opener_of(t.type);
        if (opener == Tok::nil) continue;
        if (open.empty()) return std::nullopt;
        const Tok got = open.back();
        if (got != opener && !(opener == Tok::template_interp && got == Tok::template_control)) return std::nullopt;
        open.pop_back();
        if (open.empty() && item == Item::body) {
            if (wanted && filtered) {
                out.append("}\n");
            } else if (wanted) {
                out.append(text.substr(start, t.range.end.byte - start)).push_back('\n');
            }
            item = Item::closed;
        }
    }
    if (!open.empty() || !diags.empty()) return std::nullopt;
    return out;
}

}  // namespace tfsift::hcl
