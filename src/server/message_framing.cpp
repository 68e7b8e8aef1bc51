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

// Reads one line up to \n (dropped), keeping at most `max_header_line`
// bytes of it. False at the end of the stream with nothing read.
bool read_line(std::istream& in, std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    bool any = false;
    for (;;) {
        const int c = in.get();
        if (c == std::char_traits<char>::eof()) return any;
        any = true;
        if (c == '\n') return true;
        if (line.size() < max_header_line) {
            line.push_back(static_cast<char>(c));
        } else {
            too_long = true;
        }
    }
}

}  // namespace

Frame FrameReader::next() {
    std::optional<std::size_t> length;
    std::string problem;
    std::string line;
    bool too_long = false;
    bool any_header = false;
    // The header block, up to its empty line.
    for (;;) {
        if (!read_line(*in_, line, too_long)) return Frame{};
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
            length = parse_length(value);
            if (!length && problem.empty())
                problem = fmt::format("an invalid Content-Length \"{}\"", value.substr(0, 80));
        }
    }
    if (!length && problem.empty()) problem = "a header block without Content-Length";
    if (!problem.empty()) {
        Frame f;
        f.kind = Frame::Kind::malformed;
        f.error = "Malformed message header: " + problem + "; the header block was skipped";
        return f;
    }
    if (*length > max_message_bytes) {
        // Skip the body without holding it.
        std::array<char, 65536> sink{};
        std::size_t left = *length;
        while (left > 0 && *in_) {
            in_->read(sink.data(), static_cast<std::streamsize>(std::min(left, sink.size())));
            left -= static_cast<std::size_t>(in_->gcount());
        }
        Frame f;
        f.kind = Frame::Kind::malformed;
        f.error = fmt::format("A message of {} bytes, more than the limit of {}; skipped", *length, max_message_bytes);
        return f;
    }
    Frame f;
    f.kind = Frame::Kind::message;
    f.body.resize(*length);
    in_->read(f.body.data(), static_cast<std::streamsize>(*length));
    if (static_cast<std::size_t>(in_->gcount()) != *length) return Frame{};
    return f;
}

std::string frame_message(std::string_view body) {
    std::string out = fmt::format("Content-Length: {}\r\n\r\n", body.size());
    out.append(body);
    return out;
}

}  // namespace tfsift::server
