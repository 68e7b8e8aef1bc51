// Source files and positions within them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/once.hpp"

namespace tfsift {

// A position in a source file: a byte offset and nothing else. Syntax trees
// hold millions of positions, so lines and columns are not stored: the
// SourceFile the position points into resolves them (lines through its line
// table, columns by counting Unicode extended grapheme clusters) for the few
// positions that are ever printed or compared by line.
struct Pos {
    std::uint32_t byte = 0;  // 0-based byte offset

    friend bool operator==(const Pos&, const Pos&) = default;
    friend auto operator<=>(const Pos&, const Pos&) = default;
};

// A half-open byte range [start, end), 8 bytes.
struct Range {
    Pos start;
    Pos end;

    friend bool operator==(const Range&, const Range&) = default;
    [[nodiscard]] bool empty() const { return start.byte == end.byte; }
};

// A position with its column resolved, ready to print.
struct ResolvedPos {
    std::uint32_t line = 1;
    std::uint32_t column = 1;  // 1-based, in grapheme clusters
    std::uint32_t byte = 0;
};

// The bytes of one file and what is needed to turn byte offsets into
// line/column positions. Immutable once built; shared by every tree and
// diagnostic that points into it.
class SourceFile {
public:
    SourceFile(std::string path, std::string_view bytes);
    SourceFile(const SourceFile&) = delete;
    SourceFile& operator=(const SourceFile&) = delete;
    ~SourceFile();

    [[nodiscard]] const std::string& path() const { return path_; }
    [[nodiscard]] std::string_view text() const { return {data_, size_}; }
    [[nodiscard]] std::size_t size() const { return size_; }

    // 1-based line of `pos` (\n and \r\n end lines; a position right after a
    // line break is on the next line), found by binary search.
    [[nodiscard]] std::uint32_t line(Pos pos) const;

    // 1-based column of `pos`, counted in extended grapheme clusters from the
    // start of its line. A UTF-8 byte order mark at the start of the file
    // does not count. Lines longer than `column_stride` bytes get an index of
    // saved counts on first use, so that no column costs more than counting
    // `column_stride` bytes (a 10 MB one-line file has many positions).
    [[nodiscard]] std::uint32_t column(Pos pos) const;
    [[nodiscard]] ResolvedPos resolve(Pos pos) const;
    // 1-based column of `pos` in UTF-16 code units from the start of its
    // line (SARIF's column kind; a byte order mark counts), from the same
    // index as column().
    [[nodiscard]] std::uint32_t utf16_column(Pos pos) const;
    static constexpr std::uint32_t column_stride = 256;

    // The text of a 1-based line without its line break.
    [[nodiscard]] std::string_view line_text(std::uint32_t line) const;

    // Reads a file from disk; throws std::system_error on I/O failure.
    static std::shared_ptr<const SourceFile> read(const std::string& path);

    // A source file that owns `data`, `size` bytes from tree_space::allocate
    // (or null when empty), which it gives back when it goes. `real_dir`:
    // see real_directory().
    static std::shared_ptr<const SourceFile> adopt(std::string path, char* data, std::size_t size,
                                                   std::string real_dir = {});

    // The real path of the directory the text was read from, when the read
    // made sure of it (the file opened relative to that directory, no link
    // followed): whoever must know where the text came from (the report,
    // before quoting it) need not ask the file system again. Empty when
    // nothing is known.
    [[nodiscard]] const std::string& real_directory() const { return real_directory_; }

private:
    struct Adopt {};
    SourceFile(Adopt, std::string path, char* data, std::size_t size, std::string real_dir);
    void index_lines() const;
    void index_columns() const;
    [[nodiscard]] std::uint32_t line_begin(std::uint32_t line) const;  // after a BOM on line 1

    // The bytes live in the tree space (tfsift/tree_space.hpp): syntax trees
    // point into them by 32-bit offsets.
    std::string path_;
    std::string real_directory_;
    char* data_ = nullptr;
    std::size_t size_ = 0;
    mutable std::vector<std::uint32_t> line_starts_;  // built on first use
    mutable Once lines_indexed_;
    // A grapheme count saved within a long line: the counter's state at
    // `byte`, having counted from the start of the line.
    struct ColumnCheckpoint {
        std::uint32_t byte = 0;
        std::uint32_t count = 0;
        std::int32_t prev = -1;
        std::int32_t state = 0;
        std::uint32_t utf16 = 0;  // UTF-16 code units from the line's first byte
    };
    mutable std::vector<ColumnCheckpoint> column_checkpoints_;  // sorted by byte, built on first use
    mutable Once columns_indexed_;
};

// Counts the extended grapheme clusters in a UTF-8 string (invalid bytes
// count one each).
std::uint32_t count_graphemes(std::string_view utf8);

}  // namespace tfsift
