// The online fetcher behind `tfsift lock` and `tfsift lint --fix`.
#include "tfsift/online/provider_fetcher.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <system_error>

#include "tfsift/net/http_client.hpp"
#include "tfsift/net/mirror_client.hpp"
#include "tfsift/net/network_config.hpp"
#include "tfsift/net/registry_client.hpp"
#include "tfsift/net/service_discovery.hpp"
#include "tfsift/net/url.hpp"
#include "tfsift/online/download_cache.hpp"
#include "tfsift/online/package_authentication.hpp"
#include "tfsift/online/signature.hpp"
#include "tfsift/parallel_for.hpp"
#include "tfsift/providers/hash.hpp"
#include "tfsift/providers/installation_methods.hpp"
#include "tfsift/providers/selection.hpp"
#include "tfsift/providers/unpack.hpp"

namespace tfsift::online {

namespace fs = std::filesystem;
using providers::Provider;

namespace {

// A private directory for this run's downloads; nothing and `error` set
// when none can be made (a read-only or full cache).
std::optional<fs::path> make_work_dir(const fs::path& cache_dir, std::string& error) {
    std::random_device rd;
    std::error_code ec;
    const fs::path parent = cache_dir.empty() ? fs::temp_directory_path(ec) : cache_dir / ".tfsift-tmp";
    if (!ec) fs::create_directories(parent, ec);
    if (!ec) fs::permissions(parent, fs::perms::owner_all, fs::perm_options::replace, ec);
    // What a killed run left behind (a day old: no fetch takes that long).
    if (!ec && !cache_dir.empty()) {
        const auto stale = fs::file_time_type::clock::now() - std::chrono::hours(24);
        std::error_code list_ec;
        for (fs::directory_iterator it(parent, list_ec), end; !list_ec && it != end; it.increment(list_ec)) {
            std::error_code entry_ec;
            if (!it->path().filename().string().starts_with("lock-")) continue;
            if (fs::last_write_time(it->path(), entry_ec) < stale && !entry_ec) fs::remove_all(it->path(), entry_ec);
        }
    }
    for (int i = 0; !ec && i < 100; ++i) {
        fs::path candidate = parent / fmt::format("lock-{}-{:08x}", getpid(), rd());
        if (fs::create_directory(candidate, ec)) return candidate;
    }
    error = fmt::format("cannot create a temporary directory in {}: {}", parent.string(),
                        ec ? ec.message() : std::string("every name tried was taken"));
    return std::nullopt;
}

struct Settings {
    net::NetworkSettings network;
    net::NetworkConfig config;
    std::map<std::string, std::string> tokens;
    std::vector<fs::path> helper_dirs;
};

// What one (provider, version) shares across platforms: the signed SUMS.
struct SumsCache {
    std::mutex mutex;
    struct Entry {
        std::string document;
        std::string signature;
        SignatureVerdict verdict;
        std::string error;
    };
    std::map<std::string, Entry> by_url;  // shasums_url
    // One lock per document, so the platforms of a version wait for one
    // fetch and one signature check instead of each making their own.
    std::map<std::string, std::shared_ptr<std::mutex>> in_flight;
};

std::string describe(const SignatureVerdict& verdict, Engine engine) {
    std::string text(trust_label(verdict.tier, engine));
    if ((verdict.tier == TrustTier::partner || verdict.tier == TrustTier::community) && !verdict.key_id.empty()) {
        text += ", key ID " + verdict.key_id;
    }
    return text;
}

// Where one provider's packages may come from (spec 8.3).
struct Source {
    enum class Kind : unsigned char { registry, network_mirror, filesystem_mirror } kind = Kind::registry;
    std::string base_url;  // registry: providers.v1 (after discovery); network mirror: its URL
    std::string token;
    std::string host;                               // for messages: the registry or mirror host, the mirror directory
    std::string label;                              // "registry HOST", "network mirror URL", "filesystem mirror DIR"
    std::vector<providers::LocalPackage> packages;  // filesystem mirror: the provider's packages there
};

struct Job {
    std::size_t provider = 0;
    std::size_t platform = 0;
};

// One line on a terminal: packages done of all, bytes received so far.
class ProgressBar {
public:
    ProgressBar(bool enabled, std::size_t total) : enabled_(enabled), total_(total) {}
    ~ProgressBar() {
        if (enabled_ && drawn_) std::fputs("\r\033[K", stderr);
    }
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    void add_bytes(std::size_t job, std::uint64_t now) {
        if (!enabled_) return;
        std::unique_lock lock(mutex_);
        bytes_[job] = now;
        draw(lock);
    }
    void finished() {
        if (!enabled_) return;
        std::unique_lock lock(mutex_);
        ++done_;
        draw(lock, true);
    }

private:
    void draw(std::unique_lock<std::mutex>& /*held*/, bool force = false) {
        const auto now = std::chrono::steady_clock::now();
        if (!force && now - last_ < std::chrono::milliseconds(200)) return;
        last_ = now;
        std::uint64_t sum = 0;
        for (const auto& [job, bytes] : bytes_) sum += bytes;
        const std::size_t width = 30;
        const std::size_t filled = total_ == 0 ? width : done_ * width / total_;
        std::fprintf(stderr, "\r\033[K[%s%s] %zu/%zu packages, %.1f MiB", std::string(filled, '#').c_str(),
                     std::string(width - filled, '.').c_str(), done_, total_, static_cast<double>(sum) / (1 << 20));
        std::fflush(stderr);
        drawn_ = true;
    }

    bool enabled_;
    std::size_t total_;
    std::size_t done_ = 0;
    bool drawn_ = false;
    std::map<std::size_t, std::uint64_t> bytes_;
    std::chrono::steady_clock::time_point last_{};
    std::mutex mutex_;
};

}  // namespace

bool FetchResult::ok() const { return errors().empty(); }

std::vector<std::string> FetchResult::errors() const {
    std::vector<std::string> out;
    if (!error.empty()) out.push_back(error);
    for (const auto& p : providers) {
        if (!p.error.empty()) out.push_back(p.error);
        for (const auto& platform : p.platforms) {
            if (!platform.error.empty()) out.push_back(platform.error);
        }
    }
    return out;
}

FetchResult fetch_providers(const std::map<Provider, providers::VersionConstraints>& wanted,
                            const providers::LockFile& old, const FetchOptions& options,
                            const providers::Environment& env) {
    FetchResult result;
    Settings settings;
    settings.network = net::network_settings_from(env);
    settings.network.user_agent = "tfsift/" TFSIFT_VERSION;
    result.warnings = settings.network.warnings;
    settings.config = net::read_network_config(providers::cli_config_files(env, options.engine));
    for (const auto& m : settings.config.messages) result.warnings.push_back(m);
    settings.tokens = net::token_variables();
    if (auto home = env("HOME"); home && !home->empty()) {
        settings.helper_dirs = {
            fs::path(*home) / ".terraform.d" / "plugins",
            fs::path(*home) / ".terraform.d" / "plugins" / providers::current_platform().to_string()};
    }
    net::Credentials credentials(settings.config, settings.tokens, settings.helper_dirs);
    net::HttpClient main_client(settings.network);
    net::ServiceDiscovery discovery(main_client, settings.config, credentials);
    auto made = make_work_dir(options.cache_dir, result.error);
    if (!made) return result;
    const auto work_dir = std::make_shared<const fs::path>(std::move(*made));
    result.work_dir = std::shared_ptr<const fs::path>(work_dir.get(), [keep = work_dir](const fs::path* p) {
        std::error_code ec;
        fs::remove_all(*p, ec);
        (void)keep;
    });

    std::optional<DownloadCache> cache;
    if (!options.cache_dir.empty()) {
        cache.emplace(options.cache_dir);
        cache->remove_stale_temporaries(std::chrono::hours(1));
    }

    // Per provider, one after the other: where it may come from and which version.
    std::vector<std::vector<Source>> sources;  // per provider, in the order they are tried
    std::map<std::string, std::vector<providers::LocalPackage>> mirror_scans;  // filesystem mirror -> packages
    const auto mirror_source = [&](const std::string& url) {
        auto parsed = net::parse_absolute_url(url);
        Source src;
        src.kind = Source::Kind::network_mirror;
        src.base_url = url;
        src.host = parsed ? parsed->authority() : url;
        src.token = credentials.token_for(src.host);
        src.label = "network mirror " + net::redacted_url(url);
        return src;
    };
    const auto registry_source = [](const Provider& provider) {
        Source src;
        src.kind = Source::Kind::registry;
        src.host = provider.hostname;
        src.label = "registry " + provider.hostname;
        return src;
    };
    for (const auto& [provider, constraints] : wanted) {
        FetchedProvider fetched;
        fetched.provider = provider;
        const std::string addr = provider.to_string();
        std::vector<Source> candidates;
        if (!options.installation) {
            candidates.push_back(options.net_mirror.empty() ? registry_source(provider)
                                                            : mirror_source(options.net_mirror));
        } else {
            for (const auto& method : *options.installation) {
                if (method.kind == providers::InstallationMethod::Kind::dev_overrides ||
                    !providers::method_handles(method, provider, options.engine)) {
                    continue;
                }
                switch (method.kind) {
                    case providers::InstallationMethod::Kind::direct:
                        candidates.push_back(registry_source(provider));
                        break;
                    case providers::InstallationMethod::Kind::network_mirror:
                        candidates.push_back(mirror_source(method.location));
                        break;
                    case providers::InstallationMethod::Kind::filesystem_mirror: {
                        auto [scan, fresh] = mirror_scans.try_emplace(method.location);
                        if (fresh) scan->second = providers::scan_filesystem_mirror(method.location, options.engine);
                        Source src;
                        src.kind = Source::Kind::filesystem_mirror;
                        src.label = "filesystem mirror " + method.location;
                        src.host = method.location;
                        std::copy_if(scan->second.begin(), scan->second.end(), std::back_inserter(src.packages),
                                     [&wanted_provider = provider](const providers::LocalPackage& p) {
                                         return p.provider == wanted_provider;
                                     });
                        candidates.push_back(std::move(src));
                        break;
                    }
                    case providers::InstallationMethod::Kind::dev_overrides: break;
                }
            }
        }
        // The versions: the union over the sources; "not found" from one of
        // several sources is no error (spec 8.3).
        std::vector<providers::Version> available;
        std::string not_found;  // a registry that does not know the provider, in its own words
        std::string failure;
        for (auto& src : candidates) {
            net::VersionList versions;
            if (src.kind == Source::Kind::filesystem_mirror) {
                versions.status = src.packages.empty() ? net::LookupStatus::not_found : net::LookupStatus::ok;
                for (const auto& p : src.packages) versions.versions.push_back(p.version);
                versions.error = fmt::format("provider {} was not found in the {}", addr, src.label);
            } else if (src.kind == Source::Kind::network_mirror) {
                net::MirrorClient mirror(main_client, src.base_url, src.token, options.engine_version, options.engine);
                versions = mirror.versions(provider);
                if (versions.status == net::LookupStatus::not_found) {
                    versions.error = fmt::format("provider {} was not found in the network mirror {}", addr,
                                                 net::redacted_url(src.base_url));
                }
            } else {
                auto service = discovery.providers_v1(provider.hostname);
                if (!service.ok()) {
                    failure = fmt::format("{}: {}", addr, service.error);
                    break;
                }
                src.base_url = service.url;
                src.token = discovery.token_for_service(provider.hostname, service);
                net::RegistryClient registry(main_client, src.host, src.base_url, src.token, options.engine_version,
                                             options.engine);
                versions = registry.versions(provider);
            }
            fetched.warnings.insert(fetched.warnings.end(), versions.warnings.begin(), versions.warnings.end());
            if (versions.status == net::LookupStatus::not_found && (candidates.size() > 1 || options.installation)) {
                // A registry's "no such provider" is the error when no source has it.
                if (not_found.empty() && src.kind == Source::Kind::registry) {
                    not_found = fmt::format("{} from {}: {}", addr, src.host, versions.error);
                }
                continue;
            }
            if (versions.status != net::LookupStatus::ok) {
                failure = fmt::format("{} from {}: {}", addr, src.host, versions.error);
                break;
            }
            available.insert(available.end(), versions.versions.begin(), versions.versions.end());
        }
        std::sort(available.begin(), available.end(), [](const providers::Version& a, const providers::Version& b) {
            return providers::compare_precedence(a, b) < 0;
        });
        available.erase(std::unique(available.begin(), available.end()), available.end());
        if (failure.empty() && available.empty()) {
            if (!not_found.empty()) {
                failure = not_found;
            } else {
                failure = fmt::format("provider {} was not found in any of the search locations", addr);
                for (const auto& src : candidates) failure += "\n- " + src.label;
                if (candidates.empty())
                    failure += " (no method of the CLI configuration's provider_installation handles it)";
            }
        }
        const std::string where = candidates.size() == 1 ? candidates.front().host : std::string("its sources");
        if (!failure.empty()) {
            fetched.error = failure;
            result.providers.push_back(std::move(fetched));
            sources.emplace_back();
            continue;
        }
        providers::SelectionRequest request;
        request.provider = provider;
        request.constraints = constraints;
        request.available = available;
        request.engine = options.engine;
        if (const auto* prior = old.find(provider)) request.locked = prior->version;
        auto selected = providers::select_provider_version(request);
        if (!selected.selected) {
            fetched.error = fmt::format("{} from {}: {}", addr, where, selected.error);
            result.providers.push_back(std::move(fetched));
            sources.emplace_back();
            continue;
        }
        fetched.version = *selected.selected;
        for (const auto& platform : options.platforms) fetched.platforms.push_back(FetchedPlatform{platform});
        result.providers.push_back(std::move(fetched));
        sources.push_back(std::move(candidates));
    }
    for (const auto& w : credentials.warnings()) result.warnings.push_back(w);

    // Per (provider, platform), in parallel: metadata, package, checks, h1.
    std::vector<Job> jobs;
    for (std::size_t p = 0; p < result.providers.size(); ++p) {
        if (!result.providers[p].error.empty()) continue;
        for (std::size_t i = 0; i < result.providers[p].platforms.size(); ++i) jobs.push_back({p, i});
    }
    SumsCache sums_cache;
    std::mutex count_mutex;
    // Fetching waits on the network far more than on a processor, so the
    // default does not follow the processor count.
    const unsigned threads = options.jobs != 0 ? options.jobs : kDefaultFetchJobs;
    ProgressBar bar(options.progress_bar, jobs.size());
    struct Attempt {
        enum class Status : unsigned char { done, absent, failed } status = Status::done;
        std::string message;
    };
    // One platform's package from one source: `absent` when the source does
    // not have it (the next source is tried), `failed` when it has it but
    // something is wrong.
    const auto fetch_platform = [&](const Source& src, FetchedProvider& provider, FetchedPlatform& out,
                                    net::HttpClient& client, const Job& job, std::size_t index) -> Attempt {
        const auto fail = [](std::string why) { return Attempt{Attempt::Status::failed, std::move(why)}; };
        const auto absent = [](std::string why) { return Attempt{Attempt::Status::absent, std::move(why)}; };
        const std::string addr = provider.provider.to_string();
        std::string download_url;
        std::vector<std::string> trusted;        // hashes a cached zip may be taken for
        std::vector<std::string> mirror_hashes;  // mirror: the listed hashes
        std::optional<net::DownloadDocument> document;
        SumsCache::Entry sums;
        std::string authentication;
        if (src.kind == Source::Kind::filesystem_mirror) {
            // Nothing vouches for a package on disk: its own h1: is recorded.
            const auto found = std::find_if(src.packages.begin(), src.packages.end(), [&](const auto& p) {
                return p.version == provider.version && p.platform == out.platform;
            });
            if (found == src.packages.end()) {
                return absent(fmt::format("the {} has no package of it", src.label));
            }
            if (!found->refused.empty()) return fail(found->refused);
            if (found->kind == providers::PackageKind::directory) {
                auto h1 = providers::h1_of_directory(found->path);
                if (!h1.ok()) return fail(h1.error);
                out.h1 = h1.value;
                out.unpacked = found->path;
                out.authentication = "unauthenticated";
                return Attempt{};
            }
            download_url = found->path.string();
            authentication = "unauthenticated";
        } else if (src.kind == Source::Kind::registry) {
            net::RegistryClient registry(client, src.host, src.base_url, src.token, options.engine_version,
                                         options.engine);
            auto lookup = registry.download(provider.provider, provider.version, out.platform);
            if (lookup.status == net::LookupStatus::not_found) return absent(lookup.error);
            if (!lookup.document) return fail(lookup.error);
            document = std::move(lookup.document);
            const auto& doc = *document;
            download_url = doc.download_url;
            trusted = {"zh:" + doc.shasum};
            // SHA256SUMS and signature: fetched and checked once per document.
            std::shared_ptr<std::mutex> document_mutex;
            {
                std::unique_lock lock(sums_cache.mutex);
                auto& slot = sums_cache.in_flight[doc.shasums_url];
                if (!slot) slot = std::make_shared<std::mutex>();
                document_mutex = slot;
            }
            std::unique_lock document_lock(*document_mutex);
            {
                std::unique_lock lock(sums_cache.mutex);
                auto it = sums_cache.by_url.find(doc.shasums_url);
                if (it != sums_cache.by_url.end()) sums = it->second;
            }
            if (sums.document.empty() && sums.error.empty()) {
                std::string error;
                auto sums_document = registry.fetch_document(doc.shasums_url, "authentication checksums", error);
                auto signature =
                    sums_document ? registry.fetch_document(doc.shasums_signature_url, "cryptographic signature", error)
                                  : std::nullopt;
                if (!sums_document || !signature) {
                    sums.error = error;
                } else {
                    sums.document = std::move(*sums_document);
                    sums.signature = std::move(*signature);
                    sums.verdict = verify_sums_signature(sums.document, sums.signature, doc.keys,
                                                         SignatureContext{options.engine, provider.provider.hostname});
                }
                std::unique_lock lock(sums_cache.mutex);
                sums_cache.by_url.try_emplace(doc.shasums_url, sums);
            }
            document_lock.unlock();
            if (!sums.error.empty()) return fail(sums.error);
            // What can be refused before any package is transferred; the
            // whole chain runs again on the package below.
            if (auto error = check_matching_checksum(sums.document, doc.filename, doc.shasum); !error.empty()) {
                return fail(error);
            }
            if (!sums.verdict.ok) return fail(sums.verdict.error);
        } else {
            net::MirrorClient mirror(client, src.base_url, src.token, options.engine_version, options.engine);
            auto version = mirror.version(provider.provider, provider.version);
            if (version.status == net::LookupStatus::not_found) return absent(version.error);
            if (version.status != net::LookupStatus::ok) return fail(version.error);
            auto it = version.archives.find(out.platform.to_string());
            if (it == version.archives.end()) {
                return absent(fmt::format("provider mirror {} does not have a package of {} {} for {}",
                                          net::redacted_url(src.base_url), addr, provider.version.to_string(),
                                          out.platform.to_string()));
            }
            download_url = it->second.url;
            mirror_hashes = it->second.hashes;
            trusted = mirror_hashes;
            authentication = mirror_hashes.empty() ? "unauthenticated" : "verified checksum";
        }

        // The package: from the download cache when it has a trusted hash,
        // else downloaded into this run's private directory.
        const std::string version_text = provider.version.to_string();
        fs::path zip;
        bool reused = false;
        if (src.kind == Source::Kind::filesystem_mirror) {
            zip = download_url;  // the mirror's zip, read where it is
            reused = true;
        } else if (cache) {
            auto cached = cache->find_package(provider.provider, version_text, out.platform, trusted);
            if (!cached.dropped.empty()) {
                std::unique_lock lock(count_mutex);
                result.warnings.push_back(cached.dropped);
            }
            if (cached.zip) {
                zip = *cached.zip;
                reused = true;
            }
        }
        if (!reused) {
            zip = *work_dir / fmt::format("{}-{}.zip", job.provider, job.platform);
            net::HttpRequest request;
            request.url = download_url;
            request.purpose = net::Purpose::download;
            request.max_bytes = options.max_package_bytes;
            request.sink = zip;
            request.progress = [&bar, index](std::uint64_t now, std::uint64_t /*total*/) { bar.add_bytes(index, now); };
            auto response = client.fetch(request);
            if (!response.transport_ok()) return fail(response.error_message);
            if (response.status != 200) {
                return fail(fmt::format("unsuccessful request to {}: {}", net::redacted_url(download_url),
                                        response.status_text));
            }
            std::unique_lock lock(count_mutex);
            ++result.downloads;
        }
        out.downloaded = !reused;
        auto zh = providers::zh_of_zip(zip);
        if (!zh.ok()) return fail(zh.error);
        out.zh = zh.value;
        // The registry's checks, in Terraform's order (OpenTofu's `packages`
        // first), on the package itself.
        if (document) {
            PackageAuthenticationInput input;
            input.archive = zip;
            input.filename = document->filename;
            input.shasum = document->shasum;
            input.sums_document = sums.document;
            input.sums_signature = sums.signature;
            input.keys = document->keys;
            input.context = SignatureContext{options.engine, provider.provider.hostname};
            input.signature_verdict = sums.verdict;
            input.platform = out.platform.to_string();
            if (options.engine == Engine::opentofu && !document->packages.empty()) {
                std::map<std::string, RegistryPackage> packages;
                for (const auto& [name, facts] : document->packages) {
                    packages[name] =
                        RegistryPackage{facts.hashes, static_cast<std::int64_t>(std::min<std::uint64_t>(
                                                          facts.size, std::numeric_limits<std::int64_t>::max()))};
                }
                input.packages = std::move(packages);
            }
            auto authenticated = authenticate_package(input);
            if (!authenticated.ok()) return fail(authenticated.error);
            authentication = describe(sums.verdict, options.engine);
            // Hashes the lock may record for every platform: what a key
            // signed; for OpenTofu with signing skipped, what the origin
            // registry reported (spec 3.7 step 6).
            std::vector<std::string> vouched = authenticated.signed_hashes;
            if (!authenticated.signed_by_any_party() && options.engine == Engine::opentofu) {
                vouched = sums_zh_hashes(sums.document);
                vouched.insert(vouched.end(), authenticated.registry_hashes.begin(),
                               authenticated.registry_hashes.end());
            }
            std::unique_lock lock(sums_cache.mutex);
            provider.signed_zh.insert(provider.signed_zh.end(), vouched.begin(), vouched.end());
            std::sort(provider.signed_zh.begin(), provider.signed_zh.end());
            provider.signed_zh.erase(std::unique(provider.signed_zh.begin(), provider.signed_zh.end()),
                                     provider.signed_zh.end());
        }
        // Unpack into a private directory and hash what came out.
        const fs::path unpacked = *work_dir / fmt::format("{}-{}", job.provider, job.platform);
        providers::UnpackLimits limits;
        limits.max_total_bytes = std::min(limits.max_total_bytes, options.max_package_bytes);
        limits.max_entry_bytes = std::min(limits.max_entry_bytes, options.max_package_bytes);
        auto unpack = providers::unpack_zip(zip, unpacked, limits);
        if (!unpack.ok()) return fail(unpack.error);
        auto h1 = providers::h1_of_directory(unpacked);
        if (!h1.ok()) return fail(h1.error);
        if (!mirror_hashes.empty()) {
            // Only the schemes tfsift can compute count (h1:, zh:), as upstream.
            std::vector<std::string> known;
            std::copy_if(mirror_hashes.begin(), mirror_hashes.end(), std::back_inserter(known),
                         [](const std::string& h) { return h.rfind("h1:", 0) == 0 || h.rfind("zh:", 0) == 0; });
            if (known.empty()) {
                return fail(
                    "this version of tfsift does not support any of the checksum formats given for this "
                    "provider");
            }
            const bool listed = std::any_of(known.begin(), known.end(),
                                            [&](const std::string& h) { return h == h1.value || h == zh.value; });
            if (!listed) {
                return fail(fmt::format("package doesn't match the expected checksum \"{}\" (its own is {})",
                                        known.front(), h1.value));
            }
        }
        out.h1 = h1.value;
        out.unpacked = unpacked;
        out.authentication = authentication;
        if (!reused) out.zip = zip;
        return Attempt{};
    };
    parallel_for(jobs.size(), threads, [&](std::size_t index) {
        struct Done {
            ProgressBar& bar;
            ~Done() { bar.finished(); }
        } done{bar};
        const Job job = jobs[index];
        FetchedProvider& provider = result.providers[job.provider];
        FetchedPlatform& out = provider.platforms[job.platform];
        const std::string addr = provider.provider.to_string();
        const auto& candidates = sources[job.provider];
        if (net::cancel_requested()) {
            out.error =
                fmt::format("{} {} ({}): interrupted", addr, provider.version.to_string(), out.platform.to_string());
            return;
        }
        net::HttpClient client(settings.network);
        std::vector<std::string> absent;  // why each source could not give it
        for (const auto& src : candidates) {
            const auto attempt = fetch_platform(src, provider, out, client, job, index);
            if (attempt.status == Attempt::Status::done) return;
            const std::string where = fmt::format("{} {} ({}) from {}", addr, provider.version.to_string(),
                                                  out.platform.to_string(), src.label);
            if (attempt.status == Attempt::Status::failed || candidates.size() == 1) {
                out.error = fmt::format("{}: {}", where, attempt.message);
                return;
            }
            absent.push_back(fmt::format("{}: {}", where, attempt.message));
        }
        out.error = fmt::format("provider {} {} is not available for {} from any of its sources", addr,
                                provider.version.to_string(), out.platform.to_string());
        for (const auto& why : absent) out.error += "\n- " + why;
    });
    // Only when everything worked: keep the verified packages for next time
    // (moved from the private directory, which lives in the cache).
    if (result.ok() && cache) {
        for (const auto& p : result.providers) {
            for (const auto& f : p.platforms) {
                if (f.zip.empty()) {
                    if (!f.zh.empty() && !cache->recall_h1(p.provider, p.version.to_string(), f.zh)) {
                        (void)cache->remember_h1(p.provider, p.version.to_string(), f.zh, f.h1);
                    }
                    continue;
                }
                if (auto stored = cache->store_package(p.provider, p.version.to_string(), f.platform, f.zip);
                    !stored.ok()) {
                    result.warnings.push_back(fmt::format("could not keep {} {} for {} in the download cache: {}",
                                                          p.provider.to_string(), p.version.to_string(),
                                                          f.platform.to_string(), stored.error));
                }
                if (auto remembered = cache->remember_h1(p.provider, p.version.to_string(), f.zh, f.h1);
                    !remembered.ok()) {
                    result.warnings.push_back(remembered.error);
                }
            }
        }
    }
    return result;
}

}  // namespace tfsift::online
