// Which proxy a request goes through, by Go's rules (http.ProxyFromEnvironment,
// golang.org/x/net/http/httpproxy): HTTPS_PROXY / https_proxy for https URLs,
// HTTP_PROXY / http_proxy for http URLs (ignored under CGI, when
// REQUEST_METHOD is set), NO_PROXY / no_proxy exclusions, and "localhost" or
// a loopback address never proxied. libcurl's own rules differ (it proxies
// 127.0.0.1), so tfsift computes the answer itself. Pure.
#pragma once

#include <optional>
#include <string>

#include "tfsift/net/url.hpp"

namespace tfsift::net {

struct ProxyEnvironment {
    std::string https_proxy;
    std::string http_proxy;
    std::string no_proxy;
    bool cgi = false;  // REQUEST_METHOD is set
};

// The proxy URL for a request to `target`, or nullopt to connect directly.
// A proxy given without a scheme gets "http://", as Go does.
[[nodiscard]] std::optional<std::string> proxy_for(const Url& target, const ProxyEnvironment& env);

}  // namespace tfsift::net
