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
    // The URL comes from a `host` block of the user's CLI configuration,
    // not from a discovery document the host (or a redirect) served.
    bool configured_by_user = false;
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Whether the token of `host` (a source address's host, "name[:port]") may
// go to the service at `service`: when the service lies on that same host
// and port, or the user's own `host` block named it. A discovery document,
// or a redirect of the discovery request, cannot send the token elsewhere.
// Terraform sends it to whatever service URL discovery gives.
[[nodiscard]] bool token_may_go_to(const std::string& host, const ServiceUrl& service);

class ServiceDiscovery {
public:
    ServiceDiscovery(HttpClient& client, const NetworkConfig& config, Credentials& credentials);

    // The "providers.v1" base URL of `host` (comparison form).
    [[nodiscard]] ServiceUrl providers_v1(const std::string& host);
    // The "modules.v1" base URL of `host`, from the same document.
    [[nodiscard]] ServiceUrl modules_v1(const std::string& host);

    // The token of `host` for requests to `service` (empty when
    // token_may_go_to says no, or there is none).
    [[nodiscard]] std::string token_for_service(const std::string& host, const ServiceUrl& service);

private:
    // The discovery document of `host` as a JSON object with its final URL,
    // or the failure (one request per host, however many services are asked).
    struct Document {
        nlohmann::json json;
        std::string final_url;
        std::string error;
        bool not_found = false;           // 404: the host offers no registry at all
        bool configured_by_user = false;  // from a `host` block, not a request
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
