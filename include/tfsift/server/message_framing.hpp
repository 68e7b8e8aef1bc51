// The base protocol of the Language Server Protocol: each message is a
// header block (`Content-Length: N`, optionally `Content-Type`, each line
// ending in \r\n, the block ending in an empty line) followed by N bytes of
// JSON. A reader over a byte stream turns it into message bodies; a broken
// header block is reported and skipped, so one bad frame never ends the
// stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace tfsift::server {

// The largest message body read (larger ones are skipped and reported).
inline constexpr std::size_t max_message_bytes = std::size_t{256} << 20;

struct Frame {
    enum class Kind : std::uint8_t {
        message,    // `body` holds one message's bytes (not yet parsed)
        malformed,  // a broken header block or an oversized body, skipped; `error` says why
        end,        // the stream ended (possibly in the middle of a frame)
    };
    Kind kind = Kind::end;
    std::string body;
    std::string error;
};

// A client that declares a wrong Content-Length costs one message, not the
// stream: a header found at the end of a line of garbage (the length was
// too short) starts a new block there, and a `Content-Length: N` header line
// inside a body (the length was too long; such bytes cannot be JSON) ends
// the body there and is read again as the next frame.
class FrameReader {
public:
    explicit FrameReader(std::istream& in) : in_(&in) {}

    // The next frame. Blocks until a whole frame has arrived or the stream
    // ends.
    Frame next();

private:
    int get();
    std::size_t read(char* out, std::size_t n);
    bool read_line(std::string& line, bool& too_long, bool& resynchronised);

    std::istream* in_;
    std::string pending_;  // bytes given back, read before the stream
    std::size_t pending_at_ = 0;
};

// The deepest nesting of arrays and objects in a JSON text (strings
// skipped), counting no further than `limit + 1`. Linear, no recursion.
std::size_t json_nesting_depth(std::string_view body, std::size_t limit);

// Messages nested deeper than this are refused before they are parsed:
// LSP messages are a few levels deep, and a 300,000-deep one would exhaust
// the stack of whatever walks it recursively.
inline constexpr std::size_t max_message_nesting = 256;

// `body` with its header block, ready to write.
std::string frame_message(std::string_view body);

}  // namespace tfsift::server
