// What a registry signed for one provider version, for `tfsift lint
// --online`: the versions list (is the version still published, for which
// platforms) and the signed SHA256SUMS (its `zh:` lines and the platforms it
// covers). One download document, SHA256SUMS and signature per version; no
// package is downloaded. Results are remembered for the process, so several
// rules and modules asking about the same version cost one round of requests.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::online {

struct SignedChecksums {
    std::string error;                            // could not be checked: names host, provider, version
    bool version_listed = false;                  // the registry still lists the version
    std::vector<providers::Platform> platforms;   // platforms the versions list gives for it
    std::vector<std::string> zh;                  // every line of the signed SHA256SUMS, "zh:<hex>", sorted
    std::map<std::string, std::string> file_names;  // zh -> the file name its line gives
    std::string authentication;                   // "signed by HashiCorp", "self-signed, key ID ..."
    [[nodiscard]] bool ok() const { return error.empty(); }
};

[[nodiscard]] SignedChecksums signed_checksums(const providers::Provider& provider, const providers::Version& version,
                                               Engine engine, const std::string& engine_version,
                                               const providers::Environment& env);

// The errors of every check so far that could not be made (registry
// unreachable, bad signature ...): `tfsift lint` exits 2 when there are any,
// since an online check that did not happen is not a pass.
[[nodiscard]] std::vector<std::string> failed_online_checks();

}  // namespace tfsift::online
