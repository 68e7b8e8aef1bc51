// What a registry signed for one provider version, for `tfsift lint
// --online`: the versions list (is the version still published, for which
// platforms) and the signed SHA256SUMS (its `zh:` lines and the platforms it
// covers). One download document, SHA256SUMS and signature per version; no
// package is downloaded. Results are remembered for the process, so several
// rules and modules asking about the same version cost one round of requests.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/online/signature.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::online {

struct SignedChecksums {
    std::string error;                              // could not be checked: names host, provider, version
    bool version_listed = false;                    // the registry still lists the version
    std::vector<providers::Platform> platforms;     // platforms the versions list gives for it
    std::vector<std::string> zh;                    // every line of the signed SHA256SUMS, "zh:<hex>", sorted
    std::map<std::string, std::string> file_names;  // zh -> the file name its line gives
    std::string authentication;                     // "signed by HashiCorp", "self-signed, key ID ..."
    std::string key_id;                             // the primary ID of the key that signed SHA256SUMS
    TrustTier tier = TrustTier::community;          // what that key makes it
    [[nodiscard]] bool ok() const { return error.empty(); }
};

[[nodiscard]] SignedChecksums signed_checksums(const providers::Provider& provider, const providers::Version& version,
                                               Engine engine, const std::string& engine_version,
                                               const providers::Environment& env);

// The h1: hashes of a version's signed packages, for checking a lock entry's
// h1: hashes online. An h1: is the hash of what a package holds, so only
// the package itself can tell it: each platform's package is taken from the
// download cache when a zip with its signed zh: is there (its h1: is
// remembered beside it), else downloaded, checked against the signed zh:
// and kept in the cache. Platforms are visited in the order of `preferred`,
// then in SHA256SUMS order, and no further package is fetched once every
// hash of `wanted` is accounted for (all of them are fetched when one is
// not). Results are remembered for the process.
struct SignedPackageHashes {
    std::string error;                      // a package could not be fetched or hashed
    std::map<std::string, std::string> h1;  // h1: -> the platform of the signed package it is the hash of
    std::size_t platforms = 0;              // platforms SHA256SUMS lists packages for
    std::uint64_t downloads = 0;            // packages this call transferred
    [[nodiscard]] bool ok() const { return error.empty(); }
};

[[nodiscard]] SignedPackageHashes signed_package_hashes(const providers::Provider& provider,
                                                        const providers::Version& version, Engine engine,
                                                        const std::string& engine_version,
                                                        const providers::Environment& env,
                                                        const std::vector<std::string>& wanted,
                                                        const std::vector<std::string>& preferred);

// The platform a SHA256SUMS file name is for
// ("terraform-provider-x_1.0.0_linux_amd64.zip" -> "linux_amd64"); empty for
// a file that is not a package of `version`.
[[nodiscard]] std::string platform_of_package_file(const std::string& name, const std::string& version);

// The errors of every check so far that could not be made (registry
// unreachable, bad signature ...): `tfsift lint` exits 2 when there are any,
// since an online check that did not happen is not a pass.
[[nodiscard]] std::vector<std::string> failed_online_checks();

}  // namespace tfsift::online
