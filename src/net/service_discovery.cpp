// Service discovery with host-block overrides.
#include "tfsift/net/service_discovery.hpp"

#include <fmt/format.h>

#include "tfsift/net/json_body.hpp"
#include "tfsift/net/url.hpp"

namespace tfsift::net {

namespace {

ServiceUrl failure(std::string message) { return ServiceUrl{{}, std::move(message)}; }

// `family` is "providers" or "modules"; `kind` names the registry in messages.
ServiceUrl service_of(const std::string& host, const nlohmann::json& document, const std::string& final_url,
                      std::string_view family, std::string_view kind) {
    const std::string service = fmt::format("{}.v1", family);
    if (!document.is_object()) {
        return failure(
            fmt::format("failed to decode discovery document from {}: not a JSON object", redacted_url(final_url)));
    }
    auto it = document.find(service);
    if (it == document.end()) {
        const std::string other = fmt::format("{}.v", family);
        for (const auto& [id, value] : document.items()) {
            if (id.rfind(other, 0) == 0) {
                return failure(
                    fmt::format("host {} does not support the {} registry protocol required by this "
                                "Terraform version, but may be compatible with a different Terraform "
                                "version",
                                host, kind));
            }
        }
        return failure(fmt::format("host {} does not offer a Terraform {} registry", host, kind));
    }
    if (!it->is_string()) {
        return failure(fmt::format("host {}: service {} in the discovery document is not a string URL", host, service));
    }
    auto resolved = resolve_reference(final_url, it->get<std::string>());
    auto parsed = resolved ? parse_absolute_url(*resolved) : std::nullopt;
    if (!parsed || parsed->host.empty() || (parsed->scheme != "https" && parsed->scheme != "http")) {
        return failure(fmt::format("host {}: service {} URL \"{}\" is not an http or https URL", host, service,
                                   redacted_url(it->get<std::string>())));
    }
    if (!parsed->userinfo.empty()) {
        return failure(fmt::format("host {}: service {} URL must not contain user information", host, service));
    }
    return ServiceUrl{*resolved, {}};
}

}  // namespace

ServiceUrl providers_service_of(const std::string& host, const nlohmann::json& document, const std::string& final_url) {
    return service_of(host, document, final_url, "providers", "provider");
}

ServiceUrl modules_service_of(const std::string& host, const nlohmann::json& document, const std::string& final_url) {
    return service_of(host, document, final_url, "modules", "module");
}

bool token_may_go_to(const std::string& host, const ServiceUrl& service) {
    if (!service.ok()) return false;
    if (service.configured_by_user) return true;
    const auto own = parse_absolute_url("https://" + host);
    const auto target = parse_absolute_url(service.url);
    return own && target && target->scheme == "https" && own->host_port() == target->host_port();
}

std::string ServiceDiscovery::token_for_service(const std::string& host, const ServiceUrl& service) {
    return token_may_go_to(host, service) ? credentials_.token_for(host) : std::string();
}

ServiceDiscovery::ServiceDiscovery(HttpClient& client, const NetworkConfig& config, Credentials& credentials)
    : client_(client), config_(config), credentials_(credentials) {}

const ServiceDiscovery::Document& ServiceDiscovery::document_of(const std::string& host) {
    if (auto it = cache_.find(host); it != cache_.end()) return it->second;
    Document result;
    result.final_url = "https://" + host + "/.well-known/terraform.json";
    if (auto forced = config_.host_services.find(host); forced != config_.host_services.end()) {
        result.json = nlohmann::json::object();
        for (const auto& [id, url] : forced->second) result.json[id] = url;
        result.configured_by_user = true;
    } else {
        HttpRequest request;
        request.url = result.final_url;
        request.purpose = Purpose::discovery;
        request.headers = {"Accept: application/json"};
        request.bearer_token = credentials_.token_for(host);
        request.max_bytes = 1U << 20;
        auto response = client_.fetch(request);
        if (!response.transport_ok()) {
            // The client's message already names the host ("could not connect to HOST: ...").
            result.error =
                response.error == TransportError::connect
                    ? response.error_message
                    : fmt::format("failed to request discovery document from {}: {}", host, response.error_message);
        } else if (response.status == 404) {
            result.not_found = true;
        } else if (response.status != 200) {
            result.error = fmt::format("failed to request discovery document from {}: {}", host, response.status_text);
        } else if (!is_json_media_type(response.content_type)) {
            result.error = fmt::format("discovery URL {} returned an unsupported Content-Type \"{}\"",
                                       redacted_url(response.effective_url), response.content_type);
        } else {
            std::string error;
            auto document = decode_json_body(response.body, error);
            result.final_url = response.effective_url;
            if (document) {
                result.json = std::move(*document);
            } else {
                result.error = fmt::format("failed to decode discovery document from {}: {}",
                                           redacted_url(response.effective_url), error);
            }
        }
    }
    return cache_.emplace(host, std::move(result)).first->second;
}

ServiceUrl ServiceDiscovery::providers_v1(const std::string& host) {
    const auto& document = document_of(host);
    if (document.not_found) return failure(fmt::format("host {} does not offer a Terraform provider registry", host));
    if (!document.error.empty()) return failure(document.error);
    ServiceUrl out = providers_service_of(host, document.json, document.final_url);
    out.configured_by_user = document.configured_by_user;
    return out;
}

ServiceUrl ServiceDiscovery::modules_v1(const std::string& host) {
    const auto& document = document_of(host);
    if (document.not_found) return failure(fmt::format("host {} does not offer a Terraform module registry", host));
    if (!document.error.empty()) return failure(document.error);
    ServiceUrl out = modules_service_of(host, document.json, document.final_url);
    out.configured_by_user = document.configured_by_user;
    return out;
}

}  // namespace tfsift::net
