// The one HTTP client of tfsift: libcurl underneath, configured the way
// Terraform's Go clients behave (spec online-installer 1-2). HTTPS only
// (a network mirror or registry may not send tfsift to plain HTTP, not even
// through a redirect), certificates from SSL_CERT_FILE / SSL_CERT_DIR as Go
// reads them, proxies by Go's rules, per-purpose timeouts and redirect
// limits, byte caps enforced while the body arrives, retries for API calls,
// and errors sorted into classes callers can word for the user. A bearer
// token goes only to the request URL's own host and port; libcurl drops it
// on a redirect elsewhere. One client per thread: it owns a curl handle.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfsift/net/proxy.hpp"
#include "tfsift/net/retry_policy.hpp"
#include "tfsift/providers/package_sources.hpp"

namespace tfsift::net {

// Everything the environment decides about networking.
struct NetworkSettings {
    std::string ca_file;  // SSL_CERT_FILE
    std::string ca_path;  // SSL_CERT_DIR
    ProxyEnvironment proxies;
    std::string user_agent = "tfsift/" TFSIFT_VERSION;
    std::chrono::seconds api_timeout{10};  // TF_REGISTRY_CLIENT_TIMEOUT
    int retry_max = 1;                     // TF_REGISTRY_DISCOVERY_RETRY
    std::string netrc_file;                // NETRC; empty: libcurl's ~/.netrc
    std::vector<std::string> warnings;     // ignored values, said once
};

// Reads the variables above (invalid numbers are ignored with a warning,
// as Terraform logs them).
[[nodiscard]] NetworkSettings network_settings_from(const providers::Environment& env);

// A download slower than this, on average over TF_REGISTRY_CLIENT_TIMEOUT
// seconds (api_timeout), is abandoned as stalled: a server that trickles
// an endless body cannot hold `tfsift lock` without bound.
inline constexpr std::uint64_t min_download_rate = 1024;  // bytes per second

// What a request is for; it decides timeouts, redirect limit, retries and
// whether ~/.netrc applies.
enum class Purpose : unsigned char {
    discovery,  // 11 s in all, 3 redirects, no retries
    api,        // registry API, SHA256SUMS, signature: per-attempt timeout, 10 redirects, retries
    mirror,     // network mirror JSON: per-attempt timeout, 5 redirects, retries
    download,   // package zip: no overall timeout, min_download_rate, 10 redirects, netrc, no retries
};

struct HttpRequest {
    std::string url;
    Purpose purpose = Purpose::api;
    std::vector<std::string> headers;  // "Name: value"
    std::string bearer_token;          // empty: no Authorization header
    std::uint64_t max_bytes = 1U << 20;
    std::filesystem::path sink;  // write the body here (truncated first); empty: keep it in memory
    // Called now and then while the body arrives with (bytes so far, bytes
    // announced or 0); for progress displays. May be empty.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

struct HttpResponse {
    long status = 0;
    std::string status_text;  // Go's resp.Status, e.g. "404 Not Found"
    std::string content_type;
    std::string effective_url;  // after redirects
    std::string body;           // when no sink was given
    // The final response's header fields, names lower-cased, values trimmed,
    // in the order received (the module protocols read X-Terraform-Get).
    std::vector<std::pair<std::string, std::string>> headers;
    std::uint64_t bytes = 0;
    TransportError error = TransportError::none;
    std::string error_message;  // names the host; never holds a credential
    int attempts = 0;

    [[nodiscard]] bool transport_ok() const { return error == TransportError::none; }
    // The first value of header `name` (lower case), if the response had it.
    [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
};

// Set from a signal handler: running transfers stop at their next callback
// and no new attempt starts.
void request_cancel();
[[nodiscard]] bool cancel_requested();

// "Not Found" for 404 and so on (Go's http.StatusText); empty when unknown.
[[nodiscard]] std::string_view status_reason(long status);

class HttpClient {
public:
    explicit HttpClient(NetworkSettings settings);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // One request, retried per the purpose's policy. When retries run out
    // the message says how many attempts were made, as Terraform does.
    [[nodiscard]] HttpResponse fetch(const HttpRequest& request);

    [[nodiscard]] const NetworkSettings& settings() const { return settings_; }
    // Requests sent so far, attempts counted one by one.
    [[nodiscard]] std::uint64_t attempts_made() const { return attempts_; }

private:
    HttpResponse attempt(const HttpRequest& request);

    NetworkSettings settings_;
    void* curl_ = nullptr;  // CURL*
    std::uint64_t attempts_ = 0;
    std::optional<long> retry_after_;  // of the last attempt
};

}  // namespace tfsift::net
