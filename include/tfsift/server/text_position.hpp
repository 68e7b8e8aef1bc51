// Positions as the Language Server Protocol counts them: a 0-based line
// and a 0-based character offset in UTF-16 code units within that line
// (a character outside the Basic Multilingual Plane counts two). Lines end
// at \n; a \r before it belongs to the line break. tfsift's own positions
// are byte offsets into UTF-8 text, so every position that crosses the
// protocol goes through these conversions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tfsift::server {

struct TextPosition {
    std::uint32_t line = 0;
    std::uint32_t character = 0;  // UTF-16 code units

    friend bool operator==(const TextPosition&, const TextPosition&) = default;
};

struct TextRange {
    TextPosition start;
    TextPosition end;

    friend bool operator==(const TextRange&, const TextRange&) = default;
};

// The byte offset of `position` in `text`. A character past the end of its
// line means the end of the line (as the protocol asks), a line past the
// last means the end of the text; a position inside a character's UTF-16
// surrogate pair or UTF-8 sequence moves to the character's end. Bytes that
// are not valid UTF-8 count one unit each.
std::size_t byte_offset(std::string_view text, TextPosition position);

// The position of the byte offset `offset` (clamped to the text).
TextPosition text_position(std::string_view text, std::size_t offset);

// One change of a `textDocument/didChange` notification: the range it
// replaces, or none for the whole text.
struct TextChange {
    std::optional<TextRange> range;
    std::string text;
};

// Applies `change` to `text`. A range whose end comes before its start is
// taken as empty at its start.
void apply_change(std::string& text, const TextChange& change);

}  // namespace tfsift::server
