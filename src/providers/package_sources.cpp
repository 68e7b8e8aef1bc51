// Finding provider packages on disk: the fixed directory layouts of spec 7
// and the include/exclude patterns of spec 8.2.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include "tfsift/providers/package_sources.hpp"

namespace tfsift::providers {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPackedPrefix = "terraform-provider-";
constexpr std::string_view kZipSuffix = ".zip";

// A directory's entry names in byte order, as Go's directory walks list them.
std::vector<std::string> sorted_names(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

fs::file_type type_without_following(const fs::path& p) {
    std::error_code ec;
    return fs::symlink_status(p, ec).type();
}

fs::file_type type_following(const fs::path& p) {
    std::error_code ec;
    return fs::status(p, ec).type();
}

// HOST/NAMESPACE/TYPE directory names as a provider, or nullopt.
std::optional<Provider> provider_from_directories(std::string_view host, std::string_view ns, std::string_view type,
                                                  Engine engine) {
    auto hostname = normalize_hostname(host);
    if (!hostname.ok()) return std::nullopt;
    std::string namespace_;
    if (ns == kLegacyNamespace) {
        if (hostname.value != default_registry_host(engine)) return std::nullopt;
        namespace_ = std::string(ns);
    } else {
        auto normalized = normalize_namespace(ns, engine);
        if (!normalized.ok()) return std::nullopt;
        namespace_ = std::move(normalized.value);
    }
    auto type_part = normalize_provider_part(type);
    if (!type_part.ok()) return std::nullopt;
    return Provider{std::move(hostname.value), std::move(namespace_), std::move(type_part.value)};
}

std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

// terraform-provider-TYPE_VERSION_OS_ARCH[_EXTRA...].zip, lower-cased first.
std::optional<std::pair<Version, Platform>> parse_packed_name(std::string_view file, std::string_view type) {
    const std::string name = ascii_lower(file);
    const std::string prefix = std::string(kPackedPrefix) + std::string(type) + "_";
    if (!name.starts_with(prefix) || !name.ends_with(kZipSuffix)) return std::nullopt;
    std::string_view middle(name);
    middle = middle.substr(prefix.size(), middle.size() - prefix.size() - kZipSuffix.size());
    std::vector<std::string_view> pieces;
    for (std::size_t start = 0;;) {
        const auto underscore = middle.find('_', start);
        pieces.push_back(middle.substr(start, underscore == std::string_view::npos ? underscore : underscore - start));
        if (underscore == std::string_view::npos) break;
        start = underscore + 1;
    }
    if (pieces.size() < 3) return std::nullopt;
    auto version = parse_version(pieces[0]);
    if (!version.version) return std::nullopt;
    return std::make_pair(std::move(*version.version), Platform{std::string(pieces[1]), std::string(pieces[2])});
}

bool lies_within(const fs::path& root, const fs::path& target) {
    auto t = target.begin();
    for (const auto& part : root) {
        if (t == target.end() || *t != part) return false;
        ++t;
    }
    return true;
}

// Why a package directory that is a symlink must not be read: its target is
// below none of `roots` (each canonical). Empty when it may be read.
std::string escaping_link(const fs::path& package_dir, const std::vector<fs::path>& roots) {
    if (type_without_following(package_dir) != fs::file_type::symlink) return {};
    std::error_code ec;
    const fs::path target = fs::canonical(package_dir, ec);
    if (ec) return fmt::format("{}: a symlink that leads nowhere", package_dir.string());
    for (const auto& root : roots) {
        if (lies_within(root, target)) return {};
    }
    return fmt::format("{}: the package directory is a symlink to {}, outside the package sources; not read",
                       package_dir.string(), target.string());
}

std::vector<LocalPackage> scan(const fs::path& base, Engine engine, bool packed_too,
                               const std::vector<fs::path>& link_roots) {
    std::vector<LocalPackage> found;
    // The base may be a symlink; nothing deeper is followed as a directory
    // except the final OS_ARCH package directory. Most bases do not exist
    // (a module without .terraform/providers): they cost one stat, not a
    // canonical walk of every component.
    if (type_following(base) != fs::file_type::directory) return found;
    // Where a symlinked package directory may lead (compared canonically).
    std::vector<fs::path> roots;
    for (const auto& root : link_roots) {
        std::error_code ec;
        if (auto canonical = fs::canonical(root, ec); !ec) roots.push_back(std::move(canonical));
    }
    std::error_code base_ec;
    if (auto canonical = fs::canonical(base, base_ec); !base_ec) roots.push_back(std::move(canonical));
    for (const auto& host : sorted_names(base)) {
        const fs::path host_dir = base / host;
        if (type_without_following(host_dir) != fs::file_type::directory) continue;
        for (const auto& ns : sorted_names(host_dir)) {
            const fs::path ns_dir = host_dir / ns;
            if (type_without_following(ns_dir) != fs::file_type::directory) continue;
            for (const auto& type : sorted_names(ns_dir)) {
                const fs::path type_dir = ns_dir / type;
                if (type_without_following(type_dir) != fs::file_type::directory) continue;
                const auto provider = provider_from_directories(host, ns, type, engine);
                if (!provider) continue;
                for (const auto& entry : sorted_names(type_dir)) {
                    const fs::path entry_path = type_dir / entry;
                    const auto own_type = type_without_following(entry_path);
                    if (own_type == fs::file_type::directory) {
                        auto version = parse_version(entry);
                        if (!version.version) continue;
                        for (const auto& os_arch : sorted_names(entry_path)) {
                            const fs::path package_dir = entry_path / os_arch;
                            if (type_following(package_dir) != fs::file_type::directory) continue;
                            auto platform = parse_platform(os_arch);
                            if (!platform.platform) continue;
                            found.push_back(LocalPackage{*provider, *version.version, *platform.platform,
                                                         PackageKind::directory, package_dir,
                                                         escaping_link(package_dir, roots)});
                        }
                    } else if (packed_too && type_following(entry_path) == fs::file_type::regular) {
                        auto packed = parse_packed_name(entry, provider->type);
                        if (!packed) continue;
                        found.push_back(LocalPackage{*provider,
                                                     std::move(packed->first),
                                                     std::move(packed->second),
                                                     PackageKind::zip,
                                                     entry_path,
                                                     {}});
                    }
                }
            }
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const LocalPackage& a, const LocalPackage& b) {
        if (a.provider != b.provider) return a.provider < b.provider;
        if (a.platform != b.platform) return a.platform < b.platform;
        return compare_precedence(a.version, b.version) < 0;
    });
    found.erase(std::unique(found.begin(), found.end(),
                            [](const LocalPackage& a, const LocalPackage& b) {
                                return a.provider == b.provider && a.platform == b.platform && a.version == b.version;
                            }),
                found.end());
    return found;
}

// One include/exclude pattern: each part a literal or "*".
struct ProviderPattern {
    std::string hostname;  // "*" or comparison form
    std::string namespace_;
    std::string type;
};

std::optional<ProviderPattern> parse_pattern(std::string_view text, Engine engine) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const auto slash = text.find('/', start);
        parts.push_back(text.substr(start, slash == std::string_view::npos ? slash : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    if (parts.size() == 2) parts.insert(parts.begin(), default_registry_host(engine));
    if (parts.size() != 3) return std::nullopt;
    ProviderPattern pattern;
    if (parts[0] == "*") {
        if (parts[1] != "*" || parts[2] != "*") return std::nullopt;
        pattern.hostname = "*";
    } else {
        auto host = normalize_hostname(parts[0]);
        if (!host.ok()) return std::nullopt;
        pattern.hostname = host.value;
    }
    if (parts[1] == "*") {
        if (parts[2] != "*") return std::nullopt;
        pattern.namespace_ = "*";
    } else {
        auto ns = normalize_namespace(parts[1], engine);
        if (!ns.ok()) return std::nullopt;
        pattern.namespace_ = ns.value;
    }
    if (parts[2] == "*") {
        pattern.type = "*";
    } else {
        auto type = normalize_provider_part(parts[2]);
        if (!type.ok()) return std::nullopt;
        pattern.type = type.value;
    }
    return pattern;
}

bool pattern_matches(const ProviderPattern& p, const Provider& provider) {
    return (p.hostname == "*" || p.hostname == provider.hostname) &&
           (p.namespace_ == "*" || p.namespace_ == provider.namespace_) && (p.type == "*" || p.type == provider.type);
}

bool any_pattern_matches(const std::vector<std::string>& patterns, const Provider& provider, Engine engine) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& text) {
        auto pattern = parse_pattern(text, engine);
        return pattern && pattern_matches(*pattern, provider);
    });
}

}  // namespace

std::vector<LocalPackage> scan_filesystem_mirror(const fs::path& base, Engine engine) {
    return scan(base, engine, /*packed_too=*/true, {});
}

std::vector<LocalPackage> scan_unpacked_packages(const fs::path& base, Engine engine,
                                                 const std::vector<fs::path>& link_roots) {
    return scan(base, engine, /*packed_too=*/false, link_roots);
}

bool method_handles(const InstallationMethod& method, const Provider& provider, Engine engine) {
    if (any_pattern_matches(method.exclude, provider, engine)) return false;
    return method.include.empty() || any_pattern_matches(method.include, provider, engine);
}

// What LocalPackageFinder keeps of one engine.
struct LocalPackageFinder::Shared {
    CliConfig config;
    std::vector<LocalPackage> cache;
    // The filesystem mirrors: with a provider_installation block, those of
    // its methods (each package that its method handles); else the user's
    // implied directories, which come after the working directory's own.
    std::vector<LocalPackage> mirrors;
};

struct LocalPackageFinder::State {
    std::mutex mutex;
    std::map<Engine, std::unique_ptr<const Shared>> by_engine;
};

LocalPackageFinder::LocalPackageFinder(Environment env, const ScanListings* listings)
    : env_(std::move(env)), listings_(listings), state_(std::make_unique<State>()) {}

LocalPackageFinder::~LocalPackageFinder() = default;

const LocalPackageFinder::Shared& LocalPackageFinder::shared(Engine engine) const {
    const std::lock_guard<std::mutex> hold(state_->mutex);
    auto& slot = state_->by_engine[engine];
    if (slot) return *slot;
    auto out = std::make_unique<Shared>();
    out->config = read_cli_config(cli_config_files(env_, engine), env_);
    if (out->config.plugin_cache_dir) out->cache = scan_unpacked_packages(*out->config.plugin_cache_dir, engine);
    if (out->config.provider_installation) {
        for (const auto& method : *out->config.provider_installation) {
            if (method.kind != InstallationMethod::Kind::filesystem_mirror) continue;
            for (auto& package : scan_filesystem_mirror(method.location, engine)) {
                if (method_handles(method, package.provider, engine)) out->mirrors.push_back(std::move(package));
            }
        }
    } else {
        for (const auto& dir : user_mirror_directories(env_, engine)) {
            auto packages = scan_filesystem_mirror(dir, engine);
            out->mirrors.insert(out->mirrors.end(), std::make_move_iterator(packages.begin()),
                                std::make_move_iterator(packages.end()));
        }
    }
    slot = std::move(out);
    return *slot;
}

LocalPackages LocalPackageFinder::find(const fs::path& working_dir, Engine engine) const {
    const Shared& shared = this->shared(engine);
    LocalPackages out;
    fs::path data_dir = working_dir / ".terraform";
    const auto custom = env_("TF_DATA_DIR");
    if (custom && !custom->empty()) data_dir = working_dir / *custom;
    // What the scan's listing of the working directory shows is not there
    // is not looked for.
    // (Listings are keyed by absolute, lexically normal paths; a key that
    // differs only finds nothing, and then everything is looked for.)
    ScanListings::Entries listed = nullptr;
    if (listings_ != nullptr) {
        std::error_code ec;
        std::string key = fs::absolute(working_dir, ec).lexically_normal().string();
        while (key.size() > 1 && key.back() == '/') key.pop_back();
        if (!ec) listed = listings_->find(key);
    }
    auto lacks = [&](std::string_view name) { return listed && !lists_entry(*listed, name); };
    out.diagnostics = shared.config.diagnostics;
    // Installed packages may be links into the plugin cache, as init makes them.
    std::vector<fs::path> cache_roots;
    if (shared.config.plugin_cache_dir) cache_roots.push_back(*shared.config.plugin_cache_dir);
    if (!((!custom || custom->empty()) && lacks(".terraform"))) {
        out.installed = scan_unpacked_packages(data_dir / "providers", engine, cache_roots);
    }
    out.cache = shared.cache;
    if (!shared.config.provider_installation && !lacks("terraform.d")) {
        // The working directory's implied mirror comes first.
        if (auto own = working_mirror_directory(working_dir)) out.mirrors = scan_filesystem_mirror(*own, engine);
    }
    out.mirrors.insert(out.mirrors.end(), shared.mirrors.begin(), shared.mirrors.end());
    return out;
}

LocalPackages find_local_packages(const fs::path& working_dir, const Environment& env, Engine engine) {
    return LocalPackageFinder(env).find(working_dir, engine);
}

}  // namespace tfsift::providers
