// Proxy selection with the rules of Go's httpproxy package.
#include "tfsift/net/proxy.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <vector>

namespace tfsift::net {

namespace {

// An IPv4 or IPv6 address as 16 bytes (IPv4 mapped into IPv6, as Go does).
using Address = std::array<unsigned char, 16>;

std::optional<Address> parse_ip(std::string_view text) {
    const std::string s(text);
    Address out{};
    if (std::array<unsigned char, 4> v4{}; inet_pton(AF_INET, s.c_str(), v4.data()) == 1) {
        out[10] = 0xff;
        out[11] = 0xff;
        std::copy(v4.begin(), v4.end(), out.begin() + 12);
        return out;
    }
    if (inet_pton(AF_INET6, s.c_str(), out.data()) == 1) return out;
    return std::nullopt;
}

bool is_v4(const Address& a) {
    return std::all_of(a.begin(), a.begin() + 10, [](unsigned char c) { return c == 0; }) && a[10] == 0xff &&
           a[11] == 0xff;
}

bool is_loopback(const Address& a) {
    if (is_v4(a)) return a[12] == 127;
    Address one{};
    one[15] = 1;
    return a == one;
}

std::string trim_lower(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.remove_suffix(1);
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// net.SplitHostPort for "host:port" and "[v6]:port"; false without a port.
bool split_host_port(std::string_view text, std::string& host, std::string& port) {
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') return false;
        host = std::string(text.substr(1, close - 1));
        port = std::string(text.substr(close + 2));
        return true;
    }
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || text.find(':') != colon) return false;
    host = std::string(text.substr(0, colon));
    port = std::string(text.substr(colon + 1));
    return true;
}

bool cidr_contains(std::string_view cidr, const Address& ip) {
    const auto slash = cidr.find('/');
    auto network = parse_ip(cidr.substr(0, slash));
    if (!network) return false;
    int bits = 0;
    for (const char c : cidr.substr(slash + 1)) {
        if (c < '0' || c > '9') return false;
        bits = bits * 10 + (c - '0');
        if (bits > 128) return false;
    }
    if (is_v4(*network)) {
        if (bits > 32) return false;
        if (!is_v4(ip)) return false;
        bits += 96;
    }
    for (int i = 0; i < bits; ++i) {
        const auto byte = static_cast<std::size_t>(i / 8);
        const int mask = 0x80 >> (i % 8);
        if (((*network)[byte] & mask) != (ip[byte] & mask)) return false;
    }
    return true;
}

// Whether NO_PROXY exempts host:port (httpproxy's useProxy, negated).
bool excluded(const std::string& host, const std::string& port, const std::string& no_proxy) {
    const auto ip = parse_ip(host);
    std::size_t start = 0;
    while (start <= no_proxy.size()) {
        const auto comma = no_proxy.find(',', start);
        const std::string entry = trim_lower(
            std::string_view(no_proxy).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        start = comma == std::string::npos ? no_proxy.size() + 1 : comma + 1;
        if (entry.empty()) continue;
        if (entry == "*") return true;
        if (entry.find('/') != std::string::npos) {
            if (ip && cidr_contains(entry, *ip)) return true;
            continue;
        }
        std::string entry_host;
        std::string entry_port;
        if (split_host_port(entry, entry_host, entry_port)) {
            if (entry_host.empty()) continue;
        } else {
            entry_host = entry;
            entry_port.clear();
        }
        if (auto entry_ip = parse_ip(entry_host)) {
            if (ip && *ip == *entry_ip && (entry_port.empty() || entry_port == port)) return true;
            continue;
        }
        if (entry_host.rfind("*.", 0) == 0) entry_host.erase(0, 1);
        const bool match_host = entry_host.front() != '.';
        if (match_host) entry_host.insert(0, ".");
        const bool suffix = host.size() >= entry_host.size() &&
                            host.compare(host.size() - entry_host.size(), entry_host.size(), entry_host) == 0;
        if ((suffix || (match_host && host == entry_host.substr(1))) && (entry_port.empty() || entry_port == port)) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::optional<std::string> proxy_for(const Url& target, const ProxyEnvironment& env) {
    std::string proxy;
    if (target.scheme == "https") {
        proxy = env.https_proxy;
    } else if (target.scheme == "http" && !env.cgi) {
        proxy = env.http_proxy;
    }
    if (proxy.empty()) return std::nullopt;
    const std::string host = target.bare_host();
    if (host == "localhost") return std::nullopt;
    if (auto ip = parse_ip(host); ip && is_loopback(*ip)) return std::nullopt;
    std::string port = target.port;
    if (port.empty()) port = target.scheme == "http" ? "80" : "443";
    if (excluded(trim_lower(host), port, env.no_proxy)) return std::nullopt;
    if (proxy.find("://") == std::string::npos) proxy.insert(0, "http://");
    return proxy;
}

}  // namespace tfsift::net
