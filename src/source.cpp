#include "tfsift/source.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
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

SourceFile::SourceFile(Adopt /*unused*/, std::string path, char* data, std::size_t size)
    : path_(std::move(path)), data_(data), size_(size) {}

SourceFile::~SourceFile() { tree_space::release(data_, size_); }

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
    case ReadFailure::too_large: code = EFBIG; break;
    case ReadFailure::none:
    case ReadFailure::io_error: break;
    }
    throw std::system_error(code, std::generic_category(), failure.message);
}

void SourceFile::index_lines() const {
    // Rules on several threads may ask for lines of the same file.
    std::call_once(lines_indexed_, [this] {
        line_starts_.push_back(0);
        for (std::size_t i = 0; i < size_; ++i) {
            if (data_[i] == '\n') line_starts_.push_back(static_cast<std::uint32_t>(i + 1));
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

std::uint32_t SourceFile::column(Pos pos) const {
    std::uint32_t begin = line_starts_[line(pos) - 1];
    if (begin == 0 && text().starts_with("\xEF\xBB\xBF")) begin = 3;
    std::uint32_t end = std::min<std::uint32_t>(pos.byte, static_cast<std::uint32_t>(size_));
    if (end <= begin) return 1;
    return 1 + count_graphemes(text().substr(begin, end - begin));
}

ResolvedPos SourceFile::resolve(Pos pos) const {
    return ResolvedPos{line(pos), column(pos), pos.byte};
}

std::uint32_t count_graphemes(std::string_view s) {
    std::uint32_t count = 0;
    std::size_t i = 0;
    utf8proc_int32_t prev = -1;
    utf8proc_int32_t state = 0;
    const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
    while (i < s.size()) {
        // ASCII fast path: printable ASCII after ASCII never joins (CR LF aside).
        unsigned char c = p[i];
        if (c < 0x80 && c != '\n' && prev >= 0 && prev < 0x80 && prev != '\r') {
            ++count;
            prev = c;
            state = 0;
            ++i;
            continue;
        }
        utf8proc_int32_t cp = 0;
        utf8proc_ssize_t n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(s.size() - i), &cp);
        if (n <= 0) {  // invalid byte: one column on its own
            ++count;
            prev = -1;
            state = 0;
            ++i;
            continue;
        }
        if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state)) ++count;
        prev = cp;
        i += static_cast<std::size_t>(n);
    }
    return count;
}

}  // namespace tfsift
