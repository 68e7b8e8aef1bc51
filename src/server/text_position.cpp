#include "tfsift/server/text_position.hpp"

#include <algorithm>

namespace tfsift::server {

namespace {

// The length in bytes of the UTF-8 sequence starting at `text[i]` and its
// length in UTF-16 units; a byte that does not start a valid sequence is one
// byte and one unit.
void sequence_at(std::string_view text, std::size_t i, std::size_t& bytes, std::uint32_t& units) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t n = 1;
    if (lead >= 0xF0 && lead <= 0xF4) {
        n = 4;
    } else if (lead >= 0xE0) {
        n = lead <= 0xEF ? 3 : 1;
    } else if (lead >= 0xC2) {
        n = 2;
    }
    if (n > 1) {
        if (i + n > text.size()) {
            n = 1;
        } else {
            for (std::size_t k = 1; k < n; ++k) {
                if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) {
                    n = 1;
                    break;
                }
            }
        }
    }
    bytes = n;
    units = n == 4 ? 2 : 1;
}

}  // namespace

std::size_t byte_offset(std::string_view text, TextPosition position) {
    std::size_t i = 0;
    for (std::uint32_t line = 0; line < position.line; ++line) {
        const auto nl = text.find('\n', i);
        if (nl == std::string_view::npos) return text.size();
        i = nl + 1;
    }
    std::size_t line_end = text.find('\n', i);
    if (line_end == std::string_view::npos) line_end = text.size();
    if (line_end > i && text[line_end - 1] == '\r') --line_end;
    std::uint32_t units = 0;
    while (i < line_end && units < position.character) {
        std::size_t bytes = 0;
        std::uint32_t u = 0;
        sequence_at(text, i, bytes, u);
        i = std::min(i + bytes, line_end);
        units += u;
    }
    return i;
}

TextPosition text_position(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    TextPosition out;
    std::size_t line_start = 0;
    for (;;) {
        const auto nl = text.find('\n', line_start);
        if (nl == std::string_view::npos || nl >= offset) break;
        ++out.line;
        line_start = nl + 1;
    }
    std::size_t i = line_start;
    while (i < offset) {
        std::size_t bytes = 0;
        std::uint32_t u = 0;
        sequence_at(text, i, bytes, u);
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') break;  // the line break
        i += bytes;
        out.character += u;
    }
    return out;
}

void apply_change(std::string& text, const TextChange& change) {
    if (!change.range) {
        text = change.text;
        return;
    }
    const std::size_t start = byte_offset(text, change.range->start);
    const std::size_t end = std::max(start, byte_offset(text, change.range->end));
    text.replace(start, end - start, change.text);
}

}  // namespace tfsift::server
