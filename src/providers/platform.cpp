#include "tfsift/providers/platform.hpp"

namespace tfsift::providers {

ParsedPlatform parse_platform(std::string_view text) {
    const auto underscore = text.find('_');
    if (underscore == std::string_view::npos || text.find('_', underscore + 1) != std::string_view::npos) {
        return {std::nullopt, "must be two words separated by an underscore"};
    }
    const auto os = text.substr(0, underscore);
    const auto arch = text.substr(underscore + 1);
    if (os.find_first_of(" \t\r\n") != std::string_view::npos) {
        return {std::nullopt, "OS portion must not contain whitespace"};
    }
    if (arch.find_first_of(" \t\r\n") != std::string_view::npos) {
        return {std::nullopt, "architecture portion must not contain whitespace"};
    }
    return {Platform{std::string(os), std::string(arch)}, {}};
}

Platform current_platform() {
#if defined(__APPLE__)
    std::string os = "darwin";
#elif defined(_WIN32)
    std::string os = "windows";
#elif defined(__FreeBSD__)
    std::string os = "freebsd";
#elif defined(__OpenBSD__)
    std::string os = "openbsd";
#else
    std::string os = "linux";
#endif
#if defined(__x86_64__) || defined(_M_X64)
    std::string arch = "amd64";
#elif defined(__aarch64__) || defined(_M_ARM64)
    std::string arch = "arm64";
#elif defined(__i386__) || defined(_M_IX86)
    std::string arch = "386";
#elif defined(__arm__)
    std::string arch = "arm";
#elif defined(__s390x__)
    std::string arch = "s390x";
#else
    std::string arch = "unknown";
#endif
    return {os, arch};
}

}  // namespace tfsift::providers
