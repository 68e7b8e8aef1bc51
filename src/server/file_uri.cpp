#include "tfsift/server/file_uri.hpp"

#include <fmt/core.h>

namespace tfsift::server {

namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool unreserved(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~' || c == '/';
}

}  // namespace

std::optional<std::string> path_of_uri(std::string_view uri) {
    constexpr std::string_view scheme = "file://";
    if (uri.size() < scheme.size() || uri.substr(0, scheme.size()) != scheme) return std::nullopt;
    uri.remove_prefix(scheme.size());
    const auto slash = uri.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    const std::string_view authority = uri.substr(0, slash);
    if (!authority.empty() && authority != "localhost") return std::nullopt;
    uri.remove_prefix(slash);
    if (const auto end = uri.find_first_of("?#"); end != std::string_view::npos) uri = uri.substr(0, end);
    std::string out;
    out.reserve(uri.size());
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && hex_value(uri[i + 1]) >= 0 && hex_value(uri[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2])));
            i += 2;
        } else {
            out.push_back(uri[i]);
        }
    }
    if (out.find('\0') != std::string::npos) return std::nullopt;
    return out;
}

std::string uri_of_path(std::string_view path) {
    std::string out = "file://";
    for (char c : path) {
        if (unreserved(c)) {
            out.push_back(c);
        } else {
            out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        }
    }
    return out;
}

}  // namespace tfsift::server
