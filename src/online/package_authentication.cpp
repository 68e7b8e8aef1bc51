#include "tfsift/online/package_authentication.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <system_error>

#include "tfsift/providers/hash.hpp"

namespace tfsift::online {

namespace {

constexpr std::size_t kSha256HexDigits = 64;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Whitespace-separated fields, like Go's bytes.Fields on ASCII text.
std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

std::vector<std::string_view> lines(std::string_view document) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (;;) {
        const auto end = document.find('\n', start);
        if (end == std::string_view::npos) {
            out.push_back(document.substr(start));
            return out;
        }
        out.push_back(document.substr(start, end - start));
        start = end + 1;
    }
}

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](char c) { return c >= 'A' && c <= 'F' ? static_cast<char>(c - 'A' + 'a') : c; });
    return out;
}

// Why `text` is not a SHA-256 in hex, in Go's encoding/hex wording where it
// has one; empty when it is one.
std::string hex_sha256_problem(std::string_view text) {
    for (const char c : text) {
        if (!is_hex(c)) {
            const auto code = static_cast<unsigned char>(c);
            if (code >= 0x20 && code < 0x7F) return fmt::format("encoding/hex: invalid byte: U+{:04X} '{}'", code, c);
            return fmt::format("encoding/hex: invalid byte: U+{:04X}", code);
        }
    }
    if (text.size() % 2 != 0) return "encoding/hex: odd length hex string";
    if (text.size() != kSha256HexDigits) {
        return fmt::format("expected {} hex digits, found {}", kSha256HexDigits, text.size());
    }
    return {};
}

}  // namespace

std::vector<std::string> sums_zh_hashes(std::string_view document) {
    std::vector<std::string> hashes;
    for (const auto line : lines(document)) {
        const auto parts = fields(line);
        if (parts.empty()) continue;
        if (parts.size() < 2 || parts[0].size() != kSha256HexDigits ||
            !std::all_of(parts[0].begin(), parts[0].end(), is_hex)) {
            return {};  // not a checksums file
        }
        hashes.push_back("zh:" + lower(parts[0]));
    }
    return hashes;
}

std::map<std::string, std::string> sums_file_names(std::string_view document) {
    std::map<std::string, std::string> names;
    if (sums_zh_hashes(document).empty()) return names;
    for (const auto line : lines(document)) {
        const auto parts = fields(line);
        if (parts.size() >= 2) names.try_emplace("zh:" + lower(parts[0]), std::string(parts[1]));
    }
    return names;
}

std::string check_matching_checksum(std::string_view document, std::string_view filename,
                                    std::string_view want_sha256) {
    std::optional<std::string_view> checksum;
    for (const auto line : lines(document)) {
        const auto parts = fields(line);
        if (parts.size() > 1 && parts[1] == filename) {
            checksum = parts[0];
            break;
        }
    }
    if (!checksum) return fmt::format("checksum list has no SHA-256 hash for \"{}\"", filename);
    if (auto problem = hex_sha256_problem(*checksum); !problem.empty()) {
        return fmt::format("checksum list has invalid SHA256 hash \"{}\": {}", *checksum, problem);
    }
    if (lower(*checksum) != lower(want_sha256)) {
        return fmt::format("checksum list has unexpected SHA-256 hash {} (expected {})", lower(*checksum),
                           lower(want_sha256));
    }
    return {};
}

std::string check_archive_checksum(const std::filesystem::path& archive, std::string_view want_sha256) {
    const auto got = providers::zh_of_zip(archive);
    if (!got.ok()) return fmt::format("failed to compute checksum for {}: {}", archive.string(), got.error);
    const auto want = "zh:" + lower(want_sha256);
    if (got.value != want) return fmt::format("archive has incorrect checksum {} (expected {})", got.value, want);
    return {};
}

std::string check_registry_packages(const std::map<std::string, RegistryPackage>& packages, std::string_view platform,
                                    const std::filesystem::path& archive, std::string_view want_sha256) {
    const auto entry = packages.find(std::string(platform));
    if (entry == packages.end()) {
        return fmt::format("the registry's package list has no entry for {}", platform);
    }
    const auto& package = entry->second;
    if (package.package_size <= 0) {
        return fmt::format("the registry's package list gives {} an invalid size of {} bytes", platform,
                           package.package_size);
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(archive, ec);
    if (ec) return fmt::format("failed to read the size of {}: {}", archive.string(), ec.message());
    if (size != static_cast<std::uintmax_t>(package.package_size)) {
        return fmt::format("the downloaded package for {} has {} bytes, but the registry's package list says {}",
                           platform, size, package.package_size);
    }
    const auto want = "zh:" + lower(want_sha256);
    bool any_zh = false;
    for (const auto& hash : package.hashes) {
        if (!hash.starts_with("zh:")) continue;
        any_zh = true;
        if (lower(hash) != want) {
            return fmt::format("the registry's package list has checksum {} for {}, but its download has {}", hash,
                               platform, want);
        }
    }
    if (!any_zh) return fmt::format("the registry's package list has no zh: checksum for {}", platform);
    return {};
}

PackageAuthenticationResult authenticate_sums(std::string_view sums_document, std::string_view sums_signature,
                                              std::span<const SigningKey> keys, const SignatureContext& context) {
    PackageAuthenticationResult result;
    const auto verdict = verify_sums_signature(sums_document, sums_signature, keys, context);
    if (!verdict.ok) {
        result.error = verdict.error;
        return result;
    }
    result.tier = verdict.tier;
    result.key_id = verdict.key_id;
    result.warnings = verdict.warnings;
    if (result.signed_by_any_party()) result.signed_hashes = sums_zh_hashes(sums_document);
    return result;
}

PackageAuthenticationResult authenticate_package(const PackageAuthenticationInput& input) {
    PackageAuthenticationResult result;
    const auto fail = [&result](std::string error) {
        result.error = std::move(error);
        return result;
    };
    if (auto problem = hex_sha256_problem(input.shasum); !problem.empty()) {
        return fail(fmt::format("registry response includes invalid SHA256 hash \"{}\": {}", input.shasum, problem));
    }

    if (input.packages && input.context.engine == Engine::opentofu) {
        if (auto error = check_registry_packages(*input.packages, input.platform, input.archive, input.shasum);
            !error.empty()) {
            return fail(std::move(error));
        }
        std::set<std::string> seen;
        for (const auto& [platform, package] : *input.packages) {
            for (const auto& hash : package.hashes) {
                if ((hash.starts_with("zh:") || hash.starts_with("h1:")) && seen.insert(hash).second) {
                    result.registry_hashes.push_back(hash);
                }
            }
        }
    }
    if (auto error = check_matching_checksum(input.sums_document, input.filename, input.shasum); !error.empty()) {
        return fail(std::move(error));
    }
    if (auto error = check_archive_checksum(input.archive, input.shasum); !error.empty()) {
        return fail(std::move(error));
    }

    const auto verdict = input.signature_verdict ? *input.signature_verdict
                                                 : verify_sums_signature(input.sums_document, input.sums_signature,
                                                                         input.keys, input.context);
    if (!verdict.ok) return fail(verdict.error);
    result.tier = verdict.tier;
    result.key_id = verdict.key_id;
    result.warnings = verdict.warnings;
    if (result.signed_by_any_party()) result.signed_hashes = sums_zh_hashes(input.sums_document);
    return result;
}

}  // namespace tfsift::online
