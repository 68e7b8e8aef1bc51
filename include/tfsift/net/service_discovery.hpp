// Terraform's service discovery (spec 5.1, online-installer 1.1): where a
// host's provider registry lives. A `host` block of the CLI configuration
// answers without a request; otherwise GET
// https://HOST/.well-known/terraform.json (11 s, 3 redirects, no retries,
// at most 1 MiB, application/json). Answers are kept per host.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "tfsift/net/http_client.hpp"
#include "tfsift/net/network_config.hpp"

namespace tfsift::net {

struct ServiceUrl {
    std::string url;    // absolute; empty on error
    std::string error;  // upstream wording, naming the host
    [[nodiscard]] bool ok() const { return error.empty(); }
};

class ServiceDiscovery {
public:
    ServiceDiscovery(HttpClient& client, const NetworkConfig& config, Credentials& credentials);

    // The "providers.v1" base URL of `host` (comparison form).
    [[nodiscard]] ServiceUrl providers_v1(const std::string& host);
    // The "modules.v1" base URL of `host`, from the same document.
    [[nodiscard]] ServiceUrl modules_v1(const std::string& host);

private:
    // The discovery document of `host` as a JSON object with its final URL,
    // or the failure (one request per host, however many services are asked).
    struct Document {
        nlohmann::json json;
        std::string final_url;
        std::string error;
        bool not_found = false;  // 404: the host offers no registry at all
    };
    const Document& document_of(const std::string& host);

    HttpClient& client_;
    const NetworkConfig& config_;
    Credentials& credentials_;
    std::map<std::string, Document> cache_;
};

// The pure part: a discovery document (already decoded from `final_url`)
// to the providers.v1 URL, with upstream's errors.
[[nodiscard]] ServiceUrl providers_service_of(const std::string& host, const nlohmann::json& document,
                                              const std::string& final_url);
// The same for the "modules.v1" service.
[[nodiscard]] ServiceUrl modules_service_of(const std::string& host, const nlohmann::json& document,
                                            const std::string& final_url);

}  // namespace tfsift::net
