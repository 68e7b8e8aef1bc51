// Remote module packages for module calls: the one entry point the
// commands use to turn a call's `source` (and `version`) into a directory.
// It resolves the source (a registry version list, a git ref, an archive
// URL), looks for that package in the module cache (module_cache.hpp),
// verified against its digest, and, when it may use the network, fetches
// what is missing: from the module registry (modules.v1 discovery, host
// blocks and credentials as for providers, then the location the registry
// hands out), with the system git (git_fetcher.hpp), or as an https archive
// unpacked with libarchive (module_archive.hpp). Offline (the default for
// `lint`) it answers from the cache only and opens no socket.
//
// Thread-safe; each distinct (source, version) is resolved and fetched once
// per ModuleFetcher however many calls name it. Failures come back as
// values whose message names the host, the module and the reason, never a
// credential.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/online/module_archive.hpp"
#include "tfsift/providers/package_sources.hpp"

namespace tfsift::online {

struct ModuleFetchOptions {
    Engine engine = Engine::terraform;
    bool online = false;                // may open sockets and run git against remotes
    std::filesystem::path cache_dir;    // the module cache; empty: default_module_cache_dir()
    std::string engine_version;         // X-Terraform-Version for registry requests
    ModuleArchiveLimits limits;         // archives (their download too: at most limits.max_total_bytes)
};

enum class ModuleFetchStatus : std::uint8_t {
    ok,           // `dir` holds the module
    not_cached,   // offline and not in the cache: `tfsift fetch` would get it
    unsupported,  // a source tfsift does not fetch (s3::, gcs::, hg::, bitbucket.org/, oci://, ...)
    failed,       // the fetch (or the cached copy offline) failed: see summary / detail
};

struct ModuleFetchResult {
    ModuleFetchStatus status = ModuleFetchStatus::failed;
    std::filesystem::path package_dir;  // the root of the fetched package (local paths may not leave it)
    std::filesystem::path dir;          // the module: package_dir plus the subdirectories named
    std::string version;                // registry modules: the version chosen
    std::string resolved;               // version, git commit, or "sha256:<archive>"
    std::string revision;               // the git commit or "sha256:<archive>" the package came from
    std::string host;                   // where it comes from, for messages
    std::string summary;                // failures: e.g. "Unresolvable module version constraint"
    std::string detail;                 // failures: names host, module and reason
    bool fetched = false;               // transferred in this run (false: from the cache)
    [[nodiscard]] bool ok() const { return status == ModuleFetchStatus::ok; }
};

class ModuleFetcher {
public:
    ModuleFetcher(ModuleFetchOptions options, providers::Environment env);
    ~ModuleFetcher();
    ModuleFetcher(const ModuleFetcher&) = delete;
    ModuleFetcher& operator=(const ModuleFetcher&) = delete;

    // `source` as written in the call; `version`: the call's version
    // constraint, empty when it has none.
    [[nodiscard]] ModuleFetchResult fetch(const std::string& source, const std::string& version);

    [[nodiscard]] bool online() const;
    [[nodiscard]] const std::filesystem::path& cache_dir() const;
    // Settings that were ignored, credentials helpers that failed (said once).
    [[nodiscard]] std::vector<std::string> warnings() const;
    // Packages transferred so far.
    [[nodiscard]] std::uint64_t downloads() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tfsift::online
