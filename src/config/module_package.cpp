// Remote module sources taken apart for the fetchers (go-getter's forced
// getters, query parameters and decompressor names as Terraform configures
// them in internal/getmodules).
#include "tfsift/config/module_package.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "tfsift/config/sources.hpp"

namespace tfsift::config {

namespace {

struct QueryParam {
    std::string name;
    std::string value;  // decoded
    std::string raw;    // "name=value" as written
};

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2])));
            i += 2;
        } else if (s[i] == '+') {
            out.push_back(' ');
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

std::vector<QueryParam> parse_query(std::string_view query) {
    std::vector<QueryParam> out;
    std::size_t i = 0;
    while (i <= query.size()) {
        std::size_t j = query.find('&', i);
        if (j == std::string_view::npos) j = query.size();
        std::string_view part = query.substr(i, j - i);
        if (!part.empty()) {
            QueryParam p;
            p.raw = std::string(part);
            auto eq = part.find('=');
            p.name = percent_decode(part.substr(0, eq));
            if (eq != std::string_view::npos) p.value = percent_decode(part.substr(eq + 1));
            out.push_back(std::move(p));
        }
        i = j + 1;
    }
    return out;
}

// "getter::rest" -> ("getter", "rest"); the getter name is letters and digits.
std::pair<std::string, std::string> split_forced(std::string_view s) {
    auto i = s.find("::");
    if (i == std::string_view::npos || i == 0) return {"", std::string(s)};
    for (std::size_t k = 0; k < i; ++k) {
        if (std::isalnum(static_cast<unsigned char>(s[k])) == 0) return {"", std::string(s)};
    }
    return {std::string(s.substr(0, i)), std::string(s.substr(i + 2))};
}

// The subdirectory after "//" (past the scheme's own "://"), in either of the
// places it is written: "pkg//sub?q" or "pkg?q//sub". Returns (package with
// its query, subdirectory).
std::pair<std::string, std::string> split_package_subdir(std::string_view s) {
    std::size_t offset = 0;
    if (auto i = s.find("://"); i != std::string_view::npos) offset = i + 3;
    auto idx = s.find("//", offset);
    if (idx == std::string_view::npos) return {std::string(s), ""};
    std::string pkg(s.substr(0, idx));
    std::string sub(s.substr(idx + 2));
    if (auto q = sub.find('?'); q != std::string::npos) {
        pkg += sub.substr(q);
        sub.resize(q);
    }
    return {pkg, sub};
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string scheme_of(std::string_view url) {
    auto i = url.find("://");
    if (i == std::string_view::npos) {
        // "scheme:opaque" (oci:, s3:) also names a scheme
        auto colon = url.find(':');
        if (colon == std::string_view::npos || colon == 0) return "";
        for (std::size_t k = 0; k < colon; ++k) {
            const char c = url[k];
            if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '+' && c != '-' && c != '.') return "";
        }
        return lower(url.substr(0, colon));
    }
    return lower(url.substr(0, i));
}

struct ArchiveName {
    std::string_view name;
    ArchiveFormat format;
};
constexpr std::array<ArchiveName, 8> kArchiveNames{{
    {"tar.tbz2", ArchiveFormat::tar_bz2},
    {"tar.bz2", ArchiveFormat::tar_bz2},
    {"tar.gz", ArchiveFormat::tar_gz},
    {"tar.xz", ArchiveFormat::tar_xz},
    {"tbz2", ArchiveFormat::tar_bz2},
    {"tgz", ArchiveFormat::tar_gz},
    {"txz", ArchiveFormat::tar_xz},
    {"zip", ArchiveFormat::zip},
}};
constexpr std::array<std::string_view, 3> kSingleFileNames{"bz2", "gz", "xz"};

ModulePackage fail(ModulePackage p, ModulePackageKind kind, std::string reason) {
    p.kind = kind;
    p.reason = std::move(reason);
    return p;
}

bool clean_subdir(std::string& subdir, std::string& error) {
    std::vector<std::string> parts;
    std::size_t i = 0;
    while (i <= subdir.size()) {
        std::size_t j = subdir.find('/', i);
        if (j == std::string::npos) j = subdir.size();
        std::string part = subdir.substr(i, j - i);
        if (part == "..") {
            if (parts.empty()) {
                error = fmt::format("subdirectory path \"{}\" leads outside of the module package", subdir);
                return false;
            }
            parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(std::move(part));
        }
        i = j + 1;
    }
    std::string out;
    for (const auto& p : parts) {
        if (!out.empty()) out += '/';
        out += p;
    }
    subdir = out;
    return true;
}

ModulePackage classify_remote(std::string_view normalized) {
    ModulePackage p;
    p.source = std::string(normalized);
    auto [forced, rest] = split_forced(normalized);
    auto [pkg, subdir] = split_package_subdir(rest);
    std::string error;
    if (!clean_subdir(subdir, error)) return fail(p, ModulePackageKind::invalid, error);
    p.subdir = subdir;
    p.package = forced.empty() ? pkg : forced + "::" + pkg;
    p.source = p.package;
    if (!p.subdir.empty()) p.source += "//" + p.subdir;
    const std::string scheme = scheme_of(pkg);
    const std::string getter = forced.empty() ? scheme : lower(forced);

    std::string base = pkg;
    std::string query;
    if (auto q = pkg.find('?'); q != std::string::npos) {
        base = pkg.substr(0, q);
        query = pkg.substr(q + 1);
    }
    if (auto h = base.find('#'); h != std::string::npos) base.resize(h);

    if (getter == "s3") {
        return fail(p, ModulePackageKind::unsupported,
                    "Amazon S3 sources are not fetched by tfsift (it would need AWS credentials and an S3 client)");
    }
    if (getter == "gcs") {
        return fail(p, ModulePackageKind::unsupported,
                    "Google Cloud Storage sources are not fetched by tfsift (it would need Google credentials)");
    }
    if (getter == "hg") return fail(p, ModulePackageKind::unsupported, "Mercurial sources are not fetched by tfsift");
    if (getter == "oci" || scheme == "oci") {
        return fail(p, ModulePackageKind::unsupported, "OpenTofu's OCI registry sources are not fetched by tfsift");
    }
    if (getter == "file") {
        return fail(p, ModulePackageKind::unsupported,
                    "absolute local paths are not fetched; tfsift reads local modules through relative paths");
    }

    if (getter == "git") {
        if (scheme != "https" && scheme != "ssh" && scheme != "git" && scheme != "file") {
            return fail(p, ModulePackageKind::unsupported,
                        fmt::format("git transport \"{}\" is not allowed; tfsift lets git use https, ssh, git and "
                                    "file only",
                                    scheme.empty() ? base : scheme));
        }
        std::vector<std::string> kept;
        for (auto& param : parse_query(query)) {
            if (param.name == "ref") {
                p.ref = param.value;
            } else if (param.name == "depth") {
                unsigned value = 0;
                bool ok = !param.value.empty() && param.value.size() < 9;
                for (char c : param.value) ok = ok && c >= '0' && c <= '9';
                if (ok) value = static_cast<unsigned>(std::stoul(param.value));
                if (!ok || value == 0) {
                    return fail(p, ModulePackageKind::invalid,
                                fmt::format("depth \"{}\" is not a positive whole number", param.value));
                }
                p.depth = value;
            } else if (param.name == "sshkey") {
                return fail(p, ModulePackageKind::unsupported,
                            "an sshkey in the source is not used by tfsift; load the key into your SSH agent and "
                            "remove sshkey from the source");
            } else {
                kept.push_back(param.raw);
            }
        }
        if (p.ref.starts_with("-") || p.ref.find_first_of(std::string_view("\0\n\r ", 4)) != std::string::npos) {
            return fail(p, ModulePackageKind::invalid, fmt::format("ref \"{}\" is not a valid git ref", p.ref));
        }
        p.kind = ModulePackageKind::git;
        p.url = base;
        for (std::size_t i = 0; i < kept.size(); ++i) p.url += (i == 0 ? "?" : "&") + kept[i];
        return p;
    }

    if (getter == "http" || getter == "https") {
        if (scheme != "https") {
            return fail(p, ModulePackageKind::unsupported,
                        scheme == "http" ? "plain http is not fetched; tfsift fetches modules over https only"
                                         : fmt::format("\"{}\" is not an https URL", base));
        }
        std::optional<ArchiveFormat> format;
        bool archive_param = false;
        std::vector<std::string> kept;
        for (auto& param : parse_query(query)) {
            if (param.name != "archive") {
                kept.push_back(param.raw);
                continue;
            }
            archive_param = true;
            if (param.value == "false") {
                format = ArchiveFormat::none;
            } else if (auto named = archive_format_named(param.value)) {
                format = named;
            } else {
                return fail(p, ModulePackageKind::unsupported,
                            fmt::format("archive format \"{}\" is not a module package format (zip, tar.gz, "
                                        "tar.bz2, tar.xz)",
                                        param.value));
            }
        }
        if (!archive_param) {
            const std::string path = lower(base);
            std::size_t best = 0;
            for (const auto& a : kArchiveNames) {
                if (path.ends_with("." + std::string(a.name)) && a.name.size() > best) {
                    best = a.name.size();
                    format = a.format;
                }
            }
            if (best == 0) {
                for (auto single : kSingleFileNames) {
                    if (path.ends_with("." + std::string(single))) {
                        return fail(p, ModulePackageKind::unsupported,
                                    fmt::format("a single compressed file (.{}) is not a module package", single));
                    }
                }
            }
        }
        p.url = base;
        for (std::size_t i = 0; i < kept.size(); ++i) p.url += (i == 0 ? "?" : "&") + kept[i];
        p.archive = format.value_or(ArchiveFormat::none);
        p.kind = p.archive == ArchiveFormat::none ? ModulePackageKind::http_page : ModulePackageKind::http_archive;
        return p;
    }
    return fail(p, ModulePackageKind::unsupported,
                fmt::format("no module installer handles \"{}\" sources", getter.empty() ? base : getter));
}

}  // namespace

std::string_view archive_format_name(ArchiveFormat format) {
    switch (format) {
        case ArchiveFormat::zip: return "zip";
        case ArchiveFormat::tar_gz: return "tar.gz";
        case ArchiveFormat::tar_bz2: return "tar.bz2";
        case ArchiveFormat::tar_xz: return "tar.xz";
        case ArchiveFormat::none: break;
    }
    return "";
}

std::optional<ArchiveFormat> archive_format_named(std::string_view name) {
    for (const auto& a : kArchiveNames) {
        if (a.name == name) return a.format;
    }
    return std::nullopt;
}

std::string ModulePackage::display_host() const {
    if (kind == ModulePackageKind::registry) return host;
    std::string_view u = url.empty() ? std::string_view(package) : std::string_view(url);
    auto s = u.find("://");
    if (s == std::string_view::npos) return "";
    u.remove_prefix(s + 3);
    u = u.substr(0, u.find_first_of("/?#"));
    if (auto at = u.rfind('@'); at != std::string_view::npos) u.remove_prefix(at + 1);
    return std::string(u);
}

ModulePackage classify_module_package(std::string_view raw_source, bool registry_only) {
    ModulePackage p;
    p.source = std::string(raw_source);
    if (!registry_only && raw_source.starts_with("bitbucket.org/")) {
        return fail(p, ModulePackageKind::unsupported,
                    "bitbucket.org shorthands are resolved through Bitbucket's API, which tfsift does not call; "
                    "write the source as git::https://bitbucket.org/OWNER/REPO.git");
    }
    const auto parsed = parse_module_source(raw_source, registry_only);
    if (!parsed.error.empty()) return fail(p, ModulePackageKind::invalid, parsed.error);
    if (parsed.kind == ModuleSourceKind::local) {
        return fail(p, ModulePackageKind::invalid, "a local path is not a remote module package");
    }
    if (parsed.kind == ModuleSourceKind::remote) return classify_remote(parsed.normalized);
    p.kind = ModulePackageKind::registry;
    p.source = parsed.normalized;
    auto [pkg, subdir] = split_package_subdir(parsed.normalized);
    p.package = pkg;
    p.subdir = subdir;
    std::vector<std::string> parts;
    std::size_t i = 0;
    while (i <= pkg.size()) {
        std::size_t j = pkg.find('/', i);
        if (j == std::string::npos) j = pkg.size();
        parts.push_back(pkg.substr(i, j - i));
        i = j + 1;
    }
    if (parts.size() != 4) return fail(p, ModulePackageKind::invalid, "not a module registry address");
    p.host = parts[0];
    p.namespace_ = parts[1];
    p.name = parts[2];
    p.system = parts[3];
    return p;
}

ModulePackage classify_package_location(std::string_view location) {
    ModulePackage p;
    p.source = std::string(location);
    const auto parsed = parse_module_source(location, false);
    if (!parsed.error.empty()) return fail(p, ModulePackageKind::invalid, parsed.error);
    if (parsed.kind != ModuleSourceKind::remote) {
        return fail(p, ModulePackageKind::invalid, "must be a direct remote package address");
    }
    return classify_remote(parsed.normalized);
}

}  // namespace tfsift::config
