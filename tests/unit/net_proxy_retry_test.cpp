// Proxy selection by Go's rules, and the retry policy of Terraform's
// registry client (go-retryablehttp as Terraform configures it).
#include <catch2/catch.hpp>

#include "tfsift/net/proxy.hpp"
#include "tfsift/net/retry_policy.hpp"

using namespace tfsift::net;
using namespace std::chrono_literals;

namespace {

std::optional<std::string> proxy(const std::string& url, const ProxyEnvironment& env) {
    auto parsed = parse_absolute_url(url);
    REQUIRE(parsed);
    return proxy_for(*parsed, env);
}

}  // namespace

TEST_CASE("proxies follow Go's ProxyFromEnvironment", "[net][proxy]") {
    ProxyEnvironment env;
    env.https_proxy = "proxy.internal:3128";
    env.http_proxy = "http://plain-proxy:80";
    CHECK(proxy("https://registry.example/v1/", env) == "http://proxy.internal:3128");
    CHECK(proxy("http://registry.example/v1/", env) == "http://plain-proxy:80");
    SECTION("loopback and localhost are never proxied") {
        CHECK_FALSE(proxy("https://127.0.0.1:4443/", env));
        CHECK_FALSE(proxy("https://127.9.9.9/", env));
        CHECK_FALSE(proxy("https://localhost:4443/", env));
        CHECK_FALSE(proxy("https://[::1]:4443/", env));
        CHECK(proxy("https://localhost.example/", env));
    }
    SECTION("NO_PROXY domains match the host and its subdomains") {
        env.no_proxy = " Example.com , .only-sub.test,*.star.test";
        CHECK_FALSE(proxy("https://example.com/", env));
        CHECK_FALSE(proxy("https://a.b.example.com/", env));
        CHECK(proxy("https://notexample.com/", env));
        CHECK(proxy("https://only-sub.test/", env));
        CHECK_FALSE(proxy("https://x.only-sub.test/", env));
        CHECK(proxy("https://star.test/", env));
        CHECK_FALSE(proxy("https://x.star.test/", env));
    }
    SECTION("NO_PROXY ports, addresses and networks") {
        env.no_proxy = "example.com:8443,10.0.0.0/8,192.0.2.7,[2001:db8::1]:443";
        CHECK_FALSE(proxy("https://example.com:8443/", env));
        CHECK(proxy("https://example.com/", env));
        CHECK_FALSE(proxy("https://10.20.30.40/", env));
        CHECK(proxy("https://11.0.0.1/", env));
        CHECK_FALSE(proxy("https://192.0.2.7:9999/", env));
        CHECK_FALSE(proxy("https://[2001:db8::1]/", env));
        CHECK(proxy("https://[2001:db8::1]:8443/", env));
    }
    SECTION("NO_PROXY=* turns proxies off") {
        env.no_proxy = "*";
        CHECK_FALSE(proxy("https://registry.example/", env));
    }
    SECTION("under CGI, HTTP_PROXY is ignored") {
        env.cgi = true;
        CHECK_FALSE(proxy("http://registry.example/", env));
        CHECK(proxy("https://registry.example/", env));
    }
    SECTION("no proxy configured") { CHECK_FALSE(proxy("https://registry.example/", ProxyEnvironment{})); }
}

TEST_CASE("which failures are retried", "[net][retry]") {
    CHECK(should_retry(TransportError::none, 500));
    CHECK(should_retry(TransportError::none, 503));
    CHECK(should_retry(TransportError::none, 429));
    CHECK_FALSE(should_retry(TransportError::none, 501));
    CHECK_FALSE(should_retry(TransportError::none, 404));
    CHECK_FALSE(should_retry(TransportError::none, 403));
    CHECK_FALSE(should_retry(TransportError::none, 200));
    CHECK(should_retry(TransportError::connect, 0));
    CHECK(should_retry(TransportError::timeout, 0));
    CHECK(should_retry(TransportError::truncated, 0));
    CHECK_FALSE(should_retry(TransportError::tls_untrusted, 0));
    CHECK_FALSE(should_retry(TransportError::too_many_redirects, 0));
    CHECK_FALSE(should_retry(TransportError::refused_scheme, 0));
    CHECK_FALSE(should_retry(TransportError::too_large, 0));
}

TEST_CASE("backoff doubles up to 30 s and honours Retry-After", "[net][retry]") {
    const RetryPolicy policy;
    CHECK(retry_wait(policy, 0, 500, std::nullopt) == 1s);
    CHECK(retry_wait(policy, 1, 500, std::nullopt) == 2s);
    CHECK(retry_wait(policy, 4, 500, std::nullopt) == 16s);
    CHECK(retry_wait(policy, 5, 500, std::nullopt) == 30s);
    CHECK(retry_wait(policy, 40, 500, std::nullopt) == 30s);
    CHECK(retry_wait(policy, 0, 429, 3L) == 3s);
    CHECK(retry_wait(policy, 0, 503, 0L) == 0s);
    // Only 429 and 503 carry a meaningful Retry-After.
    CHECK(retry_wait(policy, 0, 500, 7L) == 1s);
    // A hostile server cannot park tfsift for an hour.
    CHECK(retry_wait(policy, 0, 429, 3600L) == 30s);
}
