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

class FrameReader {
public:
    explicit FrameReader(std::istream& in) : in_(&in) {}

    // The next frame. Blocks until a whole frame has arrived or the stream
    // ends.
    Frame next();

private:
    std::istream* in_;
};

// `body` with its header block, ready to write.
std::string frame_message(std::string_view body);

}  // namespace tfsift::server
