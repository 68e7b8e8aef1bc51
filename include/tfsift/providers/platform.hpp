// Target platforms of provider packages: "OS_ARCH" in Go's GOOS/GOARCH
// spelling (spec 9.1-9.2).
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace tfsift::providers {

struct Platform {
    std::string os;
    std::string arch;

    [[nodiscard]] std::string to_string() const { return os + "_" + arch; }
    // Ordered by OS, then architecture, bytewise.
    // clang-tidy 14 mistakes the defaulted comparison's zero literal for a null pointer.
    // NOLINTNEXTLINE(modernize-use-nullptr)
    friend auto operator<=>(const Platform&, const Platform&) = default;
    friend bool operator==(const Platform&, const Platform&) = default;
};

struct ParsedPlatform {
    std::optional<Platform> platform;
    std::string error;  // e.g. "must be two words separated by an underscore"
};

// Exactly two words around one "_" (either may be empty, as upstream), no
// whitespace; no case folding.
[[nodiscard]] ParsedPlatform parse_platform(std::string_view text);

// The platform tfsift itself runs on, in Go's spelling (e.g. linux_amd64).
[[nodiscard]] Platform current_platform();

}  // namespace tfsift::providers
