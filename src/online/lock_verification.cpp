// Fetching what a registry signed for a locked version (lint --online).
#include "tfsift/online/lock_verification.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "tfsift/net/http_client.hpp"
#include "tfsift/net/network_config.hpp"
#include "tfsift/net/registry_client.hpp"
#include "tfsift/net/service_discovery.hpp"
#include "tfsift/net/url.hpp"
#include "tfsift/online/download_cache.hpp"
#include "tfsift/online/package_authentication.hpp"
#include "tfsift/online/signature.hpp"
#include "tfsift/providers/hash.hpp"

namespace tfsift::online {

namespace {

// What talking to one provider's registry takes, built once per question.
struct RegistrySession {
    net::NetworkConfig config;
    std::unique_ptr<net::Credentials> credentials;
    std::unique_ptr<net::HttpClient> client;
    std::unique_ptr<net::RegistryClient> registry;
    std::string error;  // discovery failed
};

std::unique_ptr<RegistrySession> open_registry(const providers::Provider& provider, Engine engine,
                                               const std::string& engine_version, const providers::Environment& env) {
    auto session = std::make_unique<RegistrySession>();
    session->config = net::read_network_config(providers::cli_config_files(env, engine));
    std::vector<std::filesystem::path> helper_dirs;
    if (auto home = env("HOME"); home && !home->empty()) {
        helper_dirs.push_back(std::filesystem::path(*home) / ".terraform.d" / "plugins");
    }
    session->credentials = std::make_unique<net::Credentials>(session->config, net::token_variables(), helper_dirs);
    session->client = std::make_unique<net::HttpClient>(net::network_settings_from(env));
    net::ServiceDiscovery discovery(*session->client, session->config, *session->credentials);
    auto service = discovery.providers_v1(provider.hostname);
    if (!service.ok()) {
        session->error = service.error;
        return session;
    }
    session->registry = std::make_unique<net::RegistryClient>(*session->client, provider.hostname, service.url,
                                                              discovery.token_for_service(provider.hostname, service),
                                                              engine_version, engine);
    return session;
}

SignedChecksums compute(const providers::Provider& provider, const providers::Version& version, Engine engine,
                        const std::string& engine_version, const providers::Environment& env) {
    SignedChecksums out;
    const std::string addr = provider.to_string();
    const std::string what = fmt::format("{} {}", addr, version.to_string());
    auto session = open_registry(provider, engine, engine_version, env);
    if (!session->error.empty()) {
        out.error = fmt::format("{}: cannot be checked online: {}", what, session->error);
        return out;
    }
    auto& registry = *session->registry;
    auto versions = registry.versions(provider);
    if (versions.status != net::LookupStatus::ok) {
        out.error = fmt::format("{}: cannot be checked online: {}", what, versions.error);
        return out;
    }
    const auto listed = versions.platforms.find(version.to_string());
    out.version_listed = std::any_of(versions.versions.begin(), versions.versions.end(),
                                     [&](const providers::Version& v) { return v == version; });
    if (!out.version_listed) return out;
    if (listed != versions.platforms.end()) out.platforms = listed->second;
    if (out.platforms.empty()) {
        out.error = fmt::format("{}: cannot be checked online: the registry {} lists no platform for it", what,
                                provider.hostname);
        return out;
    }
    // Any platform's download document names the version's one SHA256SUMS.
    providers::Platform platform = out.platforms.front();
    const auto current = providers::current_platform();
    for (const auto& p : out.platforms) {
        if (p == current) platform = p;
    }
    auto lookup = registry.download(provider, version, platform);
    if (!lookup.document) {
        out.error = fmt::format("{} ({}): cannot be checked online: {}", what, platform.to_string(), lookup.error);
        return out;
    }
    std::string error;
    auto document = registry.fetch_document(lookup.document->shasums_url, "authentication checksums", error);
    auto signature =
        document ? registry.fetch_document(lookup.document->shasums_signature_url, "cryptographic signature", error)
                 : std::nullopt;
    if (!document || !signature) {
        out.error = fmt::format("{}: cannot be checked online: {}", what, error);
        return out;
    }
    const auto authenticated =
        authenticate_sums(*document, *signature, lookup.document->keys, SignatureContext{engine, provider.hostname});
    if (!authenticated.ok()) {
        out.error =
            fmt::format("{}: the registry's checksums for it are not trustworthy: {}", what, authenticated.error);
        return out;
    }
    out.authentication = std::string(trust_label(authenticated.tier, engine));
    out.key_id = authenticated.key_id;
    out.tier = authenticated.tier;
    out.zh = sums_zh_hashes(*document);
    std::sort(out.zh.begin(), out.zh.end());
    out.zh.erase(std::unique(out.zh.begin(), out.zh.end()), out.zh.end());
    out.file_names = sums_file_names(*document);
    if (out.zh.empty()) {
        out.error = fmt::format("{}: the registry's SHA256SUMS for it is not a checksums file", what);
    }
    return out;
}

std::mutex g_mutex;
std::map<std::string, SignedChecksums> g_memo;

// What is known of one version's packages, kept for the process.
struct PackageMemo {
    std::mutex mutex;                       // one fetcher per version at a time
    std::map<std::string, std::string> h1;  // h1 -> platform
    std::set<std::string> visited;          // platforms whose h1 is known
    std::string error;
};
std::map<std::string, std::shared_ptr<PackageMemo>> g_packages;  // guarded by g_mutex

// The h1: of the package for one platform whose zip has the signed hash
// `zh`: remembered, from a cached zip, or downloaded (and then cached).
// Returns the h1, or empty with `error` set.
std::string h1_of_signed_package(const providers::Provider& provider, const providers::Version& version,
                                 const providers::Platform& platform, const std::string& zh, RegistrySession& session,
                                 const DownloadCache& cache, std::uint64_t& downloads, std::string& error) {
    const std::string v = version.to_string();
    const std::string where =
        fmt::format("{} {} ({}) from registry {}", provider.to_string(), v, platform.to_string(), provider.hostname);
    const bool caching = !cache.root().empty();
    if (caching) {
        if (auto known = cache.recall_h1(provider, v, zh)) {
            // Only trusted while the zip it was computed from is still there.
            if (cache.find_package(provider, v, platform, std::vector<std::string>{zh}).zip) return *known;
        }
    }
    std::filesystem::path zip;
    std::filesystem::path downloaded;
    if (caching) {
        if (auto cached = cache.find_package(provider, v, platform, std::vector<std::string>{zh}); cached.zip) {
            zip = *cached.zip;
        }
    }
    const auto remove_download = [&downloaded] {
        std::error_code ec;
        if (!downloaded.empty()) std::filesystem::remove(downloaded, ec);
    };
    if (zip.empty()) {
        auto lookup = session.registry->download(provider, version, platform);
        if (!lookup.document) {
            error = fmt::format("{}: {}", where, lookup.error);
            return {};
        }
        if ("zh:" + lookup.document->shasum != zh) {
            error = fmt::format("{}: the download document's shasum {} is not the signed zh: {}", where,
                                lookup.document->shasum, zh);
            return {};
        }
        if (caching) {
            auto file = cache.new_download_file(provider);
            if (!file.error.empty()) {
                error = fmt::format("{}: {}", where, file.error);
                return {};
            }
            downloaded = file.path;
        } else {
            std::error_code ec;
            std::string name = (std::filesystem::temp_directory_path(ec) / "tfsift-package-XXXXXX").string();
            const int fd = ::mkstemp(name.data());
            if (fd < 0) {
                error = fmt::format("{}: cannot create a temporary file: {}", where, std::strerror(errno));
                return {};
            }
            ::close(fd);
            downloaded = name;
        }
        net::HttpRequest request;
        request.url = lookup.document->download_url;
        request.purpose = net::Purpose::download;
        request.max_bytes = kDefaultMaxPackageSize;
        request.sink = downloaded;
        auto response = session.client->fetch(request);
        if (!response.transport_ok() || response.status != 200) {
            error =
                fmt::format("{}: {}", where,
                            response.transport_ok() ? fmt::format("unsuccessful request to {}: {}",
                                                                  net::redacted_url(request.url), response.status_text)
                                                    : response.error_message);
            remove_download();
            return {};
        }
        ++downloads;
        const auto got = providers::zh_of_zip(downloaded);
        if (!got.ok() || got.value != zh) {
            error = fmt::format("{}: archive has incorrect checksum {} (expected {})", where,
                                got.ok() ? got.value : got.error, zh);
            remove_download();
            return {};
        }
        zip = downloaded;
    }
    auto hashed = h1_of_verified_zip(zip, kDefaultMaxPackageSize,
                                     caching ? cache.temporary_dir(provider) : std::filesystem::path());
    if (!hashed.ok()) {
        error = fmt::format("{}: {}", where, hashed.error);
        remove_download();
        return {};
    }
    if (caching) {
        if (!downloaded.empty() && !cache.store_package(provider, v, platform, downloaded).ok()) remove_download();
        (void)cache.remember_h1(provider, v, zh, hashed.h1);
    } else {
        remove_download();
    }
    return hashed.h1;
}

}  // namespace

std::string platform_of_package_file(const std::string& name, const std::string& version) {
    const std::string marker = "_" + version + "_";
    const auto at = name.rfind(marker);
    if (at == std::string::npos || !name.starts_with("terraform-provider-") || !name.ends_with(".zip")) return {};
    const auto start = at + marker.size();
    if (start + 4 > name.size()) return {};
    const std::string platform = name.substr(start, name.size() - 4 - start);
    return providers::parse_platform(platform).platform ? platform : std::string();
}

SignedPackageHashes signed_package_hashes(const providers::Provider& provider, const providers::Version& version,
                                          Engine engine, const std::string& engine_version,
                                          const providers::Environment& env, const std::vector<std::string>& wanted,
                                          const std::vector<std::string>& preferred) {
    SignedPackageHashes out;
    const auto sums = signed_checksums(provider, version, engine, engine_version, env);
    if (!sums.ok() || !sums.version_listed) {
        out.error = sums.error;
        return out;
    }
    // (platform, zh) of every package SHA256SUMS lists, preferred ones first.
    std::vector<std::pair<std::string, std::string>> packages;
    for (const auto& [zh, file] : sums.file_names) {
        const auto platform = platform_of_package_file(file, version.to_string());
        if (!platform.empty()) packages.emplace_back(platform, zh);
    }
    std::stable_sort(packages.begin(), packages.end(), [&](const auto& a, const auto& b) {
        const auto rank = [&](const std::string& p) {
            return static_cast<std::size_t>(std::find(preferred.begin(), preferred.end(), p) - preferred.begin());
        };
        return rank(a.first) != rank(b.first) ? rank(a.first) < rank(b.first) : a.first < b.first;
    });
    out.platforms = packages.size();

    const std::string key = fmt::format("{} {} {}", to_string(engine), provider.to_string(), version.to_string());
    std::shared_ptr<PackageMemo> memo;
    {
        std::unique_lock lock(g_mutex);
        auto& slot = g_packages[key];
        if (!slot) slot = std::make_shared<PackageMemo>();
        memo = slot;
    }
    std::unique_lock lock(memo->mutex);
    const auto accounted = [&] {
        return std::all_of(wanted.begin(), wanted.end(), [&](const std::string& h) { return memo->h1.count(h) != 0; });
    };
    std::unique_ptr<RegistrySession> session;
    const DownloadCache cache(default_cache_dir(env));
    static std::once_flag tidied;  // what killed runs left in the cache, once per process
    if (!cache.root().empty()) {
        std::call_once(tidied, [&cache] { cache.remove_stale_temporaries(std::chrono::hours(1)); });
    }
    for (const auto& [platform_text, zh] : packages) {
        if (!memo->error.empty() || accounted()) break;
        if (memo->visited.count(platform_text) != 0) continue;
        if (!session) {
            session = open_registry(provider, engine, engine_version, env);
            if (!session->error.empty()) {
                memo->error = fmt::format("{} {}: cannot be checked online: {}", provider.to_string(),
                                          version.to_string(), session->error);
                break;
            }
        }
        const auto platform = *providers::parse_platform(platform_text).platform;
        std::string error;
        const auto h1 = h1_of_signed_package(provider, version, platform, zh, *session, cache, out.downloads, error);
        if (h1.empty()) {
            memo->error = error;
            break;
        }
        memo->h1.try_emplace(h1, platform_text);
        memo->visited.insert(platform_text);
    }
    out.error = memo->error;
    out.h1 = memo->h1;
    return out;
}

std::vector<std::string> failed_online_checks() {
    std::unique_lock lock(g_mutex);
    std::vector<std::string> out;
    for (const auto& [key, result] : g_memo) {
        if (!result.ok()) out.push_back(result.error);
    }
    for (const auto& [key, memo] : g_packages) {
        std::unique_lock memo_lock(memo->mutex);
        if (!memo->error.empty()) out.push_back(memo->error);
    }
    return out;
}

SignedChecksums signed_checksums(const providers::Provider& provider, const providers::Version& version, Engine engine,
                                 const std::string& engine_version, const providers::Environment& env) {
    auto& mutex = g_mutex;
    auto& memo = g_memo;
    const std::string key = fmt::format("{} {} {}", to_string(engine), provider.to_string(), version.to_string());
    {
        std::unique_lock lock(mutex);
        if (auto it = memo.find(key); it != memo.end()) return it->second;
    }
    auto result = compute(provider, version, engine, engine_version, env);
    std::unique_lock lock(mutex);
    return memo.try_emplace(key, std::move(result)).first->second;
}

}  // namespace tfsift::online
