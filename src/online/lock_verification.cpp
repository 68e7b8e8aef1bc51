// Fetching what a registry signed for a locked version (lint --online).
#include "tfsift/online/lock_verification.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "tfsift/net/http_client.hpp"
#include "tfsift/net/network_config.hpp"
#include "tfsift/net/registry_client.hpp"
#include "tfsift/net/service_discovery.hpp"
#include "tfsift/online/package_authentication.hpp"
#include "tfsift/online/signature.hpp"

namespace tfsift::online {

namespace {

SignedChecksums compute(const providers::Provider& provider, const providers::Version& version, Engine engine,
                        const std::string& engine_version, const providers::Environment& env) {
    SignedChecksums out;
    const std::string addr = provider.to_string();
    const std::string what = fmt::format("{} {}", addr, version.to_string());
    auto settings = net::network_settings_from(env);
    auto config = net::read_network_config(providers::cli_config_files(env, engine));
    std::vector<std::filesystem::path> helper_dirs;
    if (auto home = env("HOME"); home && !home->empty()) {
        helper_dirs.push_back(std::filesystem::path(*home) / ".terraform.d" / "plugins");
    }
    net::Credentials credentials(config, net::token_variables(), helper_dirs);
    net::HttpClient client(settings);
    net::ServiceDiscovery discovery(client, config, credentials);
    auto service = discovery.providers_v1(provider.hostname);
    if (!service.ok()) {
        out.error = fmt::format("{}: cannot be checked online: {}", what, service.error);
        return out;
    }
    net::RegistryClient registry(client, provider.hostname, service.url, credentials.token_for(provider.hostname),
                                 engine_version, engine);
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
    const auto authenticated = authenticate_sums(*document, *signature, lookup.document->keys,
                                                 SignatureContext{engine, provider.hostname});
    if (!authenticated.ok()) {
        out.error = fmt::format("{}: the registry's checksums for it are not trustworthy: {}", what,
                                authenticated.error);
        return out;
    }
    out.authentication = std::string(trust_label(authenticated.tier, engine));
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

}  // namespace

std::vector<std::string> failed_online_checks() {
    std::unique_lock lock(g_mutex);
    std::vector<std::string> out;
    for (const auto& [key, result] : g_memo) {
        if (!result.ok()) out.push_back(result.error);
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
