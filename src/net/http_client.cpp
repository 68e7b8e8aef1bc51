// libcurl behind tfsift::net::HttpClient. libcurl does the HTTP and TLS;
// this file decides what it may do (schemes, limits, proxies, trust
// anchors) and turns its result codes into the error classes callers word.
#include "tfsift/net/http_client.hpp"

#include <fmt/format.h>
#include "tfsift/lazy/curl.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace tfsift::net {

namespace {

std::atomic<bool> g_cancel{false};

void global_init() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (libcurl::global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw std::runtime_error("libcurl could not start");
    });
}

std::optional<long> positive_integer(const std::string& text) {
    if (text.empty() || text.size() > 9) return std::nullopt;
    long value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

// Per-transfer state the callbacks share.
struct Transfer {
    const HttpRequest* request = nullptr;
    std::string* body = nullptr;
    std::FILE* file = nullptr;
    std::uint64_t bytes = 0;
    bool over_cap = false;
    bool write_failed = false;
    std::optional<long> retry_after;
    std::string location;                                      // of the last response
    std::vector<std::pair<std::string, std::string>> headers;  // of the last response
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
    auto& t = *static_cast<Transfer*>(user);
    const std::size_t n = size * count;
    if (t.bytes + n > t.request->max_bytes) {
        t.over_cap = true;
        return 0;
    }
    if (t.file != nullptr) {
        if (std::fwrite(data, 1, n, t.file) != n) {
            t.write_failed = true;
            return 0;
        }
    } else {
        t.body->append(data, n);
    }
    t.bytes += n;
    return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
    auto& t = *static_cast<Transfer*>(user);
    const std::size_t n = size * count;
    std::string_view line(data, n);
    if (line.substr(0, 5) == "HTTP/") {
        t.retry_after.reset();  // a new response (after a redirect or 100-continue)
        t.location.clear();
        t.headers.clear();
        return n;
    }
    if (auto colon = line.find(':'); colon != std::string_view::npos && colon > 0 && t.headers.size() < 200) {
        std::string field(line.substr(0, colon));
        std::transform(field.begin(), field.end(), field.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())) != 0) value.remove_prefix(1);
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())) != 0) value.remove_suffix(1);
        t.headers.emplace_back(std::move(field), std::string(value));
    }
    constexpr std::string_view location = "location:";
    if (line.size() > location.size() && std::equal(location.begin(), location.end(), line.begin(), [](char a, char b) {
            return a == std::tolower(static_cast<unsigned char>(b));
        })) {
        std::string value(line.substr(location.size()));
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())) != 0) value.pop_back();
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())) != 0) value.erase(0, 1);
        t.location = value;
        return n;
    }
    constexpr std::string_view name = "retry-after:";
    if (line.size() > name.size()) {
        bool match = true;
        for (std::size_t i = 0; i < name.size() && match; ++i) {
            match = static_cast<char>(std::tolower(static_cast<unsigned char>(line[i]))) == name[i];
        }
        if (match) {
            std::string value(line.substr(name.size()));
            while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())) != 0) value.pop_back();
            while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())) != 0) value.erase(0, 1);
            t.retry_after = positive_integer(value);
        }
    }
    return n;
}

int on_progress(void* user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t /*ultotal*/, curl_off_t /*ulnow*/) {
    const auto* request = static_cast<const HttpRequest*>(user);
    if (request->progress && dlnow >= 0) {
        request->progress(static_cast<std::uint64_t>(dlnow), dltotal > 0 ? static_cast<std::uint64_t>(dltotal) : 0);
    }
    return g_cancel.load() ? 1 : 0;
}

long redirect_limit(Purpose purpose) {
    switch (purpose) {
        case Purpose::discovery: return 3;
        case Purpose::mirror: return 5;
        default: return 10;
    }
}

std::string host_of(const std::string& url) {
    auto parsed = parse_absolute_url(url);
    return parsed ? parsed->authority() : url;
}

}  // namespace

std::optional<std::string> HttpResponse::header(std::string_view name) const {
    for (const auto& [field, value] : headers) {
        if (field == name) return value;
    }
    return std::nullopt;
}

void request_cancel() { g_cancel.store(true); }
bool cancel_requested() { return g_cancel.load(); }

std::string_view status_reason(long status) {
    switch (status) {
        case 200: return "OK";
        case 201: return "Created";
        case 202: return "Accepted";
        case 204: return "No Content";
        case 206: return "Partial Content";
        case 301: return "Moved Permanently";
        case 302: return "Found";
        case 303: return "See Other";
        case 304: return "Not Modified";
        case 307: return "Temporary Redirect";
        case 308: return "Permanent Redirect";
        case 400: return "Bad Request";
        case 401: return "Unauthorized";
        case 403: return "Forbidden";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 406: return "Not Acceptable";
        case 408: return "Request Timeout";
        case 410: return "Gone";
        case 413: return "Request Entity Too Large";
        case 418: return "I'm a teapot";
        case 429: return "Too Many Requests";
        case 500: return "Internal Server Error";
        case 501: return "Not Implemented";
        case 502: return "Bad Gateway";
        case 503: return "Service Unavailable";
        case 504: return "Gateway Timeout";
        default: return "";
    }
}

NetworkSettings network_settings_from(const providers::Environment& env) {
    NetworkSettings s;
    auto get = [&](std::string_view name) { return env(name).value_or(""); };
    s.ca_file = get("SSL_CERT_FILE");
    s.ca_path = get("SSL_CERT_DIR");
    auto either = [&](std::string_view upper, std::string_view lower) {
        auto value = get(upper);
        return value.empty() ? get(lower) : value;
    };
    s.proxies.https_proxy = either("HTTPS_PROXY", "https_proxy");
    s.proxies.http_proxy = either("HTTP_PROXY", "http_proxy");
    s.proxies.no_proxy = either("NO_PROXY", "no_proxy");
    s.proxies.cgi = !get("REQUEST_METHOD").empty();
    s.netrc_file = get("NETRC");
    if (auto timeout = get("TF_REGISTRY_CLIENT_TIMEOUT"); !timeout.empty()) {
        auto seconds = positive_integer(timeout);
        if (seconds && *seconds > 0) {
            s.api_timeout = std::chrono::seconds(*seconds);
        } else {
            s.warnings.push_back(
                fmt::format("TF_REGISTRY_CLIENT_TIMEOUT=\"{}\" is not a positive number of seconds; "
                            "using 10",
                            timeout));
        }
    }
    if (auto retries = get("TF_REGISTRY_DISCOVERY_RETRY"); !retries.empty()) {
        auto count = positive_integer(retries);
        if (count && *count > 0) {
            s.retry_max = static_cast<int>(std::min(*count, 100L));
        } else {
            s.warnings.push_back(
                fmt::format("TF_REGISTRY_DISCOVERY_RETRY=\"{}\" is not a positive number; using 1", retries));
        }
    }
    return s;
}

HttpClient::HttpClient(NetworkSettings settings) : settings_(std::move(settings)) {
    global_init();
    curl_ = libcurl::easy_init();
    if (curl_ == nullptr) throw std::runtime_error("libcurl could not create a transfer handle");
}

HttpClient::~HttpClient() { libcurl::easy_cleanup(static_cast<CURL*>(curl_)); }

HttpResponse HttpClient::attempt(const HttpRequest& request) {
    auto* curl = static_cast<CURL*>(curl_);
    libcurl::easy_reset(curl);
    HttpResponse response;
    const std::string host = host_of(request.url);
    auto target = parse_absolute_url(request.url);
    if (!target || target->scheme != "https") {
        response.error = TransportError::refused_scheme;
        response.error_message =
            fmt::format("refused to request \"{}\": only https URLs are allowed", redacted_url(request.url));
        return response;
    }
    ++attempts_;

    Transfer transfer;
    transfer.request = &request;
    transfer.body = &response.body;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
    if (!request.sink.empty()) {
        file.reset(std::fopen(request.sink.c_str(), "wb"));
        if (!file) {
            response.error = TransportError::other;
            response.error_message = fmt::format("cannot write {}", request.sink.string());
            return response;
        }
        transfer.file = file.get();
    }

    std::array<char, CURL_ERROR_SIZE> error_buffer{};
    curl_slist* headers = nullptr;
    for (const auto& h : request.headers) headers = libcurl::slist_append(headers, h.c_str());
    std::string authorization;
    if (!request.bearer_token.empty()) {
        authorization = "Authorization: Bearer " + request.bearer_token;
        headers = libcurl::slist_append(headers, authorization.c_str());
    }
    const std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_guard(
        headers, [](curl_slist* list) { libcurl::slist_free_all(list); });

    libcurl::easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    libcurl::easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer.data());
    libcurl::easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    libcurl::easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https");
    libcurl::easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "https");
    libcurl::easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    libcurl::easy_setopt(curl, CURLOPT_MAXREDIRS, redirect_limit(request.purpose));
    libcurl::easy_setopt(curl, CURLOPT_UNRESTRICTED_AUTH, 0L);
    libcurl::easy_setopt(curl, CURLOPT_USERAGENT, settings_.user_agent.c_str());
    libcurl::easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    libcurl::easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    libcurl::easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
    libcurl::easy_setopt(curl, CURLOPT_WRITEFUNCTION, &on_body);
    libcurl::easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    libcurl::easy_setopt(curl, CURLOPT_HEADERFUNCTION, &on_header);
    libcurl::easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
    libcurl::easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    libcurl::easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &on_progress);
    libcurl::easy_setopt(curl, CURLOPT_XFERINFODATA, &request);
    libcurl::easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(request.max_bytes));
    if (!settings_.ca_file.empty()) libcurl::easy_setopt(curl, CURLOPT_CAINFO, settings_.ca_file.c_str());
    if (!settings_.ca_path.empty()) libcurl::easy_setopt(curl, CURLOPT_CAPATH, settings_.ca_path.c_str());
    // Go's proxy rules, computed here; "" stops libcurl reading the variables itself.
    const auto proxy = proxy_for(*target, settings_.proxies);
    libcurl::easy_setopt(curl, CURLOPT_PROXY, proxy ? proxy->c_str() : "");
    const long timeout_ms = static_cast<long>(std::chrono::milliseconds(settings_.api_timeout).count());
    switch (request.purpose) {
        case Purpose::discovery: libcurl::easy_setopt(curl, CURLOPT_TIMEOUT_MS, 11000L); break;
        case Purpose::api:
        case Purpose::mirror: libcurl::easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms); break;
        case Purpose::download:
            libcurl::easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, static_cast<long>(min_download_rate));
            libcurl::easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(settings_.api_timeout.count()));
            libcurl::easy_setopt(curl, CURLOPT_NETRC, static_cast<long>(CURL_NETRC_OPTIONAL));
            if (!settings_.netrc_file.empty())
                libcurl::easy_setopt(curl, CURLOPT_NETRC_FILE, settings_.netrc_file.c_str());
            break;
    }

    const CURLcode rc = libcurl::easy_perform(curl);
    file.reset();
    response.bytes = transfer.bytes;
    response.headers = std::move(transfer.headers);
    char* effective = nullptr;
    libcurl::easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective);
    response.effective_url = effective != nullptr ? effective : request.url;
    libcurl::easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    char* content_type = nullptr;
    libcurl::easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &content_type);
    if (content_type != nullptr) response.content_type = content_type;
    response.status_text = fmt::format("{} {}", response.status, status_reason(response.status));
    if (response.status_text.back() == ' ') response.status_text.pop_back();
    retry_after_ = transfer.retry_after;
    const std::string detail = error_buffer[0] != '\0' ? std::string(error_buffer.data()) : libcurl::easy_strerror(rc);
    const std::string where = host_of(response.effective_url);

    switch (rc) {
        case CURLE_OK: return response;
        case CURLE_WRITE_ERROR:
        case CURLE_FILESIZE_EXCEEDED:
            if (transfer.write_failed) {
                response.error = TransportError::other;
                response.error_message = fmt::format("cannot write {}", request.sink.string());
            } else {
                response.error = TransportError::too_large;
                response.error_message =
                    fmt::format("the response from {} is larger than the limit of {} bytes", where, request.max_bytes);
            }
            return response;
        case CURLE_ABORTED_BY_CALLBACK:
            response.error = TransportError::other;
            response.error_message = "interrupted";
            return response;
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_COULDNT_CONNECT:
            response.error = TransportError::connect;
            response.error_message = fmt::format("could not connect to {}: {}", where, detail);
            return response;
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CACERT_BADFILE:
            response.error = TransportError::tls_untrusted;
            response.error_message = fmt::format(
                "the TLS certificate of {} is not trusted ({}); tfsift trusts the CA certificates named by "
                "SSL_CERT_FILE and SSL_CERT_DIR, else the system's",
                where, detail);
            return response;
        case CURLE_SSL_CONNECT_ERROR:
            response.error = TransportError::tls;
            response.error_message = fmt::format("TLS handshake with {} failed: {}", where, detail);
            return response;
        case CURLE_OPERATION_TIMEDOUT:
            if (request.purpose == Purpose::download && transfer.bytes > 0) {
                response.error = TransportError::stalled;
                response.error_message =
                    fmt::format("the download from {} stalled: slower than {} bytes/s for {} seconds", where,
                                min_download_rate, settings_.api_timeout.count());
            } else if (request.purpose == Purpose::download) {
                response.error = TransportError::stalled;
                response.error_message =
                    fmt::format("no data from {} for {} seconds", where, settings_.api_timeout.count());
            } else {
                response.error = TransportError::timeout;
                response.error_message =
                    fmt::format("the request to {} timed out after {} seconds (timeout)", where,
                                request.purpose == Purpose::discovery ? 11 : settings_.api_timeout.count());
            }
            return response;
        case CURLE_PARTIAL_FILE: {
            curl_off_t expected = -1;
            libcurl::easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected);
            response.error = TransportError::truncated;
            response.error_message =
                expected >= 0 ? fmt::format("the response from {} ended early: expected {} bytes, but got {} bytes",
                                            where, expected, transfer.bytes)
                              : fmt::format("the response from {} ended early after {} bytes", where, transfer.bytes);
            return response;
        }
        case CURLE_TOO_MANY_REDIRECTS:
            response.error = TransportError::too_many_redirects;
            response.error_message =
                fmt::format("stopped after {} redirects from {}", redirect_limit(request.purpose), host);
            return response;
        case CURLE_UNSUPPORTED_PROTOCOL: {
            const std::string next =
                resolve_reference(response.effective_url, transfer.location).value_or(transfer.location);
            response.error = TransportError::refused_scheme;
            response.error_message =
                fmt::format("{} redirected to \"{}\"; only https URLs are allowed", where, redacted_url(next));
            return response;
        }
        default:
            response.error =
                rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING ? TransportError::truncated : TransportError::other;
            response.error_message = fmt::format("request to {} failed: {}", where, detail);
            return response;
    }
}

HttpResponse HttpClient::fetch(const HttpRequest& request) {
    const bool retries = request.purpose == Purpose::api || request.purpose == Purpose::mirror;
    RetryPolicy policy;
    policy.retry_max = settings_.retry_max;
    HttpResponse response;
    for (int attempt = 0;; ++attempt) {
        if (cancel_requested()) {
            response = HttpResponse{};
            response.error = TransportError::other;
            response.error_message = "interrupted";
            response.attempts = attempt;
            return response;
        }
        response = this->attempt(request);
        response.attempts = attempt + 1;
        if (!retries || !should_retry(response.error, response.transport_ok() ? response.status : 0) ||
            (response.transport_ok() && response.status < 500 && response.status != 429)) {
            return response;
        }
        if (attempt >= policy.retry_max) break;
        const auto wait = retry_wait(policy, attempt, response.status, retry_after_);
        const auto until = std::chrono::steady_clock::now() + wait;
        while (std::chrono::steady_clock::now() < until && !cancel_requested()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    // Retries exhausted: Terraform's wording, with the attempt count.
    const int tries = response.attempts;
    const std::string detail = response.transport_ok() ? fmt::format(": {} returned from {}", response.status_text,
                                                                     host_of(response.effective_url))
                                                       : fmt::format(": {}", response.error_message);
    if (response.transport_ok()) response.error = TransportError::other;
    response.error_message =
        tries > 1 ? fmt::format("the request failed after {} attempts, please try again later{}", tries, detail)
                  : fmt::format("the request failed, please try again later{}", detail);
    return response;
}

}  // namespace tfsift::net
