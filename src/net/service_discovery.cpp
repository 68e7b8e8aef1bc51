// Service discovery with host-block overrides.
#include "tfsift/net/service_discovery.hpp"

#include <fmt/format.h>

#include "tfsift/net/json_body.hpp"
#include "tfsift/net/url.hpp"

namespace tfsift::net {

namespace {

constexpr std::string_view kService = "providers.v1";

ServiceUrl failure(std::string message) { return ServiceUrl{{}, std::move(message)}; }

}  // namespace

ServiceUrl providers_service_of(const std::string& host, const nlohmann::json& document, const std::string& final_url) {
    if (!document.is_object()) {
        return failure(fmt::format("failed to decode discovery document from {}: not a JSON object", final_url));
    }
    auto it = document.find(kService);
    if (it == document.end()) {
        for (const auto& [id, value] : document.items()) {
            if (id.rfind("providers.v", 0) == 0) {
                return failure(
                    fmt::format("host {} does not support the provider registry protocol required by this "
                                "Terraform version, but may be compatible with a different Terraform "
                                "version",
                                host));
            }
        }
        return failure(fmt::format("host {} does not offer a Terraform provider registry", host));
    }
    if (!it->is_string()) {
        return failure(
            fmt::format("host {}: service {} in the discovery document is not a string URL", host, kService));
    }
    auto resolved = resolve_reference(final_url, it->get<std::string>());
    auto parsed = resolved ? parse_absolute_url(*resolved) : std::nullopt;
    if (!parsed || parsed->host.empty() || (parsed->scheme != "https" && parsed->scheme != "http")) {
        return failure(fmt::format("host {}: service {} URL \"{}\" is not an http or https URL", host, kService,
                                   it->get<std::string>()));
    }
    if (!parsed->userinfo.empty()) {
        return failure(fmt::format("host {}: service {} URL must not contain user information", host, kService));
    }
    return ServiceUrl{*resolved, {}};
}

ServiceDiscovery::ServiceDiscovery(HttpClient& client, const NetworkConfig& config, Credentials& credentials)
    : client_(client), config_(config), credentials_(credentials) {}

ServiceUrl ServiceDiscovery::providers_v1(const std::string& host) {
    if (auto it = cache_.find(host); it != cache_.end()) return it->second;
    const std::string discovery_url = "https://" + host + "/.well-known/terraform.json";
    ServiceUrl result;
    if (auto forced = config_.host_services.find(host); forced != config_.host_services.end()) {
        nlohmann::json document = nlohmann::json::object();
        for (const auto& [id, url] : forced->second) document[id] = url;
        result = providers_service_of(host, document, discovery_url);
    } else {
        HttpRequest request;
        request.url = discovery_url;
        request.purpose = Purpose::discovery;
        request.headers = {"Accept: application/json"};
        request.bearer_token = credentials_.token_for(host);
        request.max_bytes = 1U << 20;
        auto response = client_.fetch(request);
        if (!response.transport_ok()) {
            // The client's message already names the host ("could not connect to HOST: ...").
            result = failure(
                response.error == TransportError::connect
                    ? response.error_message
                    : fmt::format("failed to request discovery document from {}: {}", host, response.error_message));
        } else if (response.status == 404) {
            result = failure(fmt::format("host {} does not offer a Terraform provider registry", host));
        } else if (response.status != 200) {
            result =
                failure(fmt::format("failed to request discovery document from {}: {}", host, response.status_text));
        } else if (!is_json_media_type(response.content_type)) {
            result = failure(fmt::format("discovery URL {} returned an unsupported Content-Type \"{}\"",
                                         response.effective_url, response.content_type));
        } else {
            std::string error;
            auto document = decode_json_body(response.body, error);
            result = document ? providers_service_of(host, *document, response.effective_url)
                              : failure(fmt::format("failed to decode discovery document from {}: {}",
                                                    response.effective_url, error));
        }
    }
    cache_[host] = result;
    return result;
}

}  // namespace tfsift::net
