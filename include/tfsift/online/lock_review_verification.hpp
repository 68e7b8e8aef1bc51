// Whether the hashes a lock-file change adds are ones the provider's author
// signed, for `tfsift lock diff` (docs/lock-review.md). Built on what
// `lint --online` asks (lock_verification.hpp): an added `zh:` must be a line
// of the version's signed SHA256SUMS, an added `h1:` the hash of one of the
// packages that SHA256SUMS lists, taken from the download cache when it can
// vouch for them and downloaded (then cached) otherwise. Every answer names
// the key that signed and Terraform's trust tier, and maps each hash it can
// to its platform: a `zh:` through the SHA256SUMS file name, an `h1:`
// through the package it matched.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::online {

// One provider version to ask its registry about.
struct VersionQuestion {
    providers::Provider provider;
    providers::Version version;
    std::vector<std::string> verify;    // hashes that must be signed (the added ones)
    std::vector<std::string> classify;  // hashes whose platform is wanted, without downloading for them
};

struct HashVerdict {
    std::string hash;
    bool is_signed = false;
    std::string platform;  // "" when no signed package tells it
};

struct VersionAnswer {
    providers::Provider provider;
    providers::Version version;
    // The check could not be made (registry unreachable, bad signature, a
    // package that cannot be fetched): names host, provider, version and,
    // for a package, the platform. The verdicts are empty then.
    std::string error;
    bool listed = true;                 // false: the registry does not publish the version (nothing it signed)
    std::string key_id;                 // the key that signed the version's SHA256SUMS
    std::string trust;                  // its trust tier as the engine labels it ("signed by HashiCorp", "self-signed")
    std::vector<HashVerdict> verdicts;  // of `verify`, in its order
    std::map<std::string, std::string> platform_of;  // hash -> platform, for every hash asked about that has one
    std::uint64_t downloads = 0;                     // packages transferred for this answer
    [[nodiscard]] bool ok() const { return error.empty(); }
};

struct VerificationOptions {
    Engine engine = Engine::terraform;
    std::string engine_version;          // sent as X-Terraform-Version
    unsigned jobs = 0;                   // versions asked about at once; 0: 8
    std::filesystem::path cache_dir;     // the download cache; empty: default_cache_dir(env)
    std::vector<std::string> preferred;  // platforms whose packages are looked at first
};

// Answers every question, up to `jobs` at a time; the answers come in the
// questions' order. Questions about the same provider version share their
// requests and packages.
[[nodiscard]] std::vector<VersionAnswer> verify_lock_hashes(const std::vector<VersionQuestion>& questions,
                                                            const VerificationOptions& options,
                                                            const providers::Environment& env);

}  // namespace tfsift::online
