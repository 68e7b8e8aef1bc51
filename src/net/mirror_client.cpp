// Network mirror requests and decoding.
#include "tfsift/net/mirror_client.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tfsift/net/json_body.hpp"
#include "tfsift/net/url.hpp"

namespace tfsift::net {

VersionList decode_mirror_index(const std::string& body, const std::string& url) {
    VersionList out;
    std::string error;
    auto doc = decode_json_body(body, error);
    if (!doc) {
        out.error = fmt::format("invalid response content from mirror server {}: {}", redacted_url(url), error);
        return out;
    }
    const auto* versions = json_field(*doc, "versions");
    if (versions == nullptr || !versions->is_object()) {
        out.error =
            fmt::format("invalid response content from mirror server {}: no \"versions\" object", redacted_url(url));
        return out;
    }
    for (const auto& [text, value] : versions->items()) {
        if (!value.is_object() && !value.is_null()) {
            out.error = fmt::format("invalid response content from mirror server {}: version \"{}\" is not an object",
                                    redacted_url(url), text);
            return out;
        }
        auto parsed = providers::parse_version(text);
        if (parsed.version) out.versions.push_back(*parsed.version);
    }
    std::sort(out.versions.begin(), out.versions.end(), [](const providers::Version& a, const providers::Version& b) {
        return providers::compare_precedence(a, b) < 0;
    });
    out.status = LookupStatus::ok;
    return out;
}

MirrorVersion decode_mirror_version(const std::string& body, const std::string& final_url) {
    MirrorVersion out;
    std::string error;
    auto doc = decode_json_body(body, error);
    if (!doc) {
        out.error = fmt::format("invalid response content from mirror server {}: {}", redacted_url(final_url), error);
        return out;
    }
    const auto* archives = json_field(*doc, "archives");
    if (archives == nullptr || !archives->is_object()) {
        out.error = fmt::format("invalid response content from mirror server {}: no \"archives\" object",
                                redacted_url(final_url));
        return out;
    }
    for (const auto& [platform, entry] : archives->items()) {
        if (!providers::parse_platform(platform).platform || !entry.is_object()) continue;
        const auto* url = json_field(entry, "url");
        if (url == nullptr || !url->is_string()) {
            out.error = fmt::format("invalid response content from mirror server {}: archive {} has no url",
                                    redacted_url(final_url), platform);
            return out;
        }
        auto resolved = resolve_reference(final_url, url->get<std::string>());
        auto parsed = resolved ? parse_absolute_url(*resolved) : std::nullopt;
        if (!parsed || parsed->host.empty() || (parsed->scheme != "https" && parsed->scheme != "http")) {
            out.error = fmt::format("invalid response content from mirror server {}: invalid url \"{}\"",
                                    redacted_url(final_url), redacted_url(url->get<std::string>()));
            return out;
        }
        MirrorArchive archive;
        archive.url = *resolved;
        const std::string& path = parsed->path;
        archive.filename = path.substr(path.rfind('/') + 1);
        if (const auto* hashes = json_field(entry, "hashes"); hashes != nullptr && hashes->is_array()) {
            for (const auto& h : *hashes) {
                if (!h.is_string()) {
                    out.error = fmt::format(
                        "invalid response content from mirror server {}: a hash of {} is not a "
                        "string",
                        redacted_url(final_url), platform);
                    return out;
                }
                archive.hashes.push_back(h.get<std::string>());
            }
        }
        out.archives[platform] = std::move(archive);
    }
    out.status = LookupStatus::ok;
    return out;
}

MirrorClient::MirrorClient(HttpClient& client, std::string base_url, std::string token, std::string engine_version,
                           Engine engine)
    : client_(client),
      base_url_(std::move(base_url)),
      token_(std::move(token)),
      engine_version_(std::move(engine_version)),
      engine_(engine) {}

HttpResponse MirrorClient::get(const std::string& path) {
    HttpRequest request;
    request.url = resolve_reference(base_url_, path).value_or(base_url_ + path);
    request.purpose = Purpose::mirror;
    request.headers = {"X-Terraform-Version: " + engine_version_, "Accept: application/json"};
    request.bearer_token = token_;
    request.max_bytes = 16U << 20;
    return client_.fetch(request);
}

std::string MirrorClient::unauthorized(long status) const {
    auto parsed = parse_absolute_url(base_url_);
    const std::string host = parsed ? parsed->authority() : base_url_;
    return token_.empty() || status == 401 ? fmt::format("host {} requires authentication credentials", host)
                                           : fmt::format("host {} rejected the given authentication credentials", host);
}

namespace {

std::string provider_path(const providers::Provider& provider) {
    return escape_path_segment(provider.hostname) + "/" + escape_path_segment(provider.namespace_) + "/" +
           escape_path_segment(provider.type) + "/";
}

}  // namespace

VersionList MirrorClient::versions(const providers::Provider& provider) {
    auto response = get(provider_path(provider) + "index.json");
    VersionList out;
    const std::string addr = provider.for_display(engine_);
    if (!response.transport_ok()) {
        out.error = fmt::format("failed to query provider mirror {} for {}: {}", redacted_url(base_url_), addr,
                                response.error_message);
    } else if (response.status == 404) {
        out.status = LookupStatus::not_found;
        out.error = fmt::format("provider mirror {} does not have a provider named {}", redacted_url(base_url_), addr);
    } else if (response.status == 401 || response.status == 403) {
        out.status = LookupStatus::unauthorized;
        out.error = unauthorized(response.status);
    } else if (response.status != 200) {
        out.error = fmt::format("failed to query provider mirror {} for {}: server returned unsuccessful status {}",
                                redacted_url(base_url_), addr, response.status);
    } else if (!is_json_media_type(response.content_type)) {
        out.error = fmt::format(
            "failed to query provider mirror {} for {}: response has invalid Content-Type: must "
            "be application/json",
            redacted_url(base_url_), addr);
    } else {
        out = decode_mirror_index(response.body, response.effective_url);
    }
    return out;
}

MirrorVersion MirrorClient::version(const providers::Provider& provider, const providers::Version& version) {
    auto response = get(provider_path(provider) + escape_path_segment(version.to_string()) + ".json");
    MirrorVersion out;
    const std::string addr = provider.for_display(engine_);
    if (!response.transport_ok()) {
        out.error = fmt::format("failed to query provider mirror {} for {}: {}", redacted_url(base_url_), addr,
                                response.error_message);
    } else if (response.status == 404) {
        out.error = fmt::format("provider mirror does not have archive index for previously-reported {} version {}",
                                addr, version.to_string());
    } else if (response.status == 401 || response.status == 403) {
        out.status = LookupStatus::unauthorized;
        out.error = unauthorized(response.status);
    } else if (response.status != 200) {
        out.error = fmt::format("failed to query provider mirror {} for {}: server returned unsuccessful status {}",
                                redacted_url(base_url_), addr, response.status);
    } else if (!is_json_media_type(response.content_type)) {
        out.error = fmt::format(
            "failed to query provider mirror {} for {}: response has invalid Content-Type: must "
            "be application/json",
            redacted_url(base_url_), addr);
    } else {
        out = decode_mirror_version(response.body, response.effective_url);
    }
    return out;
}

}  // namespace tfsift::net
