#include "tfsift/source.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <system_error>

#include <utf8proc.h>

#include "tfsift/file_read.hpp"
#include "tfsift/tree_space.hpp"

namespace tfsift {

SourceFile::SourceFile(std::string path, std::string_view bytes) : path_(std::move(path)), size_(bytes.size()) {
    if (size_ > 0) {
        data_ = static_cast<char*>(tree_space::allocate(size_));
        std::memcpy(data_, bytes.data(), size_);
    }
}

SourceFile::SourceFile(Adopt /*unused*/, std::string path, char* data, std::size_t size, std::string real_dir)
    : path_(std::move(path)), real_directory_(std::move(real_dir)), data_(data), size_(size) {}

SourceFile::~SourceFile() { tree_space::release(data_, size_); }

std::shared_ptr<const SourceFile> SourceFile::adopt(std::string path, char* data, std::size_t size,
                                                    std::string real_dir) {
    // make_shared cannot reach the private constructor. Out of memory, the
    // block goes back rather than being lost: before the file owns it by
    // hand, after that through the unique_ptr.
    std::unique_ptr<SourceFile> file;
    try {
        file.reset(new SourceFile(Adopt{}, std::move(path), data, size, std::move(real_dir)));
    } catch (...) {
        tree_space::release(data, size);
        throw;
    }
    return std::shared_ptr<const SourceFile>(std::move(file));
}

std::shared_ptr<const SourceFile> SourceFile::read(const std::string& path) {
    // Only a regular file, bounded in size (tfsift/file_read.hpp).
    FileContent failure;
    auto file = read_source_file(path, ReadPolicy{}, failure);
    if (file) return file;
    int code = EIO;
    switch (failure.failure) {
        case ReadFailure::missing:
        case ReadFailure::dangling_symlink: code = ENOENT; break;
        case ReadFailure::directory: code = EISDIR; break;
        case ReadFailure::not_regular: code = ENODEV; break;
        case ReadFailure::outside_root: code = EPERM; break;
        case ReadFailure::too_large:
        case ReadFailure::over_budget: code = EFBIG; break;
        case ReadFailure::none:
        case ReadFailure::io_error: break;
    }
    throw std::system_error(code, std::generic_category(), failure.message);
}

void SourceFile::index_lines() const {
    // Rules on several threads may ask for lines of the same file.
    lines_indexed_.run([this] {
        line_starts_.push_back(0);
        const char* end = data_ + size_;
        for (const char* p = data_; p < end;) {
            const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            if (nl == nullptr) break;
            line_starts_.push_back(static_cast<std::uint32_t>(nl - data_ + 1));
            p = nl + 1;
        }
    });
}

std::uint32_t SourceFile::line(Pos pos) const {
    index_lines();
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos.byte);
    return static_cast<std::uint32_t>(it - line_starts_.begin());
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
    index_lines();
    if (line == 0 || line > line_starts_.size()) return {};
    std::size_t begin = line_starts_[line - 1];
    std::size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : size_;
    if (end > begin && data_[end - 1] == '\r' && line < line_starts_.size()) --end;
    return text().substr(begin, end - begin);
}

namespace {

// UTF-16 code units of UTF-8 text: one per lead byte, two for a four-byte
// sequence (a surrogate pair); invalid bytes other than stray continuation
// bytes count one each.
std::uint32_t utf16_units(std::string_view s) {
    std::uint32_t units = 0;
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        if ((c & 0xC0) == 0x80) continue;  // continuation byte
        units += c >= 0xF0 ? 2 : 1;
    }
    return units;
}

// Counts extended grapheme clusters over a stream of UTF-8 bytes. Its whole
// state is (prev, state, count), so a count can stop at any code point
// boundary and go on later from a saved copy with the same result.
struct GraphemeCounter {
    utf8proc_int32_t prev = -1;
    utf8proc_int32_t state = 0;
    std::uint32_t count = 0;

    // Consumes one code point (or one invalid byte) at s[i]; returns the
    // index after it.
    std::size_t step(std::string_view s, std::size_t i) {
        const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
        // ASCII fast path: printable ASCII after ASCII never joins (CR LF aside).
        unsigned char c = p[i];
        if (c < 0x80 && c != '\n' && prev >= 0 && prev < 0x80 && prev != '\r') {
            ++count;
            prev = c;
            state = 0;
            return i + 1;
        }
        utf8proc_int32_t cp = 0;
        utf8proc_ssize_t n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(s.size() - i), &cp);
        if (n <= 0) {  // invalid byte: one column on its own
            ++count;
            prev = -1;
            state = 0;
            return i + 1;
        }
        if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state)) ++count;
        prev = cp;
        return i + static_cast<std::size_t>(n);
    }
};

}  // namespace

std::uint32_t SourceFile::line_begin(std::uint32_t line) const {
    std::uint32_t begin = line_starts_[line - 1];
    if (begin == 0 && text().starts_with("\xEF\xBB\xBF")) begin = 3;
    return begin;
}

void SourceFile::index_columns() const {
    index_lines();
    columns_indexed_.run([this] {
        const std::string_view all = text();
        for (std::uint32_t line = 1; line <= line_starts_.size(); ++line) {
            const std::size_t begin = line_begin(line);
            const std::size_t end = line < line_starts_.size() ? line_starts_[line] : size_;
            if (end <= begin || end - begin <= column_stride) continue;
            // The counter sees the same bytes as a count from the line start
            // would; a checkpoint is saved at the first code point boundary
            // after every `column_stride` bytes.
            const std::string_view rest = all.substr(0, end);
            GraphemeCounter counter;
            std::uint32_t utf16 = utf16_units(all.substr(line_starts_[line - 1], begin - line_starts_[line - 1]));
            std::size_t next = begin + column_stride;
            for (std::size_t i = begin; i < end;) {
                const std::size_t from = i;
                i = counter.step(rest, i);
                utf16 += utf16_units(all.substr(from, i - from));
                if (i >= next && i < end) {
                    column_checkpoints_.push_back(ColumnCheckpoint{static_cast<std::uint32_t>(i), counter.count,
                                                                   counter.prev, counter.state, utf16});
                    next = i + column_stride;
                }
            }
        }
    });
}

std::uint32_t SourceFile::column(Pos pos) const {
    index_lines();
    const std::uint32_t begin = line_begin(line(pos));
    const std::uint32_t end = std::min<std::uint32_t>(pos.byte, static_cast<std::uint32_t>(size_));
    if (end <= begin) return 1;
    if (end - begin <= column_stride) return 1 + count_graphemes(text().substr(begin, end - begin));
    // A long line: go on from the last checkpoint at or before `end`, so the
    // cost per column is bounded whatever the length of the line.
    index_columns();
    GraphemeCounter counter;
    std::size_t i = begin;
    auto it = std::upper_bound(column_checkpoints_.begin(), column_checkpoints_.end(), end,
                               [](std::uint32_t byte, const ColumnCheckpoint& c) { return byte < c.byte; });
    if (it != column_checkpoints_.begin() && std::prev(it)->byte > begin) {
        const ColumnCheckpoint& c = *std::prev(it);
        counter.count = c.count;
        counter.prev = c.prev;
        counter.state = c.state;
        i = c.byte;
    }
    const std::string_view upto = text().substr(0, end);
    while (i < end) i = counter.step(upto, i);
    return 1 + counter.count;
}

std::uint32_t SourceFile::utf16_column(Pos pos) const {
    index_lines();
    const std::uint32_t begin = line_starts_[line(pos) - 1];
    const std::uint32_t end = std::min<std::uint32_t>(pos.byte, static_cast<std::uint32_t>(size_));
    if (end <= begin) return 1;
    std::uint32_t from = begin;
    std::uint32_t units = 0;
    if (end - begin > column_stride) {
        index_columns();
        auto it = std::upper_bound(column_checkpoints_.begin(), column_checkpoints_.end(), end,
                                   [](std::uint32_t byte, const ColumnCheckpoint& c) { return byte < c.byte; });
        if (it != column_checkpoints_.begin() && std::prev(it)->byte > begin) {
            from = std::prev(it)->byte;
            units = std::prev(it)->utf16;
        }
    }
    return 1 + units + utf16_units(text().substr(from, end - from));
}

ResolvedPos SourceFile::resolve(Pos pos) const { return ResolvedPos{line(pos), column(pos), pos.byte}; }

std::uint32_t count_graphemes(std::string_view s) {
    // Printable ASCII, nearly all text, is a grapheme a byte: one scan for
    // the first other byte settles most strings. Up to the byte before it
    // each byte is a grapheme of its own (that byte's may be extended by
    // what follows); from there on the code points are counted.
    std::size_t plain = 0;
    while (plain < s.size() && static_cast<unsigned char>(s[plain]) - 0x20U < 0x5FU) ++plain;
    if (plain == s.size()) return static_cast<std::uint32_t>(s.size());
    const std::size_t from = plain > 0 ? plain - 1 : 0;
    GraphemeCounter counter;
    for (std::size_t i = from; i < s.size();) i = counter.step(s, i);
    return static_cast<std::uint32_t>(from) + counter.count;
}

}  // namespace tfsift
