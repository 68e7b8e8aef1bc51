// URLs as the registry protocols use them: parsing an absolute http(s) URL,
// resolving a reference against a base the way Go's url.ResolveReference
// does (RFC 3986 section 5.2; a base without a trailing "/" loses its last
// segment), and escaping path segments. Pure functions, no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tfsift::net {

struct Url {
    std::string scheme;                // lower case, e.g. "https"
    std::string userinfo;              // without the "@"
    std::string host;                  // as written (IPv6 literals keep their brackets), lower case
    std::string port;                  // digits, empty when absent
    std::string path;                  // escaped form, e.g. "/v1/providers/"
    std::optional<std::string> query;  // without "?"
    std::optional<std::string> fragment;

    // host[:port]
    [[nodiscard]] std::string authority() const;
    // host:port with the scheme's default port filled in (Go's canonicalAddr).
    [[nodiscard]] std::string host_port() const;
    // The host without IPv6 brackets.
    [[nodiscard]] std::string bare_host() const;
    [[nodiscard]] std::string to_string() const;
};

// Parses an absolute URL (scheme "://" authority path...). nullopt for a
// relative reference or a malformed authority.
[[nodiscard]] std::optional<Url> parse_absolute_url(std::string_view text);

// Resolves `reference` (absolute or relative) against the absolute `base`.
// nullopt when `base` is not an absolute URL or `reference` is malformed.
[[nodiscard]] std::optional<std::string> resolve_reference(std::string_view base, std::string_view reference);

// `text` with the password of every URL in it replaced by "xxxxx"
// ("https://user:xxxxx@host/x"), as Go's url.URL.Redacted does; a user name
// alone is kept. Every URL a message shows goes through it.
[[nodiscard]] std::string redacted_url(std::string_view text);

// Percent-encodes one path segment (UTF-8 bytes outside RFC 3986's
// unreserved set and sub-delims that Go leaves alone).
[[nodiscard]] std::string escape_path_segment(std::string_view segment);

}  // namespace tfsift::net
