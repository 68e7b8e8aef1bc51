// Module registry requests, decoding and the version choice.
#include "tfsift/net/module_registry_client.hpp"

#include <fmt/format.h>

#include "tfsift/net/json_body.hpp"
#include "tfsift/net/url.hpp"

namespace tfsift::net {

namespace {

// A versions list of 100,000 entries is about 2 MiB; more than this is not a
// registry answer.
constexpr std::uint64_t kMaxVersionsBytes = 16ULL << 20;

std::string join_url(const std::string& base, const std::string& tail) {
    return resolve_reference(base, tail).value_or(base + tail);
}

}  // namespace

ModuleVersionList decode_module_versions(const std::string& body, const std::string& url) {
    ModuleVersionList out;
    std::string error;
    auto doc = decode_json_body(body, error);
    if (!doc) {
        out.error = fmt::format("the response from {} is not valid JSON: {}", url, error);
        return out;
    }
    const auto* modules = json_field(*doc, "modules");
    if (!doc->is_object() || modules == nullptr || !modules->is_array()) {
        out.error = fmt::format("the response from {} is not a module versions list", url);
        return out;
    }
    if (modules->empty()) {
        out.error = fmt::format("the response from {} lists no module", url);
        return out;
    }
    const auto* versions = json_field(modules->front(), "versions");
    if (versions != nullptr && versions->is_array()) {
        out.versions.reserve(versions->size());
        for (const auto& entry : *versions) {
            const auto* v = json_field(entry, "version");
            std::string text = v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
            std::string_view bare = text;
            if (bare.starts_with('v')) bare.remove_prefix(1);
            if (providers::parse_version(bare).version) {
                out.versions.emplace_back(bare);
            } else {
                out.ignored.push_back(std::move(text));
            }
        }
    }
    out.ok = true;
    return out;
}

ModuleVersionChoice choose_module_version(const std::string& constraint, const std::vector<std::string>& versions) {
    ModuleVersionChoice out;
    providers::VersionConstraints parsed;
    if (!constraint.empty()) {
        auto c = providers::parse_constraints(constraint);
        if (!c.constraints) {
            out.constraint_error = c.error;
            return out;
        }
        parsed = std::move(*c.constraints);
    }
    for (const auto& text : versions) {
        auto v = providers::parse_version(text);
        if (!v.version) continue;
        const bool allowed = providers::constraints_allow(parsed, *v.version);
        // A prerelease takes part only when the constraint names it exactly,
        // and then it is also what the constraint allows.
        if (!v.version->prerelease.empty() && !allowed) continue;
        if (!out.newest || providers::compare_precedence(*v.version, *out.newest) > 0) out.newest = v.version;
        if (allowed && (!out.chosen || providers::compare_precedence(*v.version, *out.chosen) > 0)) {
            out.chosen = v.version;
        }
    }
    return out;
}

ModuleLocation decode_module_location(long status, const std::optional<std::string>& x_terraform_get,
                                      const std::string& body, const std::string& final_url,
                                      const std::string& module, const std::string& version) {
    ModuleLocation out;
    if (status == 404) {
        out.not_found = true;
        out.error = fmt::format("module {} version {} not found", module, version);
        return out;
    }
    if (status != 200 && status != 204) {
        out.error = fmt::format("error getting download location for {}: {}", module,
                                fmt::format("{} {}", status, status_reason(status)));
        return out;
    }
    std::string location = x_terraform_get.value_or("");
    if (location.empty() && status == 200 && !body.empty()) {
        std::string error;
        auto doc = decode_json_body(body, error);
        if (doc && doc->is_object()) {
            if (const auto* field = json_field(*doc, "location"); field != nullptr && field->is_string()) {
                location = field->get<std::string>();
            }
        }
    }
    if (location.empty()) {
        out.error = fmt::format("failed to get download URL for {}: the registry answered {} {} without a location",
                                module, status, status_reason(status));
        return out;
    }
    if (location.starts_with("/") || location.starts_with("./") || location.starts_with("../")) {
        auto resolved = resolve_reference(final_url, location);
        if (!resolved) {
            out.error = fmt::format("invalid relative location \"{}\" for {} {}", location, module, version);
            return out;
        }
        location = *resolved;
    }
    out.location = std::move(location);
    return out;
}

ModuleRegistryClient::ModuleRegistryClient(HttpClient& client, std::string host, std::string base_url,
                                           std::string token, std::string engine_version)
    : client_(client),
      host_(std::move(host)),
      base_url_(std::move(base_url)),
      token_(std::move(token)),
      engine_version_(std::move(engine_version)) {}

HttpRequest ModuleRegistryClient::request_for(const std::string& url) const {
    HttpRequest request;
    request.url = url;
    request.purpose = Purpose::api;
    request.bearer_token = token_;
    request.max_bytes = kMaxVersionsBytes;
    if (!engine_version_.empty()) request.headers.push_back("X-Terraform-Version: " + engine_version_);
    return request;
}

std::string ModuleRegistryClient::failed(long status, const std::string& status_text) const {
    if (status == 401) return fmt::format("host {} requires authentication credentials", host_);
    if (status == 403) return fmt::format("host {} rejected the given authentication credentials", host_);
    return fmt::format("{} returned from {}", status_text, host_);
}

ModuleVersionList ModuleRegistryClient::versions(const std::string& module) {
    ModuleVersionList out;
    const std::string url = join_url(base_url_, module + "/versions");
    auto response = client_.fetch(request_for(url));
    if (!response.transport_ok()) {
        out.error = response.error_message;
        return out;
    }
    if (response.status == 404) {
        out.not_found = true;
        out.error = fmt::format("module {} not found on {}", module, host_);
        return out;
    }
    if (response.status != 200) {
        out.unauthorized = response.status == 401 || response.status == 403;
        out.error = failed(response.status, response.status_text);
        return out;
    }
    return decode_module_versions(response.body, response.effective_url);
}

ModuleLocation ModuleRegistryClient::location(const std::string& module, const std::string& version) {
    const std::string url = join_url(base_url_, module + "/" + escape_path_segment(version) + "/download");
    auto request = request_for(url);
    request.max_bytes = 1U << 20;
    auto response = client_.fetch(request);
    if (!response.transport_ok()) return ModuleLocation{{}, response.error_message, false};
    if (response.status == 401 || response.status == 403) {
        return ModuleLocation{{}, failed(response.status, response.status_text), false};
    }
    return decode_module_location(response.status, response.header("x-terraform-get"), response.body,
                                  response.effective_url, module, version);
}

}  // namespace tfsift::net
