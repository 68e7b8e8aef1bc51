// Authenticating a provider package downloaded from a registry, the way
// `terraform init` / `terraform providers lock` do after the download and
// before unpacking (spec providers-and-locks 5.5, online-installer 1.2):
//
//   1. the SHA256SUMS line for the package's file name names the hash the
//      download document promised (`shasum`),
//   2. the downloaded archive has that hash,
//   3. the SHA256SUMS document carries a valid signature by one of the
//      registry's keys (signature.hpp), which decides the trust tier.
//
// OpenTofu first checks its `packages` extension of the download document
// (spec 5.6) when the registry sent one. A package signed at any tier
// vouches for every `zh:` of its SHA256SUMS, which is what the lock file
// records for all platforms. Pure functions over bytes and one file; the
// HTTP that fetched them is elsewhere.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/online/signature.hpp"

namespace tfsift::online {

// ---- SHA256SUMS -------------------------------------------------------------

// The `zh:` hashes a SHA256SUMS document lists, one per line in document
// order (every line, also for files that are not zips). All or nothing: when
// a non-blank line is not "<64 hex digits> <name>", the document is not a
// checksums file and the result is empty. Blank lines are ignored (Terraform
// would stop at one; registries never send them).
[[nodiscard]] std::vector<std::string> sums_zh_hashes(std::string_view document);

// The file name each `zh:` of sums_zh_hashes() is listed for (the first
// line's, when a hash is listed twice); empty when the document is not a
// checksums file.
[[nodiscard]] std::map<std::string, std::string> sums_file_names(std::string_view document);

// Step 1: the first line whose second field is exactly `filename` must name
// `want_sha256` (64 hex digits). Returns Terraform's error text, or empty:
//   checksum list has no SHA-256 hash for "<filename>"
//   checksum list has invalid SHA256 hash "<text>": <reason>
//   checksum list has unexpected SHA-256 hash <got> (expected <want>)
[[nodiscard]] std::string check_matching_checksum(std::string_view document, std::string_view filename,
                                                  std::string_view want_sha256);

// Step 2: the archive's SHA-256 must be `want_sha256`. Returns the error
// text, or empty:
//   archive has incorrect checksum zh:<got> (expected zh:<want>)
//   failed to compute checksum for <path>: <reason>
[[nodiscard]] std::string check_archive_checksum(const std::filesystem::path& archive, std::string_view want_sha256);

// ---- OpenTofu's `packages` extension ------------------------------------------

// One platform's entry of a download document's `packages` object.
struct RegistryPackage {
    std::vector<std::string> hashes;  // "zh:…", "h1:…" (other schemes kept, never matched)
    std::int64_t package_size = 0;
};

// Step 0 under OpenTofu, when the download document had `packages`: the
// requested platform must be listed with a positive size equal to the
// archive's, and its `zh:` hashes (at least one) must all be zh:<shasum>.
// Returns the error text, or empty.
[[nodiscard]] std::string check_registry_packages(const std::map<std::string, RegistryPackage>& packages,
                                                  std::string_view platform, const std::filesystem::path& archive,
                                                  std::string_view want_sha256);

// ---- the whole chain ----------------------------------------------------------

struct PackageAuthenticationInput {
    std::filesystem::path archive;  // the downloaded zip
    std::string filename;           // the download document's `filename`
    std::string shasum;             // the download document's `shasum`
    std::string sums_document;      // SHA256SUMS as downloaded
    std::string sums_signature;     // SHA256SUMS.sig as downloaded (binary)
    std::vector<SigningKey> keys;   // `signing_keys.gpg_public_keys`
    SignatureContext context;
    // A verdict already reached for this very SHA256SUMS and signature (they
    // cover every platform of a version, so one check serves them all); when
    // empty, the signature is checked here.
    std::optional<SignatureVerdict> signature_verdict;
    // OpenTofu: the download document's `packages`, when it had one, and the
    // requested platform ("linux_amd64").
    std::optional<std::map<std::string, RegistryPackage>> packages;
    std::string platform;
};

struct PackageAuthenticationResult {
    std::string error;  // empty on success; upstream wording otherwise
    TrustTier tier = TrustTier::community;
    std::string key_id;                        // the signing key's primary ID, when signed
    std::vector<std::string> signed_hashes;    // every zh: of SHA256SUMS, only when signed at any tier
    std::vector<std::string> registry_hashes;  // OpenTofu: every platform's known hashes from `packages`
    std::vector<std::string> warnings;
    [[nodiscard]] bool ok() const { return error.empty(); }
    // Whether a key vouched for the package (not OpenTofu's "signing skipped").
    [[nodiscard]] bool signed_by_any_party() const { return ok() && tier != TrustTier::unsigned_; }
};

// Runs the checks in Terraform's order and stops at the first failure.
[[nodiscard]] PackageAuthenticationResult authenticate_package(const PackageAuthenticationInput& input);

// What `lint --online` needs without any archive: the signature over a
// version's SHA256SUMS, and the zh: set it vouches for.
[[nodiscard]] PackageAuthenticationResult authenticate_sums(std::string_view sums_document,
                                                            std::string_view sums_signature,
                                                            std::span<const SigningKey> keys,
                                                            const SignatureContext& context);

}  // namespace tfsift::online
