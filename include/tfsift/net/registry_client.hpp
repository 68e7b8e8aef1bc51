// The provider registry protocol (spec 5.3-5.4, online-installer 1.2): the
// versions list and the download document of one platform, decoded with
// upstream's checks and error texts. The decoders are pure and tested on
// their own; RegistryClient adds the requests.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tfsift/engine.hpp"
#include "tfsift/net/http_client.hpp"
#include "tfsift/online/signature.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::net {

enum class LookupStatus : unsigned char {
    ok,
    not_found,     // versions: the registry does not know the provider; download: not for this platform
    unauthorized,  // 401 / 403
    failed,        // anything else; `error` says what
};

struct VersionList {
    LookupStatus status = LookupStatus::failed;
    std::vector<providers::Version> versions;  // valid ones, duplicates removed, ascending
    std::vector<std::string> warnings;         // the registry's own "warnings"
    // The platforms each version lists (registry versions lists only), by
    // canonical version string.
    std::map<std::string, std::vector<providers::Platform>> platforms;
    std::string error;
};

// OpenTofu's `packages` extension entry for one platform.
struct PackageFacts {
    std::vector<std::string> hashes;
    std::uint64_t size = 0;
};

struct DownloadDocument {
    std::vector<std::string> protocols;
    std::string os;
    std::string arch;
    std::string filename;
    std::string download_url;  // resolved against the document's final URL
    std::string shasums_url;
    std::string shasums_signature_url;
    std::string shasum;  // 64 hex digits
    std::vector<online::SigningKey> keys;
    std::map<std::string, PackageFacts> packages;  // OpenTofu; keyed by OS_ARCH
};

struct DownloadLookup {
    LookupStatus status = LookupStatus::failed;
    std::optional<DownloadDocument> document;
    std::string error;
};

// Pure decoders. `addr` is the provider's display string for messages.
[[nodiscard]] VersionList decode_version_list(const std::string& body, const std::string& url);
[[nodiscard]] DownloadLookup decode_download_document(const std::string& body, const std::string& final_url,
                                                      const std::string& addr, const providers::Version& version,
                                                      const providers::Platform& platform);

class RegistryClient {
public:
    // `base_url`: the host's providers.v1 URL. `token`: the host's
    // credentials (may be empty). `engine_version`: X-Terraform-Version.
    RegistryClient(HttpClient& client, std::string host, std::string base_url, std::string token,
                   std::string engine_version, Engine engine);

    [[nodiscard]] VersionList versions(const providers::Provider& provider);
    [[nodiscard]] DownloadLookup download(const providers::Provider& provider, const providers::Version& version,
                                          const providers::Platform& platform);
    // A file the download document names (SHA256SUMS, its signature): no
    // credentials, no X-Terraform-Version. Empty optional with `error` set
    // on failure, in Terraform's words ("... checksums ...").
    [[nodiscard]] std::optional<std::string> fetch_document(const std::string& url, std::string_view what,
                                                            std::string& error);

private:
    std::string failed_query(const providers::Provider& provider, const std::string& why) const;
    std::string unauthorized(long status) const;

    HttpClient& client_;
    std::string host_;
    std::string base_url_;
    std::string token_;
    std::string engine_version_;
    Engine engine_;
};

}  // namespace tfsift::net
