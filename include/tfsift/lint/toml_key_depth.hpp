// How many parts the longest key of a TOML document has, found without
// parsing it. toml++ descends once per part of a dotted key or table header
// (`[a.b.c]`, `a.b.c = 1`), so a settings file with 70,000 parts would run
// the parser off its stack; the settings reader refuses such a file first,
// with the line of the key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tfsift::lint {

// The most parts a key of a settings file may have; real files use a few.
inline constexpr std::size_t max_toml_key_parts = 128;

struct TomlKeyDepth {
    std::size_t parts = 0;   // of the longest key (values such as 1.5 may count as one key of two parts)
    std::uint32_t line = 0;  // 1-based line where that key reaches max_toml_key_parts + 1, else where it ends
    std::uint32_t column = 0;
};

// Scans `text` as TOML's lexer would for keys: comments, basic, literal and
// multi-line strings are skipped; a key is a run of parts joined by `.`
// between `=`, `,`, brackets, braces and line ends. Linear in the text,
// and it stops counting a key once it passes max_toml_key_parts.
[[nodiscard]] TomlKeyDepth deepest_toml_key(std::string_view text);

}  // namespace tfsift::lint
