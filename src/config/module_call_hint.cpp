#include "tfsift/config/module_call_hint.hpp"

namespace tfsift::config {

namespace {

// A byte that continues a name or a traversal next to `module`. Bytes of
// multi-byte characters do not count: in doubt, the file is parsed.
bool joins_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
}

}  // namespace

bool may_declare_module_calls(std::string_view text, FileSyntax syntax) {
    constexpr std::string_view word = "module";
    if (syntax == FileSyntax::json) {
        return text.find(word) != std::string_view::npos || text.find("\\u") != std::string_view::npos;
    }
    for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        const std::size_t end = at + word.size();
        if (at > 0 && joins_word(text[at - 1])) continue;
        if (end < text.size() && joins_word(text[end])) continue;
        return true;
    }
    return false;
}

}  // namespace tfsift::config
