// The provider network mirror protocol (spec 6, online-installer 1.4):
// index.json lists versions, <version>.json lists archives per platform with
// their hashes. Mirror requests carry the mirror host's credentials; a
// package download carries none. Decoders are pure.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tfsift/net/http_client.hpp"
#include "tfsift/net/registry_client.hpp"

namespace tfsift::net {

struct MirrorArchive {
    std::string url;                  // resolved against the version document's final URL
    std::string filename;             // last path segment of `url`
    std::vector<std::string> hashes;  // as listed (h1: usually)
};

struct MirrorVersion {
    LookupStatus status = LookupStatus::failed;
    std::map<std::string, MirrorArchive> archives;  // OS_ARCH -> archive
    std::string error;
};

[[nodiscard]] VersionList decode_mirror_index(const std::string& body, const std::string& url);
[[nodiscard]] MirrorVersion decode_mirror_version(const std::string& body, const std::string& final_url);

class MirrorClient {
public:
    // `base_url` must be https and should end in "/".
    MirrorClient(HttpClient& client, std::string base_url, std::string token, std::string engine_version,
                 Engine engine);

    [[nodiscard]] VersionList versions(const providers::Provider& provider);
    [[nodiscard]] MirrorVersion version(const providers::Provider& provider, const providers::Version& version);
    [[nodiscard]] const std::string& base_url() const { return base_url_; }

private:
    HttpResponse get(const std::string& path);
    std::string unauthorized(long status) const;

    HttpClient& client_;
    std::string base_url_;
    std::string token_;
    std::string engine_version_;
    Engine engine_;
};

}  // namespace tfsift::net
