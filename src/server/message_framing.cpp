#include "tfsift/server/message_framing.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace tfsift::server {

namespace {

// A header line is short; anything longer is garbage that must not be
// buffered without bound.
constexpr std::size_t max_header_line = 4096;

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::optional<std::size_t> parse_length(std::string_view text) {
    if (text.empty() || text.size() > 15) return std::nullopt;
    std::size_t n = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    return n;
}

// Where a `Content-Length:` header starts inside `text` (any case), or npos.
std::size_t find_length_header(std::string_view text, std::size_t from = 0) {
    constexpr std::string_view name = "content-length:";
    for (std::size_t at = text.find_first_of("cC", from); at != std::string_view::npos;
         at = text.find_first_of("cC", at + 1)) {
        if (equals_ignoring_case(text.substr(at, name.size()), name)) return at;
    }
    return std::string_view::npos;
}

// Where a whole header line `Content-Length: DIGITS` followed by a line end
// starts inside a message body, or npos. Such bytes cannot be part of JSON
// (outside a string the name is no JSON; inside one a raw line end is not
// allowed), so they are the next frame's header, read as body because the
// frame before declared too long a length.
std::size_t find_embedded_header(std::string_view body) {
    for (std::size_t at = find_length_header(body); at != std::string_view::npos;
         at = find_length_header(body, at + 1)) {
        std::size_t i = at + std::string_view("content-length:").size();
        while (i < body.size() && (body[i] == ' ' || body[i] == '\t')) ++i;
        const std::size_t digits = i;
        while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i;
        if (i == digits) continue;
        while (i < body.size() && (body[i] == ' ' || body[i] == '\t')) ++i;
        if (i < body.size() && (body[i] == '\n' || body[i] == '\r')) return at;
    }
    return std::string_view::npos;
}

}  // namespace

int FrameReader::get() {
    if (pending_at_ < pending_.size()) return static_cast<unsigned char>(pending_[pending_at_++]);
    return in_->get();
}

std::size_t FrameReader::read(char* out, std::size_t n) {
    std::size_t got = 0;
    if (pending_at_ < pending_.size()) {
        got = std::min(n, pending_.size() - pending_at_);
        std::copy_n(pending_.data() + pending_at_, got, out);
        pending_at_ += got;
        if (pending_at_ == pending_.size()) {
            pending_.clear();
            pending_at_ = 0;
        }
    }
    if (got < n && *in_) {
        in_->read(out + got, static_cast<std::streamsize>(n - got));
        got += static_cast<std::size_t>(in_->gcount());
    }
    return got;
}

// Reads one line up to \n (dropped), keeping at most `max_header_line`
// bytes of it, except that a line holding a `Content-Length:` header after
// other bytes (the tail of a body whose length was declared too short) is
// kept from that header on. False at the end of the stream with nothing
// read; `resynchronised` says bytes before the header were dropped.
bool FrameReader::read_line(std::string& line, bool& too_long, bool& resynchronised) {
    line.clear();
    too_long = false;
    resynchronised = false;
    bool any = false;
    for (;;) {
        const int c = get();
        if (c == std::char_traits<char>::eof()) return any;
        any = true;
        if (c == '\n') return true;
        if (line.size() >= max_header_line) {
            // Keep only what may still become `Content-Length: N`.
            const std::size_t header = find_length_header(line, 1);
            if (header != std::string::npos) {
                line.erase(0, header);
                resynchronised = true;
            } else {
                line.erase(0, line.size() - 32);
                too_long = true;
            }
        }
        line.push_back(static_cast<char>(c));
    }
}

Frame FrameReader::next() {
    // (no std::optional: GCC 12 takes a reset one for uninitialized)
    std::size_t length = 0;
    bool have_length = false;
    std::string problem;
    std::string line;
    bool too_long = false;
    bool resynchronised = false;
    bool any_header = false;
    // The header block, up to its empty line.
    for (;;) {
        if (!read_line(line, too_long, resynchronised)) return Frame{};
        if (const std::size_t header = find_length_header(line); header != std::string::npos) {
            // Content-Length starts a block again: lines of garbage before
            // it in this block, or bytes before it on its line, were the end
            // of a body declared too short.
            line.erase(0, header);
            resynchronised = true;
        }
        if (resynchronised) {
            problem.clear();
            have_length = false;
            too_long = false;
        }
        const std::string_view text = trim(line);
        if (text.empty()) {
            if (!any_header) continue;  // stray blank lines between frames
            break;
        }
        any_header = true;
        if (too_long) {
            if (problem.empty()) problem = "a header line longer than 4096 bytes";
            continue;
        }
        const auto colon = text.find(':');
        if (colon == std::string_view::npos) {
            if (problem.empty()) problem = fmt::format("a header line without a colon: \"{}\"", text.substr(0, 80));
            continue;
        }
        const std::string_view name = trim(text.substr(0, colon));
        const std::string_view value = trim(text.substr(colon + 1));
        if (equals_ignoring_case(name, "Content-Length")) {
            const auto parsed = parse_length(value);
            have_length = parsed.has_value();
            length = parsed.value_or(0);
            if (!have_length && problem.empty())
                problem = fmt::format("an invalid Content-Length \"{}\"", value.substr(0, 80));
        }
    }
    if (!have_length && problem.empty()) problem = "a header block without Content-Length";
    if (!problem.empty()) {
        Frame f;
        f.kind = Frame::Kind::malformed;
        f.error = "Malformed message header: " + problem + "; the header block was skipped";
        return f;
    }
    if (length > max_message_bytes) {
        // Skip the body without holding it.
        std::array<char, 65536> sink{};
        std::size_t left = length;
        while (left > 0) {
            const std::size_t got = read(sink.data(), std::min(left, sink.size()));
            if (got == 0) break;
            left -= got;
        }
        Frame f;
        f.kind = Frame::Kind::malformed;
        f.error = fmt::format("A message of {} bytes, more than the limit of {}; skipped", length, max_message_bytes);
        return f;
    }
    Frame f;
    f.kind = Frame::Kind::message;
    f.body.resize(length);
    if (read(f.body.data(), length) != length) return Frame{};
    // A length declared too long swallows the next frame's header: give
    // those bytes back, to be read as the frame they are.
    if (const std::size_t header = find_embedded_header(f.body); header != std::string::npos) {
        std::size_t cut = header;
        while (cut > 0 && (f.body[cut - 1] == '\n' || f.body[cut - 1] == '\r')) --cut;
        pending_ = f.body.substr(header) + pending_.substr(pending_at_);
        pending_at_ = 0;
        f.body.resize(cut);
    }
    return f;
}

std::size_t json_nesting_depth(std::string_view body, std::size_t limit) {
    std::size_t depth = 0;
    std::size_t deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        switch (c) {
            case '"': in_string = true; break;
            case '[':
            case '{':
                deepest = std::max(deepest, ++depth);
                if (deepest > limit) return deepest;
                break;
            case ']':
            case '}':
                if (depth > 0) --depth;
                break;
            default: break;
        }
    }
    return deepest;
}

std::string frame_message(std::string_view body) {
    std::string out = fmt::format("Content-Length: {}\r\n\r\n", body.size());
    out.append(body);
    return out;
}

}  // namespace tfsift::server
