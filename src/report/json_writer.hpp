// A JSON writer that streams a document as it is produced, for the reports
// that grow with the findings (json, sarif, gitlab, rdjson): building the
// whole document first costs more than writing it.
//
// The bytes are exactly those of nlohmann::json's
// dump(2, ' ', false, error_handler_t::replace), which the reports used
// before, so consumers see no change: two-space indentation, `"key": value`,
// `{}` and `[]` for empty containers, the short escapes (\b \t \n \f \r \"
// and the backslash's own) and \u00xx (lower-case hex) for the other
// control characters, other bytes of valid UTF-8 copied as they are, and
// each ill-formed UTF-8 sequence replaced by one U+FFFD the way nlohmann's
// decoder finds them: a byte that cannot start a sequence is one
// replacement; a sequence broken by a byte that cannot continue it is one
// replacement, and that byte is read again; a sequence cut short by the end
// of the string is one replacement.
#pragma once

#include <charconv>
#include <concepts>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tfsift::report::detail {

// Appends `text` to `out` as the contents of a JSON string (without the
// quotes), escaped and repaired as described above.
void append_json_string_contents(std::string& out, std::string_view text);

class JsonWriter {
public:
    // Writes to `out` in chunks; call finish() at the end.
    explicit JsonWriter(std::ostream& out) : out_(out) {}
    // Continues a document that another writer has open, to be spliced into
    // it (splice): inside `depth` open containers, the innermost already
    // holding `items_before` items. Call flush() at the end.
    JsonWriter(std::ostream& out, std::size_t depth, std::size_t items_before) : out_(out), levels_(depth, 1) {
        if (depth > 0) levels_.back() = items_before;
    }
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;
    ~JsonWriter() = default;

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }

    // The name of the next member of the innermost object.
    void key(std::string_view name);

    void string(std::string_view text);
    void boolean(bool b) { raw(b ? "true" : "false"); }
    void null() { raw("null"); }
    template <std::integral T>
    requires(!std::same_as<T, bool>) void number(T n) {
        char digits[24];
        auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
        raw(std::string_view(digits, static_cast<std::size_t>(end - digits)));
    }

    // A member of the innermost object: key(name) then the value.
    void member(std::string_view name, std::string_view text) {
        key(name);
        string(text);
    }
    template <std::integral T>
    requires(!std::same_as<T, bool>) void member(std::string_view name, T n) {
        key(name);
        number(n);
    }

    // Ends the document with a newline (as the reports always did) and
    // writes what is still buffered.
    void finish();

    // Writes what is still buffered.
    void flush();

    // How many containers are open, and the items of the innermost so far.
    [[nodiscard]] std::size_t depth() const { return levels_.size(); }
    [[nodiscard]] std::size_t items() const { return levels_.empty() ? 0 : levels_.back(); }

    // The stream written to, for a writer continuing this one after a
    // flush(); add_items counts what it wrote.
    [[nodiscard]] std::ostream& stream() { return out_; }
    void add_items(std::size_t count) { levels_.back() += count; }

    // Writes `text`: `count` items of the innermost container, as writers
    // continuing this one (the constructor above) wrote them, in order.
    void splice(std::string_view text, std::size_t count) {
        flush();
        out_.write(text.data(), static_cast<std::streamsize>(text.size()));
        levels_.back() += count;
    }

private:
    void open(char bracket);
    void close(char bracket);
    // Starts a value: after its key in an object, else on a line of its own.
    void begin_value();
    void raw(std::string_view text) {
        begin_value();
        buffer_.append(text);
        spill();
    }
    void new_item();
    void indent(std::size_t depth) { buffer_.append(2 * depth, ' '); }
    void spill() {
        if (buffer_.size() >= chunk) flush();
    }

    static constexpr std::size_t chunk = std::size_t{1} << 16;

    std::ostream& out_;
    std::string buffer_;
    std::vector<std::size_t> levels_;  // the items written so far in each open container
    bool after_key_ = false;           // a key was written; its value comes next
};

// Writes `count` items into `w`'s innermost container, in runs of `run_size`
// put together `jobs` at once and written in order, a few runs per job at a
// time (so that what waits stays small). `render(out, items_before, begin,
// end)` writes items [begin, end) to `out` with a writer continuing `w`'s
// document (JsonWriter's continuing constructor, at w.depth() and
// `items_before`), and flushes it. With one job, or no more than one run,
// every item is rendered at once on the calling thread, straight into `w`'s
// stream.
void write_items_in_runs(
    JsonWriter& w, std::size_t count, unsigned jobs, std::size_t run_size,
    const std::function<void(std::ostream& out, std::size_t items_before, std::size_t begin, std::size_t end)>& render);

}  // namespace tfsift::report::detail
