#include "tfsift/providers/package_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "tfsift/providers/hash.hpp"

namespace tfsift::providers {

namespace {

constexpr std::string_view kH1 = "h1:";
constexpr std::string_view kZh = "zh:";
constexpr std::string_view kChecksumHelp =
    "for more information: https://www.terraform.io/language/provider-checksum-verification";

PackageHash h1_of(const std::filesystem::path& package, PackageKind kind) {
    return kind == PackageKind::zip ? h1_of_zip(package) : h1_of_directory(package);
}

}  // namespace

HashMatch package_matches_hash(const std::filesystem::path& package, PackageKind kind, std::string_view hash) {
    if (hash.starts_with(kH1)) {
        auto got = h1_of(package, kind);
        if (!got.ok()) return {false, got.error};
        return {got.value == hash, {}};
    }
    if (hash.starts_with(kZh)) {
        if (kind != PackageKind::zip) {
            return {false, "ziphash scheme (\"zh:\" prefix) is not supported for unpacked provider packages"};
        }
        auto got = zh_of_zip(package);
        if (!got.ok()) return {false, got.error};
        return {got.value == hash, {}};
    }
    return {false, "unsupported hash format (this may require a newer version of Terraform)"};
}

HashMatch package_matches_any_hash(const std::filesystem::path& package, PackageKind kind,
                                   std::span<const std::string> hashes) {
    std::optional<PackageHash> h1;
    std::optional<PackageHash> zh;
    for (const auto& want : hashes) {
        std::optional<PackageHash>* computed = nullptr;
        if (std::string_view(want).starts_with(kH1)) {
            computed = &h1;
            if (!h1) h1 = h1_of(package, kind);
        } else if (std::string_view(want).starts_with(kZh) && kind == PackageKind::zip) {
            computed = &zh;
            if (!zh) zh = zh_of_zip(package);
        } else {
            continue;  // a zh: never matches a directory; unknown schemes never match
        }
        if (!(*computed)->ok()) return {false, (*computed)->error};
        if ((*computed)->value == want) return {true, {}};
    }
    return {false, {}};
}

std::vector<std::string> preferred_hashes(std::span<const std::string> hashes) {
    std::vector<std::string> out;
    for (const auto& h : hashes) {
        if (std::string_view(h).starts_with(kH1) || std::string_view(h).starts_with(kZh)) out.push_back(h);
    }
    return out;
}

InstallCheck verify_package_for_install(const std::filesystem::path& package, PackageKind kind,
                                        std::span<const std::string> hashes, const PackageIdentity& identity) {
    const auto allowed = preferred_hashes(hashes);
    if (allowed.empty()) return {};
    if (kind == PackageKind::directory &&
        std::all_of(allowed.begin(), allowed.end(), [](const std::string& h) { return h.starts_with(kZh); })) {
        // A directory can never match zh:, and refusing would block every
        // unpacked mirror for providers locked from the registry.
        return {};
    }
    const auto match = package_matches_any_hash(package, kind, allowed);
    if (!match.error.empty()) {
        return {false, fmt::format("failed to calculate checksum for {} {} package at {}: {}", identity.provider,
                                   identity.version, identity.location, match.error)};
    }
    if (match.matches) return {};
    if (kind == PackageKind::zip) {
        return {false, fmt::format("the current package for {} {} doesn't match any of the checksums previously "
                                   "recorded in the dependency lock file; {}",
                                   identity.provider, identity.version, kChecksumHelp)};
    }
    return {false, fmt::format("the local package for {} {} doesn't match any of the checksums previously recorded "
                               "in the dependency lock file (this might be because the available checksums are for "
                               "packages targeting different platforms); {}",
                               identity.provider, identity.version, kChecksumHelp)};
}

}  // namespace tfsift::providers
