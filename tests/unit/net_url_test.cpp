// URL resolution against RFC 3986's own examples (section 5.4), which Go's
// url.ResolveReference also passes, plus the registry cases that matter.
#include <catch2/catch.hpp>

#include "tfsift/net/url.hpp"

using tfsift::net::escape_path_segment;
using tfsift::net::parse_absolute_url;
using tfsift::net::resolve_reference;

TEST_CASE("RFC 3986 normal and abnormal examples", "[net][url]") {
    const std::string base = "http://a/b/c/d;p?q";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"g", "http://a/b/c/g"},
        {"./g", "http://a/b/c/g"},
        {"g/", "http://a/b/c/g/"},
        {"/g", "http://a/g"},
        {"//g", "http://g"},
        {"?y", "http://a/b/c/d;p?y"},
        {"g?y", "http://a/b/c/g?y"},
        {"#s", "http://a/b/c/d;p?q#s"},
        {"g#s", "http://a/b/c/g#s"},
        {"g?y#s", "http://a/b/c/g?y#s"},
        {";x", "http://a/b/c/;x"},
        {"g;x", "http://a/b/c/g;x"},
        {"", "http://a/b/c/d;p?q"},
        {".", "http://a/b/c/"},
        {"./", "http://a/b/c/"},
        {"..", "http://a/b/"},
        {"../", "http://a/b/"},
        {"../g", "http://a/b/g"},
        {"../..", "http://a/"},
        {"../../", "http://a/"},
        {"../../g", "http://a/g"},
        {"../../../g", "http://a/g"},
        {"../../../../g", "http://a/g"},
        {"/./g", "http://a/g"},
        {"/../g", "http://a/g"},
        {"g.", "http://a/b/c/g."},
        {".g", "http://a/b/c/.g"},
        {"g..", "http://a/b/c/g.."},
        {"..g", "http://a/b/c/..g"},
        {"./../g", "http://a/b/g"},
        {"./g/.", "http://a/b/c/g/"},
        {"g/./h", "http://a/b/c/g/h"},
        {"g/../h", "http://a/b/c/h"},
        {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
        {"g;x=1/../y", "http://a/b/c/y"},
        {"g?y/./x", "http://a/b/c/g?y/./x"},
        {"g#s/../x", "http://a/b/c/g#s/../x"},
    };
    for (const auto& [reference, expected] : cases) {
        INFO(reference);
        CHECK(resolve_reference(base, reference) == expected);
    }
}

TEST_CASE("registry base URLs keep or lose their last segment", "[net][url]") {
    CHECK(resolve_reference("https://127.0.0.1:4443/v1/providers/", "example/demo/versions") ==
          "https://127.0.0.1:4443/v1/providers/example/demo/versions");
    // Without the trailing slash the last segment is replaced, as in Go.
    CHECK(resolve_reference("https://reg.example/v1/providers", "example/demo/versions") ==
          "https://reg.example/v1/example/demo/versions");
    // Service URLs relative to the discovery document's final URL.
    CHECK(resolve_reference("https://reg.example/.well-known/terraform.json", "/v1/providers/") ==
          "https://reg.example/v1/providers/");
    // Download URLs relative to the download document.
    CHECK(resolve_reference("https://m.example/mirror/reg.example/ns/t/1.0.0.json", "t_1.0.0_linux_amd64.zip") ==
          "https://m.example/mirror/reg.example/ns/t/t_1.0.0_linux_amd64.zip");
    CHECK(resolve_reference("https://a.example/x/y", "https://b.example:8443/z/../w") == "https://b.example:8443/w");
    CHECK(resolve_reference("https://a.example/x", "//b.example/p") == "https://b.example/p");
    CHECK_FALSE(resolve_reference("not a url", "x").has_value());
    CHECK_FALSE(resolve_reference("https://a.example/", "has space").has_value());
}

TEST_CASE("absolute URLs split into their parts", "[net][url]") {
    auto url = parse_absolute_url("HTTPS://User@Reg.Example:8443/v1/a?x=1#f");
    REQUIRE(url);
    CHECK(url->scheme == "https");
    CHECK(url->userinfo == "User");
    CHECK(url->host == "reg.example");
    CHECK(url->port == "8443");
    CHECK(url->path == "/v1/a");
    CHECK(url->query == "x=1");
    CHECK(url->fragment == "f");
    CHECK(url->authority() == "reg.example:8443");
    auto v6 = parse_absolute_url("https://[::1]/x");
    REQUIRE(v6);
    CHECK(v6->bare_host() == "::1");
    CHECK(v6->host_port() == "[::1]:443");
    CHECK_FALSE(parse_absolute_url("/relative/path").has_value());
    CHECK_FALSE(parse_absolute_url("https://host:port/").has_value());
}

TEST_CASE("path segments are percent-encoded as UTF-8", "[net][url]") {
    CHECK(escape_path_segment("hashicorp") == "hashicorp");
    CHECK(escape_path_segment("1.0.0+abc") == "1.0.0+abc");
    CHECK(escape_path_segment("m\xC3\xBCnchen") == "m%C3%BCnchen");
    CHECK(escape_path_segment("a/b c?") == "a%2Fb%20c%3F");
}

TEST_CASE("passwords in URLs are redacted as Go's URL.Redacted does", "[net][url]") {
    using tfsift::net::redacted_url;
    CHECK(redacted_url("https://user:dlSECRETpw@host/x") == "https://user:xxxxx@host/x");
    CHECK(redacted_url("https://user:p@ss:w@host:8443/x?y=1") == "https://user:xxxxx@host:8443/x?y=1");
    CHECK(redacted_url("https://:secret@host") == "https://:xxxxx@host");
    CHECK(redacted_url("https://token@host/x") == "https://token@host/x");  // a user name alone is kept
    CHECK(redacted_url("https://host/a:b@c") == "https://host/a:b@c");      // '@' in the path is no user information
    CHECK(redacted_url("https://host/x") == "https://host/x");
    CHECK(redacted_url("not a url") == "not a url");
    CHECK(redacted_url("from https://a:b@one/ to \"https://c:d@two?q\"") ==
          "from https://a:xxxxx@one/ to \"https://c:xxxxx@two?q\"");
}
