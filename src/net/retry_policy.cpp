// Retry decisions and backoff (go-retryablehttp's DefaultRetryPolicy and
// DefaultBackoff, with Terraform's settings).
#include "tfsift/net/retry_policy.hpp"

#include <algorithm>

namespace tfsift::net {

bool should_retry(TransportError error, long status) {
    switch (error) {
        case TransportError::none: return status == 429 || (status >= 500 && status != 501) || status == 0;
        case TransportError::too_many_redirects:
        case TransportError::refused_scheme:
        case TransportError::tls_untrusted:
        case TransportError::too_large: return false;
        default: return true;
    }
}

std::chrono::milliseconds retry_wait(const RetryPolicy& policy, int attempt, long status,
                                     std::optional<long> retry_after_seconds) {
    if ((status == 429 || status == 503) && retry_after_seconds && *retry_after_seconds >= 0) {
        return std::min<std::chrono::milliseconds>(std::chrono::seconds(*retry_after_seconds), policy.retry_after_max);
    }
    auto wait = policy.wait_min;
    for (int i = 0; i < attempt && wait < policy.wait_max; ++i) wait *= 2;
    return std::min(wait, policy.wait_max);
}

}  // namespace tfsift::net
