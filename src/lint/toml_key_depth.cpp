// Counting the parts of TOML keys before toml++ parses them.
#include "tfsift/lint/toml_key_depth.hpp"

namespace tfsift::lint {

TomlKeyDepth deepest_toml_key(std::string_view text) {
    TomlKeyDepth deepest;
    std::size_t dots = 0;
    std::uint32_t line = 1;
    std::size_t line_start = 0;
    const std::size_t n = text.size();
    auto note = [&](std::size_t at) {
        if (dots + 1 <= deepest.parts) return;
        deepest.parts = dots + 1;
        deepest.line = line;
        deepest.column = static_cast<std::uint32_t>(at - line_start + 1);
    };
    auto newline = [&](std::size_t at) {
        ++line;
        line_start = at + 1;
    };
    std::size_t i = 0;
    while (i < n) {
        const char c = text[i];
        if (c == '#') {
            while (i < n && text[i] != '\n') ++i;
            continue;
        }
        if (c == '"' || c == '\'') {
            const bool multi = text.substr(i, 3) == (c == '"' ? "\"\"\"" : "'''");
            const bool escapes = c == '"';
            i += multi ? 3 : 1;
            while (i < n) {
                if (escapes && text[i] == '\\') {
                    if (i + 1 < n && text[i + 1] == '\n') newline(i + 1);
                    i += 2;
                    continue;
                }
                if (text[i] == '\n') {
                    if (!multi) break;  // an unterminated string ends at its line
                    newline(i);
                }
                if (text[i] == c && (!multi || text.substr(i, 3) == (c == '"' ? "\"\"\"" : "'''"))) {
                    i += multi ? 3 : 1;
                    break;
                }
                ++i;
            }
            continue;
        }
        switch (c) {
            case '.':
                ++dots;
                if (dots >= max_toml_key_parts) {
                    // Past the bound: report where it was passed, stop counting.
                    note(i);
                    return deepest;
                }
                break;
            case '\n':
                note(i);
                dots = 0;
                newline(i);
                break;
            case '=':
            case ',':
            case '[':
            case ']':
            case '{':
            case '}':
                note(i);
                dots = 0;
                break;
            default: break;
        }
        ++i;
    }
    note(n);
    return deepest;
}

}  // namespace tfsift::lint
