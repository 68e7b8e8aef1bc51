#include "tfsift/config/sources.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/core.h>

#include "tfsift/config/paths.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (true) {
        std::size_t j = s.find(sep, i);
        if (j == std::string_view::npos) {
            out.push_back(s.substr(i));
            return out;
        }
        out.push_back(s.substr(i, j - i));
        i = j + 1;
    }
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

constexpr std::string_view default_registry = "registry.terraform.io";

// go-getter's SourceDirSubdir: "pkg//sub?q" -> ("pkg?q", "sub").
std::pair<std::string, std::string> split_subdir(std::string_view src) {
    std::size_t stop = src.find('?');
    if (stop == std::string_view::npos) stop = src.size();
    std::size_t offset = 0;
    if (auto i = src.substr(0, stop).find("://"); i != std::string_view::npos) offset = i + 3;
    auto idx = src.substr(offset, stop - offset).find("//");
    if (idx == std::string_view::npos) return {std::string(src), ""};
    idx += offset;
    std::string subdir(src.substr(idx + 2));
    std::string pkg(src.substr(0, idx));
    if (auto q = subdir.find('?'); q != std::string::npos) {
        pkg += subdir.substr(q);
        subdir.resize(q);
    }
    return {pkg, subdir};
}

bool is_local(std::string_view s) {
    return s.starts_with("./") || s.starts_with("../") || s.starts_with(".\\") || s.starts_with("..\\");
}

bool registry_name_ok(std::string_view s) {
    if (s.empty() || s.size() > 64) return false;
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    if (!alnum(s.front()) || !alnum(s.back())) return false;
    return std::all_of(s.begin(), s.end(), [&](char c) { return alnum(c) || c == '-' || c == '_'; });
}

bool target_system_ok(std::string_view s) {
    if (s.empty() || s.size() > 64) return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'z'); });
}

// svchost.ForComparison accepting the name: DNS labels of letters, digits
// and inner dashes (an optional :port after the last one).
bool hostname_ok(std::string_view h) {
    if (auto colon = h.rfind(':'); colon != std::string_view::npos) h = h.substr(0, colon);
    if (h.empty()) return false;
    for (auto label : split(h, '.')) {
        if (label.empty() || label.front() == '-' || label.back() == '-') return false;
        for (char c : label) {
            auto u = static_cast<unsigned char>(c);
            if (!(std::isalnum(u) || c == '-' || u >= 0x80)) return false;
        }
    }
    return true;
}

ModuleSourceResult parse_registry(std::string_view raw) {
    ModuleSourceResult r;
    r.kind = ModuleSourceKind::registry;
    if (is_local(raw)) {
        r.error = fmt::format("can't use local directory \"{}\" as a module registry address", raw);
        return r;
    }
    auto [pkg, subdir] = split_subdir(raw);
    if (subdir.starts_with("../")) {
        r.error = fmt::format("subdirectory path \"{}\" leads outside of the module package", subdir);
        return r;
    }
    auto parts = split(pkg, '/');
    if (parts.size() != 3 && parts.size() != 4) {
        r.error = "a module registry source address must have either three or four slash-separated components";
        return r;
    }
    std::string host(default_registry);
    if (parts.size() == 4) {
        if (!hostname_ok(parts[0])) {
            r.error = parts[0].find("--") != std::string_view::npos
                          ? fmt::format(
                                "invalid module registry hostname \"{}\"; internationalized domain names must "
                                "be given as direct unicode characters, not in punycode",
                                parts[0])
                          : fmt::format("invalid module registry hostname \"{}\"", parts[0]);
            return r;
        }
        host = lower(parts[0]);
        if (host.find('.') == std::string::npos) {
            r.error = "invalid module registry hostname: must contain at least one dot";
            return r;
        }
        parts.erase(parts.begin());
    }
    if (host == "github.com" || host == "bitbucket.org") {
        r.error = fmt::format(
            "can't use \"{}\" as a module registry host, because it's reserved for installing directly "
            "from version control repositories",
            host);
        return r;
    }
    if (!registry_name_ok(parts[0])) {
        r.error =
            parts[0].find('.') != std::string_view::npos
                ? "source address must have three more components after the hostname: the namespace, the name, and the target system"
                : fmt::format("invalid namespace \"{}\"", parts[0]);
        return r;
    }
    if (!registry_name_ok(parts[1])) {
        r.error = fmt::format("invalid module name \"{}\"", parts[1]);
        return r;
    }
    if (!target_system_ok(parts[2])) {
        r.error = parts[2].find('?') != std::string_view::npos
                      ? "module registry addresses may not include a query string portion"
                      : fmt::format("invalid target system \"{}\"", parts[2]);
        return r;
    }
    // Joined by hand: every registry module call comes here.
    r.normalized.reserve(host.size() + parts[0].size() + parts[1].size() + parts[2].size() + subdir.size() + 5);
    r.normalized.append(host).append(1, '/').append(parts[0]).append(1, '/').append(parts[1]).append(1, '/');
    r.normalized.append(parts[2]);
    if (!subdir.empty()) r.normalized.append("//").append(subdir);
    return r;
}

// Go's url.Parse finding a scheme: [A-Za-z][A-Za-z0-9+.-]* followed by ':'.
bool has_url_scheme(std::string_view s) {
    if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
    for (std::size_t i = 1; i < s.size(); ++i) {
        char c = s[i];
        if (c == ':') return true;
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.')) return false;
    }
    return false;
}

// go-getter's forced getter prefix "NAME::".
std::pair<std::string, std::string> forced_getter(std::string_view s) {
    auto i = s.find("::");
    if (i == std::string_view::npos || i == 0) return {"", std::string(s)};
    for (std::size_t k = 0; k < i; ++k) {
        if (!std::isalnum(static_cast<unsigned char>(s[k]))) return {"", std::string(s)};
    }
    return {std::string(s.substr(0, i)), std::string(s.substr(i + 2))};
}

// The detectors Terraform gives go-getter: GitHub, git over SSH, S3, GCS and
// the file detector (which only accepts absolute paths).
bool detect(const std::string& src, std::string& out, ModuleSourceResult& r) {
    if (src.starts_with("github.com/")) {
        auto parts = split(src, '/');
        if (parts.size() < 3) {
            r.error = "GitHub URLs should be github.com/username/repo";
            return false;
        }
        std::string repo = fmt::format("{}/{}/{}", parts[0], parts[1], parts[2]);
        std::string query;
        if (auto q = repo.find('?'); q != std::string::npos) {
            query = repo.substr(q);
            repo.resize(q);
        }
        if (!repo.ends_with(".git")) repo += ".git";
        std::string path = repo;
        if (parts.size() > 3) {
            path += "/";
            for (std::size_t i = 3; i < parts.size(); ++i) {
                path += "/";
                path += parts[i];
            }
        }
        out = "git::https://" + path + query;
        return true;
    }
    if (src.starts_with("git@")) {
        // [user@]host:path -> ssh://user@host/path
        auto at = src.find('@');
        auto colon = src.find(':', at);
        if (colon == std::string::npos) {
            r.error = fmt::format("invalid source string: {}", src);
            return false;
        }
        std::string user = src.substr(0, at);
        std::string host = src.substr(at + 1, colon - at - 1);
        std::string path = src.substr(colon + 1);
        if (path.starts_with("/")) path.erase(0, 1);
        out = fmt::format("git::ssh://{}@{}/{}", user, host, path);
        return true;
    }
    if (src.starts_with("bitbucket.org/")) {
        out = "git::https://" + src;
        return true;
    }
    if (src.find(".amazonaws.com/") != std::string::npos) {
        out = "s3::https://" + src;
        return true;
    }
    if (src.starts_with("www.googleapis.com/storage/")) {
        out = "gcs::https://" + src;
        return true;
    }
    if (src.starts_with("/")) {
        out = "file://" + src;
        return true;
    }
    r.maybe_relative = true;
    r.error = fmt::format(
        "Terraform failed to determine your intended installation method for remote module package "
        "\"{}\".\n\nIf you intended this as a path relative to the current module, use \"./{}\" "
        "instead. The \"./\" prefix indicates that the address is a relative filesystem path.",
        src, src);
    return false;
}

ModuleSourceResult parse_remote(std::string_view raw) {
    ModuleSourceResult r;
    r.kind = ModuleSourceKind::remote;
    auto [pkg_raw, subdir] = split_subdir(raw);
    if (subdir.starts_with("../")) {
        r.error = fmt::format("subdirectory path \"{}\" leads outside of the module package", subdir);
        return r;
    }
    // getter.Detect
    auto [force, get_src] = forced_getter(pkg_raw);
    auto [src_no_sub, sub2] = split_subdir(get_src);
    std::string detected;
    if (has_url_scheme(src_no_sub)) {
        detected = pkg_raw;
    } else {
        std::string result;
        if (!detect(src_no_sub, result, r)) return r;
        auto [dforce, rest] = forced_getter(result);
        auto [res, dsub] = split_subdir(rest);
        std::string sub = sub2;
        if (!dsub.empty()) sub = sub.empty() ? dsub : dsub + "/" + sub;
        if (!sub.empty()) {
            auto q = res.find('?');
            if (q == std::string::npos) {
                res += "//" + sub;
            } else {
                res = res.substr(0, q) + "//" + sub + res.substr(q);
            }
        }
        if (!force.empty()) {
            detected = force + "::" + res;
        } else if (!dforce.empty()) {
            detected = dforce + "::" + res;
        } else {
            detected = res;
        }
    }
    auto [norm, more_sub] = split_subdir(detected);
    if (!more_sub.empty()) {
        subdir = subdir.empty() ? clean_path(more_sub) : clean_path(more_sub + "/" + subdir);
        if (subdir.starts_with("../")) {
            r.error =
                fmt::format("package refers to a subdirectory at \"{}\", which is outside of the package", subdir);
            return r;
        }
    }
    r.normalized = norm;
    if (!subdir.empty()) r.normalized += "//" + subdir;
    return r;
}

}  // namespace

bool parse_provider_part(std::string_view given, std::string& out, std::string& error) {
    if (given.empty()) {
        error = "must have at least one character";
        return false;
    }
    if (given.find("--") != std::string_view::npos) {
        error = "cannot use multiple consecutive dashes";
        return false;
    }
    bool ok = given.front() != '-' && given.back() != '-';
    for (char c : given) {
        auto u = static_cast<unsigned char>(c);
        if (!(std::isalnum(u) || c == '-' || u >= 0x80)) ok = false;
    }
    if (!ok) {
        error = "must contain only letters, digits, and dashes, and may not use leading or trailing dashes";
        return false;
    }
    out = lower(given);
    return true;
}

ProviderSourceResult parse_provider_source(std::string_view str) {
    ProviderSourceResult r;
    auto fail = [&](std::string_view code, std::string summary, std::string detail) {
        r.code = code;
        r.summary = std::move(summary);
        r.detail = std::move(detail);
        r.fqn.clear();
        return r;
    };
    auto parts = split(str, '/');
    const char* format_detail = "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\"";
    if (parts.size() > 3)
        return fail(code::invalid_provider_source_string, "Invalid provider source string", format_detail);
    for (auto p : parts) {
        if (p.empty())
            return fail(code::invalid_provider_source_string, "Invalid provider source string", format_detail);
    }
    std::string type;
    std::string err;
    std::string_view given_name = parts.back();
    if (!parse_provider_part(given_name, type, err)) {
        return fail(code::invalid_provider_type, "Invalid provider type",
                    fmt::format("Invalid provider type \"{}\" in source \"{}\": {}\"", given_name, str, err));
    }
    std::string host(default_registry);
    std::string ns = "hashicorp";
    if (parts.size() >= 2) {
        std::string_view given_ns = parts[parts.size() - 2];
        if (given_ns == "-") {
            ns = "-";
        } else if (!parse_provider_part(given_ns, ns, err)) {
            return fail(code::invalid_provider_namespace, "Invalid provider namespace",
                        fmt::format("Invalid provider namespace \"{}\" in source \"{}\": {}\"", given_ns, str, err));
        }
    }
    if (parts.size() == 3) {
        if (!hostname_ok(parts[0])) {
            return fail(
                code::invalid_provider_source_hostname, "Invalid provider source hostname",
                fmt::format("Invalid provider source hostname namespace \"{}\" in source \"{}\"", parts[0], str));
        }
        host = lower(parts[0]);
    }
    if (parts.size() == 1 && type == "terraform") {
        r.fqn = "terraform.io/builtin/terraform";
        return r;
    }
    // Joined by hand: every required provider's source comes here.
    r.fqn.reserve(host.size() + ns.size() + type.size() + 2);
    r.fqn.append(host).append(1, '/').append(ns).append(1, '/').append(type);
    if (type.starts_with("terraform-provider-")) {
        const bool display_host = host != default_registry;
        const std::string display = display_host ? r.fqn : fmt::format("{}/{}", ns, type);
        std::string suggested = display_host ? fmt::format("{}/{}/{}", host, ns, type.substr(19))
                                             : fmt::format("{}/{}", ns, type.substr(19));
        return fail(
            code::invalid_provider_type, "Invalid provider type",
            fmt::format("Provider source \"{}\" has a type with the prefix \"terraform-provider-\", which isn't "
                        "valid. Although that prefix is often used in the names of version control repositories "
                        "for Terraform providers, provider source strings should not include it.\n\nDid you mean "
                        "\"{}\"?",
                        display, suggested));
    }
    if (type.starts_with("terraform-")) {
        return fail(
            code::invalid_provider_type, "Invalid provider type",
            fmt::format("Provider source \"{}\" has a type with the prefix \"terraform-\", which isn't allowed "
                        "because it would be redundant to name a Terraform provider with that prefix. If you are "
                        "the author of this provider, rename it to not include the prefix.",
                        r.fqn));
    }
    return r;
}

ModuleSourceResult parse_module_source(std::string_view raw, bool registry_only) {
    if (registry_only) return parse_registry(raw);
    if (is_local(raw)) {
        ModuleSourceResult r;
        r.kind = ModuleSourceKind::local;
        std::string s(raw);
        std::replace(s.begin(), s.end(), '\\', '/');
        r.normalized = normalize_local_module_source(s);
        return r;
    }
    ModuleSourceResult reg = parse_registry(raw);
    if (reg.error.empty()) return reg;
    return parse_remote(raw);
}

}  // namespace tfsift::config
