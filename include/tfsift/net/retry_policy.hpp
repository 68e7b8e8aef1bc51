// When a registry or mirror request is tried again, and how long to wait
// first: the rules of go-retryablehttp as Terraform configures it (spec
// online-installer 1.2). Pure; the HTTP client applies them.
#pragma once

#include <chrono>
#include <optional>

namespace tfsift::net {

// What went wrong with one attempt, as far as retrying cares.
enum class TransportError : unsigned char {
    none,                // a response arrived (look at its status)
    connect,             // refused, unreachable, name not resolved
    tls_untrusted,       // the server's certificate chain is not trusted
    tls,                 // another TLS failure
    timeout,             // the per-attempt time ran out
    stalled,             // no bytes for too long
    too_large,           // the body passed the request's cap
    truncated,           // the body ended before its announced length
    too_many_redirects,  // the redirect limit was reached
    refused_scheme,      // a URL or redirect to a scheme the request may not use
    other,
};

struct RetryPolicy {
    int retry_max = 1;  // TF_REGISTRY_DISCOVERY_RETRY (values > 0 only)
    std::chrono::milliseconds wait_min{1000};
    std::chrono::milliseconds wait_max{30000};
    std::chrono::milliseconds retry_after_max{30000};  // a server cannot make tfsift wait longer
};

// Whether an attempt that ended this way is tried again: transport errors
// except redirect limits, refused schemes, certificate failures and caps;
// 429; 5xx except 501.
[[nodiscard]] bool should_retry(TransportError error, long status);

// The wait before retry number `attempt` (0 for the first retry):
// min * 2^attempt capped at max, or the Retry-After seconds of a 429/503.
[[nodiscard]] std::chrono::milliseconds retry_wait(const RetryPolicy& policy, int attempt, long status,
                                                   std::optional<long> retry_after_seconds);

}  // namespace tfsift::net
