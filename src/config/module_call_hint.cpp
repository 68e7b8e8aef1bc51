#include "tfsift/config/module_call_hint.hpp"

#include <cstring>

namespace tfsift::config {

namespace {

// A byte that continues a name or a traversal next to `module`. Bytes of
// multi-byte characters do not count: in doubt, the file is parsed.
bool joins_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
}

// What the text holds from the start of the current line up to the last
// place looked at: read forward once over all the places, so that a long
// line with many words costs no more than reading it.
struct LineState {
    std::size_t scanned = 0;      // bytes before this are accounted for
    std::size_t line_start = 0;   // where the line of `scanned` starts
    bool nonblank = false;        // a byte other than a blank since line_start
    bool closed_comment = false;  // a `*/` since line_start
};

// Whether what stands before `at` on its line lets a body item start
// there: nothing but blanks (a byte-order mark counts as one), or something
// that ends a `/* */` comment on the line. Control bytes count as blanks:
// in doubt, the file is parsed.
bool starts_line(std::string_view text, std::size_t at, LineState& st) {
    if (const void* nl = ::memrchr(text.data() + st.scanned, '\n', at - st.scanned)) {
        st.line_start = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
        st.scanned = st.line_start;
        st.nonblank = false;
        st.closed_comment = false;
    }
    for (std::size_t i = st.scanned; i < at; ++i) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (u > 0x20 && u != 0xEF && u != 0xBB && u != 0xBF) st.nonblank = true;
        if (u == '/' && i > st.line_start && text[i - 1] == '*') st.closed_comment = true;
    }
    st.scanned = at;
    return !st.nonblank || st.closed_comment;
}

// Whether what follows the word at `end` on its line can be a block's
// label, a comment before one, or its opening brace.
bool label_follows(std::string_view text, std::size_t end) {
    std::size_t i = end;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i == text.size()) return false;
    const auto c = static_cast<unsigned char>(text[i]);
    return c == '"' || c == '{' || c == '/' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c >= 0x80;
}

constexpr std::string_view module_word = "module";

// Where the first (or the last) `module` that may start a block stands.
std::size_t module_block_start(std::string_view text, bool last) {
    std::size_t found = std::string_view::npos;
    LineState line;
    for (std::size_t at = text.find(module_word); at != std::string_view::npos; at = text.find(module_word, at + 1)) {
        const std::size_t end = at + module_word.size();
        if (at > 0 && joins_word(text[at - 1])) continue;
        if (end < text.size() && joins_word(text[end])) continue;
        if (starts_line(text, at, line) && label_follows(text, end)) {
            found = at;
            if (!last) break;
        }
    }
    return found;
}

}  // namespace

bool may_declare_module_calls(std::string_view text, FileSyntax syntax) {
    if (syntax == FileSyntax::json) {
        return text.find(module_word) != std::string_view::npos || text.find("\\u") != std::string_view::npos;
    }
    return module_block_start(text, false) != std::string_view::npos;
}

std::size_t last_module_block_start(std::string_view text) { return module_block_start(text, true); }

bool may_name_local_source(std::string_view text) {
    constexpr std::string_view word = "source";
    for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        if (at > 0 && joins_word(text[at - 1])) continue;  // `data_source`, `var.source`: another name
        std::size_t i = at + word.size();
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        if (i >= text.size() || text[i] != '=') continue;
        ++i;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        if (i >= text.size() || text[i] == '\n' || text[i] == '\r') continue;
        // `source = local.path`: an expression, which may work out to one.
        if (text[i] != '"') return true;
        // A quoted source: a local path as written, or spelled by an escape
        // or a template sequence before the closing quote.
        const std::string_view rest = text.substr(i + 1);
        if (rest.starts_with("./") || rest.starts_with("../")) return true;
        for (std::size_t j = 0; j < rest.size() && rest[j] != '"' && rest[j] != '\n'; ++j) {
            if (rest[j] == '\\') return true;
            if ((rest[j] == '$' || rest[j] == '%') && j + 1 < rest.size() && rest[j + 1] == '{') return true;
        }
    }
    return false;
}

}  // namespace tfsift::config
