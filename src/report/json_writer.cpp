#include "report/json_writer.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "report/report_common.hpp"

namespace tfsift::report::detail {
namespace {

constexpr std::string_view replacement_character = "\xEF\xBF\xBD";

// Whether a byte is copied as it is: printable ASCII but the quote and the
// backslash. A table, as the test runs for every byte of every string.
constexpr std::array<bool, 256> plain_ascii_table = [] {
    std::array<bool, 256> table{};
    for (unsigned c = 0x20; c < 0x80; ++c) table.at(c) = c != '"' && c != '\\';
    return table;
}();

constexpr bool plain_ascii(unsigned char c) { return plain_ascii_table[c]; }

void append_escaped_ascii(std::string& out, unsigned char c) {
    switch (c) {
        case '"': out += "\\\""; return;
        case '\\': out += "\\\\"; return;
        case 0x08: out += "\\b"; return;
        case 0x09: out += "\\t"; return;
        case 0x0A: out += "\\n"; return;
        case 0x0C: out += "\\f"; return;
        case 0x0D: out += "\\r"; return;
        default: break;
    }
    if (c < 0x20) {
        static constexpr char hex[] = "0123456789abcdef";
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 0x0F];
        return;
    }
    out += static_cast<char>(c);  // DEL is not escaped
}

// The length of the well-formed UTF-8 sequence a lead byte starts and the
// range its second byte must fall in (Unicode's table of well-formed byte
// sequences); length 0 for a byte that starts none.
struct LeadByte {
    std::size_t length = 0;
    unsigned char second_min = 0x80;
    unsigned char second_max = 0xBF;
};

constexpr LeadByte lead_byte(unsigned char c) {
    if (c >= 0xC2 && c <= 0xDF) return {2};
    if (c == 0xE0) return {3, 0xA0, 0xBF};
    if (c == 0xED) return {3, 0x80, 0x9F};  // no surrogates
    if (c >= 0xE1 && c <= 0xEF) return {3};
    if (c == 0xF0) return {4, 0x90, 0xBF};  // no overlong forms
    if (c == 0xF4) return {4, 0x80, 0x8F};  // nothing past U+10FFFF
    if (c >= 0xF1 && c <= 0xF3) return {4};
    return {};
}

}  // namespace

void append_json_string_contents(std::string& out, std::string_view text) {
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        std::size_t run = i;
        while (run < n && plain_ascii(static_cast<unsigned char>(text[run]))) ++run;
        out.append(text.data() + i, run - i);
        i = run;
        if (i == n) break;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            append_escaped_ascii(out, c);
            ++i;
            continue;
        }
        const LeadByte lead = lead_byte(c);
        if (lead.length == 0) {
            out += replacement_character;
            ++i;
            continue;
        }
        std::size_t k = 1;
        for (; k < lead.length && i + k < n; ++k) {
            const auto cc = static_cast<unsigned char>(text[i + k]);
            const unsigned char lo = k == 1 ? lead.second_min : 0x80;
            const unsigned char hi = k == 1 ? lead.second_max : 0xBF;
            if (cc < lo || cc > hi) break;
        }
        if (k == lead.length) {
            out.append(text.data() + i, k);
        } else {
            // Broken or cut short: one replacement; the byte that broke the
            // sequence, if any, is read again as the start of the next.
            out += replacement_character;
        }
        i += k;
    }
}

void JsonWriter::key(std::string_view name) {
    new_item();
    buffer_ += '"';
    append_json_string_contents(buffer_, name);
    buffer_ += "\": ";
    after_key_ = true;
}

void JsonWriter::string(std::string_view text) {
    begin_value();
    buffer_ += '"';
    append_json_string_contents(buffer_, text);
    buffer_ += '"';
    spill();
}

void JsonWriter::finish() {
    buffer_ += '\n';
    flush();
}

void JsonWriter::open(char bracket) {
    begin_value();
    buffer_ += bracket;
    levels_.push_back(0);
}

void JsonWriter::close(char bracket) {
    const std::size_t items = levels_.back();
    levels_.pop_back();
    if (items > 0) {
        buffer_ += '\n';
        indent(levels_.size());
    }
    buffer_ += bracket;
    spill();
}

void JsonWriter::begin_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!levels_.empty()) new_item();
}

void JsonWriter::new_item() {
    std::size_t& items = levels_.back();
    buffer_ += items == 0 ? "\n" : ",\n";
    ++items;
    indent(levels_.size());
}

void JsonWriter::flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
}

void write_items_in_runs(JsonWriter& w, std::size_t count, unsigned jobs, std::size_t run_size,
                         const std::function<void(std::ostream& out, std::size_t items_before, std::size_t begin,
                                                  std::size_t end)>& render) {
    const std::size_t before = w.items();
    if (std::max(1U, jobs) == 1 || count <= run_size) {
        // Straight into the document's stream, nothing to splice.
        w.flush();
        render(w.stream(), before, 0, count);
        w.add_items(count);
        return;
    }
    // Every run before one is spliced in by the time it is: its items come
    // after `before` and those of the runs before it.
    render_in_runs(
        count, jobs, run_size,
        [&](std::size_t begin, std::size_t end, std::string& text) {
            StringSink sink(text);
            std::ostream out(&sink);
            render(out, before + begin, begin, end);
        },
        [&](std::string_view text, std::size_t begin, std::size_t end) { w.splice(text, end - begin); });
}

}  // namespace tfsift::report::detail
