// Module packages: resolve, find in the cache, fetch what is missing.
#include "tfsift/online/module_fetcher.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "tfsift/config/module_package.hpp"
#include "tfsift/net/http_client.hpp"
#include "tfsift/net/module_registry_client.hpp"
#include "tfsift/net/network_config.hpp"
#include "tfsift/net/service_discovery.hpp"
#include "tfsift/net/url.hpp"
#include "tfsift/once.hpp"
#include "tfsift/online/git_fetcher.hpp"
#include "tfsift/online/module_cache.hpp"

namespace tfsift::online {

namespace fs = std::filesystem;
using config::ModulePackage;
using config::ModulePackageKind;

namespace {

// How many X-Terraform-Get pages may lead to one another.
constexpr int kMaxHops = 3;

ModuleFetchResult failure(std::string host, std::string summary, std::string detail) {
    ModuleFetchResult r;
    r.status = ModuleFetchStatus::failed;
    r.host = std::move(host);
    r.summary = std::move(summary);
    r.detail = redact_url_credentials(std::move(detail));
    return r;
}

// The content of <meta name="terraform-get" content="..."> in an HTML page.
std::optional<std::string> meta_terraform_get(const std::string& html) {
    std::size_t pos = 0;
    auto lower = [](std::string s) {
        for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    const std::string text = lower(html);
    while ((pos = text.find("<meta", pos)) != std::string::npos) {
        const auto end = text.find('>', pos);
        if (end == std::string::npos) break;
        const std::string tag = text.substr(pos, end - pos);
        if (tag.find("name=\"terraform-get\"") != std::string::npos ||
            tag.find("name='terraform-get'") != std::string::npos) {
            for (const char quote : {'"', '\''}) {
                const std::string key = std::string("content=") + quote;
                const auto c = tag.find(key);
                if (c == std::string::npos) continue;
                const auto start = pos + c + key.size();
                const auto close = html.find(quote, start);
                if (close == std::string::npos || close > end) continue;
                std::string value = html.substr(start, close - start);
                // the few HTML entities a URL uses
                for (auto [entity, ch] :
                     {std::pair{"&amp;", "&"}, std::pair{"&quot;", "\""}, std::pair{"&#39;", "'"}}) {
                    std::size_t at = 0;
                    while ((at = value.find(entity, at)) != std::string::npos) {
                        value.replace(at, std::string_view(entity).size(), ch);
                        ++at;
                    }
                }
                return value;
            }
        }
        pos = end;
    }
    return std::nullopt;
}

std::string with_query(const std::string& url, std::string_view param) {
    const auto hash = url.find('#');
    std::string base = url.substr(0, hash);
    base += base.find('?') == std::string::npos ? "?" : "&";
    base += param;
    if (hash != std::string::npos) base += url.substr(hash);
    return base;
}

bool relative_location(std::string_view s) { return s.starts_with("/") || s.starts_with("./") || s.starts_with("../"); }

}  // namespace

struct ModuleFetcher::Impl {
    ModuleFetchOptions options;
    providers::Environment env;
    ModuleCache cache;
    GitSettings git;

    std::mutex net_mutex;  // every network step, one at a time
    std::unique_ptr<net::NetworkConfig> config;
    std::unique_ptr<net::Credentials> credentials;
    std::unique_ptr<net::HttpClient> http;
    std::unique_ptr<net::ServiceDiscovery> discovery;

    struct Slot {
        Once once;
        ModuleFetchResult result;
    };
    std::mutex memo_mutex;
    std::map<std::string, std::shared_ptr<Slot>> memo;

    mutable std::mutex warnings_mutex;
    std::vector<std::string> warnings;
    std::atomic<std::uint64_t> downloads{0};

    Impl(ModuleFetchOptions o, providers::Environment e)
        : options(std::move(o)),
          env(std::move(e)),
          cache(options.cache_dir.empty() ? default_module_cache_dir(env) : options.cache_dir) {
        options.cache_dir = cache.root();
        // TFSIFT_OFFLINE=1 (any value but "" and "0") beats every flag.
        if (auto offline = env("TFSIFT_OFFLINE"); offline && !offline->empty() && *offline != "0") {
            options.online = false;
        }
        std::string warning;
        git = git_settings_from(env, warning);
        if (!warning.empty()) warn(warning);
    }

    void warn(std::string text) {
        const std::lock_guard lock(warnings_mutex);
        if (std::find(warnings.begin(), warnings.end(), text) == warnings.end()) warnings.push_back(std::move(text));
    }

    // Called with net_mutex held.
    void ensure_network() {
        if (http) return;
        auto settings = net::network_settings_from(env);
        for (const auto& w : settings.warnings) warn(w);
        config = std::make_unique<net::NetworkConfig>(
            net::read_network_config(providers::cli_config_files(env, options.engine)));
        for (const auto& m : config->messages) warn(m);
        std::vector<fs::path> helper_dirs;
        if (auto home = env("HOME"); home && !home->empty()) {
            helper_dirs = {fs::path(*home) / ".terraform.d" / "plugins"};
        }
        credentials = std::make_unique<net::Credentials>(*config, net::token_variables(), helper_dirs);
        http = std::make_unique<net::HttpClient>(std::move(settings));
        discovery = std::make_unique<net::ServiceDiscovery>(*http, *config, *credentials);
    }

    ModuleFetchResult not_cached(const ModulePackage& pkg) const {
        ModuleFetchResult r;
        r.status = ModuleFetchStatus::not_cached;
        r.host = pkg.display_host();
        r.summary = "Module not fetched";
        r.detail = fmt::format(
            "The module package \"{}\" is not in tfsift's module cache ({}) and this run may not "
            "use the network; run `tfsift fetch` (or lint with --online) to fetch it.",
            redact_url_credentials(pkg.package), cache.root().string());
        return r;
    }

    // Offline and not usable from the cache: a corrupt entry is an error,
    // a missing one a call that is not fetched yet.
    ModuleFetchResult offline_miss(const ModulePackage& pkg, const CachedModule& found) const {
        if (!found.corrupt.empty()) {
            return failure(pkg.display_host(), "Corrupt module cache entry",
                           fmt::format("{}. tfsift does not use it; run `tfsift fetch` with network access to "
                                       "fetch \"{}\" again.",
                                       found.corrupt, pkg.package));
        }
        return not_cached(pkg);
    }

    // The package `id` from the cache, or (online) fetched by `fill` into a
    // staging directory's tree/ and installed. `fill` returns an error text.
    ModuleFetchResult obtain(const ModulePackage& pkg, const std::string& id, ModuleManifest manifest,
                             const std::function<std::string(const fs::path&, ModuleManifest&)>& fill) {
        auto found = cache.find(id);
        if (found.tree) return from_cache(pkg, found, false);
        if (!options.online) return offline_miss(pkg, found);
        std::string lock_error;
        auto held = cache.lock(id, lock_error);
        if (!lock_error.empty()) warn(lock_error);
        found = cache.find(id);
        if (found.tree) return from_cache(pkg, found, false);
        if (!found.corrupt.empty()) warn(found.corrupt + "; fetching it again");
        std::string error;
        const fs::path staging = cache.new_staging_dir(error);
        if (staging.empty()) return failure(pkg.display_host(), "Cannot write the module cache", error);
        error = fill(staging, manifest);
        if (!error.empty()) {
            std::error_code rm;
            fs::remove_all(staging, rm);
            return failure(pkg.display_host(), "Failed to download module",
                           fmt::format("Could not download module package \"{}\" from {}: {}", pkg.package,
                                       pkg.display_host(), error));
        }
        error = cache.install(id, staging, manifest);
        if (!error.empty()) return failure(pkg.display_host(), "Cannot write the module cache", error);
        ++downloads;
        found = cache.find(id);
        if (!found.tree) return failure(pkg.display_host(), "Cannot write the module cache", found.corrupt);
        return from_cache(pkg, found, true);
    }

    ModuleFetchResult from_cache(const ModulePackage& pkg, const CachedModule& found, bool fetched) const {
        ModuleFetchResult r;
        r.host = pkg.display_host();
        r.package_dir = *found.tree;
        fs::path dir = *found.tree;
        if (!found.manifest.subdir.empty()) dir /= found.manifest.subdir;
        if (!pkg.subdir.empty()) dir /= pkg.subdir;
        r.resolved = found.manifest.resolved;
        r.revision = !found.manifest.commit.empty()           ? found.manifest.commit
                     : !found.manifest.archive_sha256.empty() ? "sha256:" + found.manifest.archive_sha256
                                                              : std::string();
        r.fetched = fetched;
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) {
            return failure(r.host, "Module subdirectory not found",
                           fmt::format("The module package \"{}\" has no directory \"{}\".", pkg.package,
                                       dir.lexically_relative(*found.tree).generic_string()));
        }
        r.dir = std::move(dir);
        r.status = ModuleFetchStatus::ok;
        return r;
    }

    // Downloads `url` into `file`; the error text, or empty.
    std::string download(const std::string& url, const fs::path& file) {
        net::HttpRequest request;
        request.url = url;
        request.purpose = net::Purpose::download;
        request.sink = file;
        request.max_bytes = options.limits.max_total_bytes;
        auto response = http->fetch(request);
        if (!response.transport_ok()) return response.error_message;
        if (response.status != 200) {
            auto parsed = net::parse_absolute_url(response.effective_url);
            return fmt::format("{} returned from {}", response.status_text,
                               parsed ? parsed->authority() : std::string("the server"));
        }
        return {};
    }

    // Fills staging/tree with the package at `location` (a direct remote
    // address), recording what it resolved to.
    std::string fill_from(const ModulePackage& loc, const fs::path& staging, ModuleManifest& manifest, int hops) {
        const fs::path tree = staging / "tree";
        switch (loc.kind) {
            case ModulePackageKind::git: {
                auto clone = clone_git_package(git, loc.url, loc.ref, loc.depth, tree);
                if (!clone.ok()) return clone.error;
                manifest.commit = clone.commit;
                if (manifest.resolved.empty()) manifest.resolved = clone.commit;
                return {};
            }
            case ModulePackageKind::http_archive: {
                const fs::path file = staging / "archive";
                if (auto error = download(loc.url, file); !error.empty()) return error;
                std::string error;
                manifest.archive_sha256 = file_sha256(file, error);
                if (manifest.archive_sha256.empty()) return error;
                if (manifest.resolved.empty()) manifest.resolved = "sha256:" + manifest.archive_sha256;
                auto unpacked = unpack_module_archive(file, tree, options.limits);
                std::error_code rm;
                fs::remove(file, rm);
                if (!unpacked.ok()) return fmt::format("the archive {} was refused: {}", loc.url, unpacked.error);
                return {};
            }
            case ModulePackageKind::http_page: {
                if (hops >= kMaxHops) return fmt::format("more than {} pages led from one to another", kMaxHops);
                std::string error;
                auto next = page_location(loc, error);
                if (!next) return error;
                if (!next->subdir.empty()) {
                    manifest.subdir = manifest.subdir.empty() ? next->subdir : next->subdir + "/" + manifest.subdir;
                }
                return fill_from(*next, staging, manifest, hops + 1);
            }
            default: return loc.reason.empty() ? std::string("this kind of source cannot be fetched") : loc.reason;
        }
    }

    // GET url?terraform-get=1: X-Terraform-Get, or a terraform-get meta tag.
    std::optional<ModulePackage> page_location(const ModulePackage& page, std::string& error) {
        net::HttpRequest request;
        request.url = with_query(page.url, "terraform-get=1");
        request.purpose = net::Purpose::api;
        request.max_bytes = 1U << 20;
        auto response = http->fetch(request);
        if (!response.transport_ok()) {
            error = response.error_message;
            return std::nullopt;
        }
        if (response.status != 200 && response.status != 204) {
            error = fmt::format("{} returned from {}", response.status_text, page.display_host());
            return std::nullopt;
        }
        auto location = response.header("x-terraform-get");
        if (!location || location->empty()) location = meta_terraform_get(response.body);
        if (!location || location->empty()) {
            error = fmt::format(
                "{} is neither an archive nor a page naming a module location (no X-Terraform-Get "
                "header or terraform-get meta tag)",
                page.url);
            return std::nullopt;
        }
        if (relative_location(*location)) {
            auto resolved = net::resolve_reference(response.effective_url, *location);
            if (resolved) location = *resolved;
        }
        auto next = config::classify_package_location(*location);
        if (next.kind == ModulePackageKind::invalid || next.kind == ModulePackageKind::unsupported) {
            error = fmt::format("{} names the location \"{}\", which cannot be fetched: {}", page.url, *location,
                                next.reason);
            return std::nullopt;
        }
        return next;
    }

    ModuleFetchResult fetch_registry(const ModulePackage& pkg, const std::string& constraint) {
        const std::string module = fmt::format("{}/{}/{}", pkg.namespace_, pkg.name, pkg.system);
        const std::string query = fmt::format("registry {} {}", pkg.package, constraint);
        const std::string& host = pkg.host;
        std::string version;
        std::optional<net::ModuleRegistryClient> client;
        std::unique_lock net_lock(net_mutex, std::defer_lock);
        if (options.online) {
            net_lock.lock();
            ensure_network();
            auto service = discovery->modules_v1(host);
            if (!service.ok()) {
                return failure(host, "Error accessing remote module registry",
                               fmt::format("Failed to retrieve available versions for module \"{}\" from {}: {}.",
                                           pkg.package, host, service.error));
            }
            // The host's token goes to the service only on the same host:port.
            client.emplace(*http, host, service.url, discovery->token_for_service(host, service),
                           options.engine_version);
            auto list = client->versions(module);
            if (list.not_found) {
                return failure(host, "Module not found",
                               fmt::format("The module \"{}\" could not be found in the module registry at {}.",
                                           pkg.package, host));
            }
            if (!list.ok) {
                return failure(host, "Error accessing remote module registry",
                               fmt::format("Failed to retrieve available versions for module \"{}\" from {}: {}.",
                                           pkg.package, host, list.error));
            }
            for (const auto& bad : list.ignored) {
                warn(
                    fmt::format("The registry at {} returned an invalid version string \"{}\" for module {}, "
                                "which tfsift ignored.",
                                host, bad, pkg.package));
            }
            auto choice = net::choose_module_version(constraint, list.versions);
            if (!choice.constraint_error.empty()) {
                return failure(host, "Invalid version constraint",
                               fmt::format("The version constraint \"{}\" of module \"{}\" cannot be used: {}.",
                                           constraint, pkg.package, choice.constraint_error));
            }
            if (!choice.newest) {
                return failure(host, "Module has no versions",
                               fmt::format("Module \"{}\" has no versions available on {}.", pkg.package, host));
            }
            if (!choice.chosen) {
                return failure(host, "Unresolvable module version constraint",
                               fmt::format("There is no available version of module \"{}\" on {} which matches the "
                                           "given version constraint \"{}\". The newest available version is {}.",
                                           pkg.package, host, constraint, choice.newest->to_string()));
            }
            version = choice.chosen->to_string();
            cache.remember(query, version);
        } else {
            auto recalled = cache.recall(query);
            if (!recalled) return not_cached(pkg);
            version = recalled->answer;
        }
        const std::string id = ModuleCache::package_id(pkg.package, version);
        ModuleManifest manifest;
        manifest.package = pkg.package;
        manifest.resolved = version;
        auto result = obtain(pkg, id, manifest, [&](const fs::path& staging, ModuleManifest& m) -> std::string {
            auto where = client->location(module, version);
            if (!where.ok()) return where.error;
            m.location = where.location;
            auto loc = config::classify_package_location(where.location);
            if (loc.kind == ModulePackageKind::invalid || loc.kind == ModulePackageKind::unsupported) {
                return fmt::format(
                    "the registry returned the source location \"{}\" for {} {}, which cannot be "
                    "used: {}",
                    where.location, pkg.package, version,
                    loc.kind == ModulePackageKind::invalid ? std::string("must be a direct remote package address")
                                                           : loc.reason);
            }
            m.subdir = loc.subdir;
            return fill_from(loc, staging, m, 0);
        });
        result.version = version;
        return result;
    }

    ModuleFetchResult fetch_git(const ModulePackage& pkg) {
        const std::string query = "git " + pkg.package;
        std::string commit;
        std::unique_lock net_lock(net_mutex, std::defer_lock);
        if (options.online) {
            net_lock.lock();
            auto ref = resolve_git_ref(git, pkg.url, pkg.ref);
            if (!ref.ok()) {
                return failure(pkg.display_host(), "Failed to download module",
                               fmt::format("Could not download module package \"{}\" from {}: {}", pkg.package,
                                           pkg.display_host(), ref.error));
            }
            commit = ref.commit;
            cache.remember(query, commit);
        } else {
            auto recalled = cache.recall(query);
            if (!recalled) return not_cached(pkg);
            commit = recalled->answer;
        }
        ModuleManifest manifest;
        manifest.package = pkg.package;
        manifest.resolved = commit;
        return obtain(pkg, ModuleCache::package_id("git::" + pkg.url, commit), manifest,
                      [&](const fs::path& staging, ModuleManifest& m) { return fill_from(pkg, staging, m, 0); });
    }

    ModuleFetchResult fetch_archive(const ModulePackage& pkg) {
        const std::string query = "archive " + pkg.url;
        // An archive URL is taken to name fixed content: once fetched, it is
        // used from the cache until the entry goes (docs/modules.md).
        if (auto recalled = cache.recall(query)) {
            const std::string id = ModuleCache::package_id(pkg.package, recalled->answer);
            auto found = cache.find(id);
            if (found.tree) return from_cache(pkg, found, false);
            if (!options.online) return offline_miss(pkg, found);
        } else if (!options.online) {
            return not_cached(pkg);
        }
        const std::lock_guard net_lock(net_mutex);
        ensure_network();
        std::string error;
        const fs::path staging = cache.new_staging_dir(error);
        if (staging.empty()) return failure(pkg.display_host(), "Cannot write the module cache", error);
        ModuleManifest manifest;
        manifest.package = pkg.package;
        error = fill_from(pkg, staging, manifest, 0);
        if (!error.empty()) {
            std::error_code rm;
            fs::remove_all(staging, rm);
            return failure(pkg.display_host(), "Failed to download module",
                           fmt::format("Could not download module package \"{}\" from {}: {}", pkg.package,
                                       pkg.display_host(), error));
        }
        const std::string id = ModuleCache::package_id(pkg.package, manifest.resolved);
        std::string lock_error;
        auto held = cache.lock(id, lock_error);
        if (cache.find(id).tree) {
            std::error_code rm;
            fs::remove_all(staging, rm);
        } else if (error = cache.install(id, staging, manifest); !error.empty()) {
            return failure(pkg.display_host(), "Cannot write the module cache", error);
        }
        ++downloads;
        cache.remember(query, manifest.resolved);
        auto found = cache.find(id);
        if (!found.tree) return failure(pkg.display_host(), "Cannot write the module cache", found.corrupt);
        return from_cache(pkg, found, true);
    }

    ModuleFetchResult fetch_page(const ModulePackage& pkg, int hops) {
        const std::string query = "page " + pkg.url;
        std::string location;
        if (options.online) {
            const std::lock_guard net_lock(net_mutex);
            ensure_network();
            std::string error;
            auto next = page_location(pkg, error);
            if (!next) {
                return failure(pkg.display_host(), "Failed to download module",
                               fmt::format("Could not download module package \"{}\" from {}: {}", pkg.package,
                                           pkg.display_host(), error));
            }
            location = next->source;
            cache.remember(query, location);
        } else {
            auto recalled = cache.recall(query);
            if (!recalled) return not_cached(pkg);
            location = recalled->answer;
        }
        if (hops >= kMaxHops) {
            return failure(pkg.display_host(), "Failed to download module",
                           fmt::format("Could not download module package \"{}\": more than {} pages led from one to "
                                       "another",
                                       pkg.package, kMaxHops));
        }
        auto next = config::classify_package_location(location);
        if (!pkg.subdir.empty()) {
            next.subdir = next.subdir.empty() ? pkg.subdir : next.subdir + "/" + pkg.subdir;
        }
        return fetch_package(next, "", hops + 1);
    }

    ModuleFetchResult fetch_package(const ModulePackage& pkg, const std::string& constraint, int hops) {
        switch (pkg.kind) {
            case ModulePackageKind::registry: return fetch_registry(pkg, constraint);
            case ModulePackageKind::git: return fetch_git(pkg);
            case ModulePackageKind::http_archive: return fetch_archive(pkg);
            case ModulePackageKind::http_page: return fetch_page(pkg, hops);
            case ModulePackageKind::unsupported: {
                ModuleFetchResult r;
                r.status = ModuleFetchStatus::unsupported;
                r.host = pkg.display_host();
                r.summary = "Module source not fetched";
                r.detail =
                    fmt::format("tfsift does not fetch the module package \"{}\": {}.",
                                redact_url_credentials(pkg.package.empty() ? pkg.source : pkg.package), pkg.reason);
                return r;
            }
            case ModulePackageKind::invalid: break;
        }
        // The loader reports an invalid source (or a version on a source
        // that takes none) where it is written; there is nothing to fetch,
        // which is no failure of the network.
        ModuleFetchResult r;
        r.status = ModuleFetchStatus::unsupported;
        r.host = pkg.display_host();
        r.summary = "Invalid module source address";
        r.detail = fmt::format("The module source \"{}\" cannot be fetched: {}.", pkg.source, pkg.reason);
        return r;
    }
};

ModuleFetcher::ModuleFetcher(ModuleFetchOptions options, providers::Environment env)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(env))) {}

ModuleFetcher::~ModuleFetcher() = default;

ModuleFetchResult ModuleFetcher::fetch(const std::string& source, const std::string& version) {
    std::shared_ptr<Impl::Slot> slot;
    {
        const std::lock_guard lock(impl_->memo_mutex);
        auto& entry = impl_->memo[source + "\n" + version];
        if (!entry) entry = std::make_shared<Impl::Slot>();
        slot = entry;
    }
    slot->once.run([&] {
        if (impl_->cache.root().empty()) {
            slot->result = failure("", "No module cache",
                                   "tfsift has no module cache directory: set HOME, XDG_CACHE_HOME or "
                                   "TFSIFT_CACHE_DIR, or pass --cache-dir.");
            return;
        }
        auto pkg = config::classify_module_package(source, !version.empty());
        // A registry address without a host names the engine's own registry.
        if (pkg.kind == ModulePackageKind::registry && impl_->options.engine == Engine::opentofu &&
            pkg.host == default_registry_host(Engine::terraform)) {
            const std::string given = pkg.package.substr(pkg.host.size() + 1);
            std::string lowered(source.substr(0, pkg.host.size() + 1));
            std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (lowered != pkg.host + "/") {
                pkg.host = std::string(default_registry_host(Engine::opentofu));
                pkg.package = pkg.host + "/" + given;
                pkg.source = pkg.subdir.empty() ? pkg.package : pkg.package + "//" + pkg.subdir;
            }
        }
        slot->result = impl_->fetch_package(pkg, version, 0);
    });
    return slot->result;
}

bool ModuleFetcher::online() const { return impl_->options.online; }
const fs::path& ModuleFetcher::cache_dir() const { return impl_->cache.root(); }

std::vector<std::string> ModuleFetcher::warnings() const {
    const std::lock_guard lock(impl_->warnings_mutex);
    return impl_->warnings;
}

std::uint64_t ModuleFetcher::downloads() const { return impl_->downloads.load(); }

}  // namespace tfsift::online
