// URL parsing and reference resolution (RFC 3986 section 5.2), matching the
// results of Go's net/url for the URLs registries and mirrors hand out.
#include "tfsift/net/url.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace tfsift::net {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool valid_scheme(std::string_view scheme) {
    if (scheme.empty() || std::isalpha(static_cast<unsigned char>(scheme[0])) == 0) return false;
    return std::all_of(scheme.begin(), scheme.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
    });
}

// The pieces of any reference: scheme (may be empty), authority (nullopt when
// there is no "//"), path, query, fragment.
struct Reference {
    std::string scheme;
    std::optional<std::string> authority;
    std::string path;
    std::optional<std::string> query;
    std::optional<std::string> fragment;
};

std::optional<Reference> split_reference(std::string_view text) {
    if (std::any_of(text.begin(), text.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ' '; })) {
        return std::nullopt;
    }
    Reference ref;
    if (const auto hash = text.find('#'); hash != std::string_view::npos) {
        ref.fragment = std::string(text.substr(hash + 1));
        text = text.substr(0, hash);
    }
    if (const auto question = text.find('?'); question != std::string_view::npos) {
        ref.query = std::string(text.substr(question + 1));
        text = text.substr(0, question);
    }
    // A scheme ends at the first ":" that comes before any "/".
    if (const auto colon = text.find(':'); colon != std::string_view::npos && colon < text.find('/')) {
        const auto scheme = text.substr(0, colon);
        if (!valid_scheme(scheme)) return std::nullopt;
        ref.scheme = lower(scheme);
        text = text.substr(colon + 1);
    }
    if (text.substr(0, 2) == "//") {
        text = text.substr(2);
        const auto slash = text.find('/');
        ref.authority = std::string(text.substr(0, slash));
        text = slash == std::string_view::npos ? std::string_view{} : text.substr(slash);
    }
    ref.path = std::string(text);
    return ref;
}

bool parse_authority(std::string_view authority, Url& url) {
    if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
        url.userinfo = std::string(authority.substr(0, at));
        authority = authority.substr(at + 1);
    }
    std::string_view host = authority;
    std::string_view port;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return false;
        host = authority.substr(0, close + 1);
        const auto rest = authority.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') return false;
            port = rest.substr(1);
        }
    } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
    }
    if (!std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
    if (host.find_first_of("/?#@ ") != std::string_view::npos) return false;
    url.host = lower(host);
    url.port = std::string(port);
    return true;
}

// RFC 3986 5.2.4 remove_dot_segments, with Go's result shape: the path of a
// URL that has an authority always starts with "/".
std::string remove_dot_segments(std::string_view path) {
    std::vector<std::string_view> kept;
    bool trailing_slash = false;
    std::size_t start = path.empty() || path.front() != '/' ? 0 : 1;
    while (true) {
        const auto slash = path.find('/', start);
        const auto segment =
            path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        const bool last = slash == std::string_view::npos;
        if (segment == ".") {
            trailing_slash = last;
        } else if (segment == "..") {
            if (!kept.empty()) kept.pop_back();
            trailing_slash = last;
        } else {
            kept.push_back(segment);
            trailing_slash = false;
        }
        if (last) break;
        start = slash + 1;
    }
    std::string out;
    for (const auto segment : kept) {
        out += '/';
        out += segment;
    }
    if (trailing_slash || out.empty()) out += '/';
    return out;
}

std::string merge_paths(const Url& base, std::string_view reference_path) {
    if (!reference_path.empty() && reference_path.front() == '/') return remove_dot_segments(reference_path);
    std::string merged;
    if (base.path.empty()) {
        merged = "/";
    } else {
        merged = base.path.substr(0, base.path.rfind('/') + 1);
    }
    merged += reference_path;
    return remove_dot_segments(merged);
}

}  // namespace

std::string Url::authority() const { return port.empty() ? host : host + ":" + port; }

std::string Url::host_port() const {
    if (!port.empty()) return host + ":" + port;
    return host + (scheme == "http" ? ":80" : ":443");
}

std::string Url::bare_host() const {
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') return host.substr(1, host.size() - 2);
    return host;
}

std::string Url::to_string() const {
    std::string out = scheme + "://";
    if (!userinfo.empty()) out += userinfo + "@";
    out += authority();
    out += path;
    if (query) out += "?" + *query;
    if (fragment) out += "#" + *fragment;
    return out;
}

std::optional<Url> parse_absolute_url(std::string_view text) {
    auto ref = split_reference(text);
    if (!ref || ref->scheme.empty() || !ref->authority) return std::nullopt;
    Url url;
    url.scheme = ref->scheme;
    if (!parse_authority(*ref->authority, url)) return std::nullopt;
    url.path = ref->path;
    url.query = ref->query;
    url.fragment = ref->fragment;
    return url;
}

std::optional<std::string> resolve_reference(std::string_view base_text, std::string_view reference) {
    auto base = parse_absolute_url(base_text);
    auto ref = split_reference(reference);
    if (!base || !ref) return std::nullopt;
    Url target;
    if (!ref->scheme.empty() || ref->authority) {
        target.scheme = ref->scheme.empty() ? base->scheme : ref->scheme;
        if (!ref->authority) return std::nullopt;  // "https:relative" is opaque; nothing here uses it
        if (!parse_authority(*ref->authority, target)) return std::nullopt;
        target.path = ref->path.empty() ? std::string() : remove_dot_segments(ref->path);
        target.query = ref->query;
        target.fragment = ref->fragment;
        return target.to_string();
    }
    target = *base;
    target.fragment = ref->fragment;
    if (ref->path.empty()) {
        if (ref->query) {
            target.query = ref->query;
        } else if (!ref->fragment) {
            target.fragment = base->fragment;
        }
        if (!target.path.empty()) target.path = remove_dot_segments(target.path);
        return target.to_string();
    }
    target.path = merge_paths(*base, ref->path);
    target.query = ref->query;
    return target.to_string();
}

std::string redacted_url(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t from = 0;
    while (true) {
        const std::size_t mark = text.find("://", from);
        if (mark == std::string_view::npos) break;
        const std::size_t start = mark + 3;
        // The authority ends at the first "/", "?", "#" or white space; its
        // user information at its last "@".
        std::size_t end = start;
        while (end < text.size() && std::string_view("/?#").find(text[end]) == std::string_view::npos &&
               std::isspace(static_cast<unsigned char>(text[end])) == 0 && text[end] != '"') {
            ++end;
        }
        const std::string_view authority = text.substr(start, end - start);
        const std::size_t at = authority.rfind('@');
        const std::size_t colon = at == std::string_view::npos ? at : authority.substr(0, at).find(':');
        out.append(text.substr(from, start - from));
        if (colon != std::string_view::npos) {
            out.append(authority.substr(0, colon));
            out += ":xxxxx";
            out.append(authority.substr(at));
        } else {
            out.append(authority);
        }
        from = end;
    }
    out.append(text.substr(from));
    return out;
}

std::string escape_path_segment(std::string_view segment) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : segment) {
        const auto c = static_cast<unsigned char>(ch);
        const bool plain =
            std::isalnum(c) != 0 || std::string_view("-._~!$&'()*+,;=:@").find(ch) != std::string_view::npos;
        if (plain) {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
    return out;
}

}  // namespace tfsift::net
