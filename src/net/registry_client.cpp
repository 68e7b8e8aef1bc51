// Registry protocol requests and decoding.
#include "tfsift/net/registry_client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "tfsift/net/json_body.hpp"
#include "tfsift/net/url.hpp"

namespace tfsift::net {

namespace {

std::string string_field(const nlohmann::json& object, std::string_view name) {
    const auto* field = json_field(object, name);
    return field != nullptr && field->is_string() ? field->get<std::string>() : std::string();
}

bool is_hex64(std::string_view text) {
    return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
           });
}

bool protocol_supported(const providers::Version& v) { return v.major >= 5 && v.major < 7; }

}  // namespace

VersionList decode_version_list(const std::string& body, const std::string& url) {
    VersionList out;
    std::string error;
    auto doc = decode_json_body(body, error);
    if (!doc) {
        out.error = fmt::format("the response from {} is not valid JSON: {}", redacted_url(url), error);
        return out;
    }
    const auto* versions = json_field(*doc, "versions");
    if (!doc->is_object() || (versions != nullptr && !versions->is_array() && !versions->is_null())) {
        out.error = fmt::format("the response from {} is not a versions list", redacted_url(url));
        return out;
    }
    if (versions != nullptr && versions->is_array()) {
        // Versions already listed, by their text (which spells every field
        // operator== compares): a lookup each, not a pass over the list.
        std::unordered_set<std::string> seen;
        for (const auto& entry : *versions) {
            auto parsed = providers::parse_version(string_field(entry, "version"));
            if (!parsed.version) continue;  // upstream skips invalid versions
            std::string text = parsed.version->to_string();
            if (seen.insert(text).second) out.versions.push_back(*parsed.version);
            auto& platforms = out.platforms[std::move(text)];
            if (const auto* listed = json_field(entry, "platforms"); listed != nullptr && listed->is_array()) {
                for (const auto& p : *listed) {
                    providers::Platform platform{string_field(p, "os"), string_field(p, "arch")};
                    if (!platform.os.empty() && !platform.arch.empty()) platforms.push_back(std::move(platform));
                }
            }
        }
    }
    std::sort(out.versions.begin(), out.versions.end(), [](const providers::Version& a, const providers::Version& b) {
        return providers::compare_precedence(a, b) < 0;
    });
    if (const auto* warnings = json_field(*doc, "warnings"); warnings != nullptr && warnings->is_array()) {
        for (const auto& w : *warnings) {
            if (w.is_string()) out.warnings.push_back(w.get<std::string>());
        }
    }
    out.status = LookupStatus::ok;
    return out;
}

DownloadLookup decode_download_document(const std::string& body, const std::string& final_url, const std::string& addr,
                                        const providers::Version& version, const providers::Platform& platform) {
    DownloadLookup out;
    std::string error;
    auto doc = decode_json_body(body, error);
    if (!doc || !doc->is_object()) {
        out.error = fmt::format("the response from {} is not valid JSON: {}", redacted_url(final_url),
                                doc ? std::string("not an object") : error);
        return out;
    }
    DownloadDocument d;
    if (const auto* protocols = json_field(*doc, "protocols"); protocols != nullptr && protocols->is_array()) {
        bool any_supported = false;
        for (const auto& p : *protocols) {
            const std::string text = p.is_string() ? p.get<std::string>() : p.dump();
            // "5.0" means 5.0.0; go-versions accepts the short forms here.
            std::string padded = text;
            for (auto dots = std::count(text.begin(), text.end(), '.'); dots < 2; ++dots) padded += ".0";
            auto parsed = providers::parse_version(padded);
            if (!p.is_string() || !parsed.version) {
                out.error = fmt::format("registry response includes invalid provider protocol version \"{}\"", text);
                return out;
            }
            any_supported = any_supported || protocol_supported(*parsed.version);
            d.protocols.push_back(text);
        }
        if (!d.protocols.empty() && !any_supported) {
            out.error =
                fmt::format("provider {} {} is not supported by this version of terraform", addr, version.to_string());
            return out;
        }
    }
    d.os = string_field(*doc, "os");
    d.arch = string_field(*doc, "arch");
    if (d.os != platform.os || d.arch != platform.arch) {
        out.error = fmt::format("registry response to request for {} archive has incorrect target {}_{}",
                                platform.to_string(), d.os, d.arch);
        return out;
    }
    d.filename = string_field(*doc, "filename");
    for (auto [field, target] : {std::pair{"download_url", &d.download_url}, std::pair{"shasums_url", &d.shasums_url},
                                 std::pair{"shasums_signature_url", &d.shasums_signature_url}}) {
        const std::string given = string_field(*doc, field);
        auto resolved = resolve_reference(final_url, given);
        auto parsed = resolved ? parse_absolute_url(*resolved) : std::nullopt;
        if (given.empty() || !parsed || parsed->host.empty()) {
            out.error = fmt::format("registry response includes invalid {} \"{}\"", field, given);
            return out;
        }
        if (parsed->scheme != "https" && parsed->scheme != "http") {
            out.error = fmt::format("registry response includes invalid {} \"{}\": must use http or https scheme",
                                    field, given);
            return out;
        }
        *target = *resolved;
    }
    d.shasum = string_field(*doc, "shasum");
    if (!is_hex64(d.shasum)) {
        out.error = fmt::format("registry response includes invalid SHA256 hash \"{}\"", d.shasum);
        return out;
    }
    std::transform(d.shasum.begin(), d.shasum.end(), d.shasum.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (const auto* signing = json_field(*doc, "signing_keys"); signing != nullptr) {
        if (const auto* keys = json_field(*signing, "gpg_public_keys"); keys != nullptr && keys->is_array()) {
            for (const auto& k : *keys) {
                d.keys.push_back(online::SigningKey{string_field(k, "key_id"), string_field(k, "ascii_armor"),
                                                    string_field(k, "trust_signature"), string_field(k, "source"),
                                                    string_field(k, "source_url")});
            }
        }
    }
    if (const auto* packages = json_field(*doc, "packages"); packages != nullptr && packages->is_object()) {
        for (const auto& [name, entry] : packages->items()) {
            if (!providers::parse_platform(name).platform || !entry.is_object()) {
                out.error = fmt::format("registry response includes an invalid packages entry \"{}\"", name);
                return out;
            }
            PackageFacts facts;
            if (const auto* hashes = json_field(entry, "hashes"); hashes != nullptr && hashes->is_array()) {
                for (const auto& h : *hashes) {
                    if (h.is_string()) facts.hashes.push_back(h.get<std::string>());
                }
            }
            if (const auto* size = json_field(entry, "package_size"); size != nullptr && size->is_number_unsigned()) {
                facts.size = size->get<std::uint64_t>();
            }
            d.packages[name] = std::move(facts);
        }
    }
    out.status = LookupStatus::ok;
    out.document = std::move(d);
    return out;
}

RegistryClient::RegistryClient(HttpClient& client, std::string host, std::string base_url, std::string token,
                               std::string engine_version, Engine engine)
    : client_(client),
      host_(std::move(host)),
      base_url_(std::move(base_url)),
      token_(std::move(token)),
      engine_version_(std::move(engine_version)),
      engine_(engine) {}

std::string RegistryClient::failed_query(const providers::Provider& provider, const std::string& why) const {
    return fmt::format("could not query provider registry for {}: {}", provider.for_display(engine_), why);
}

std::string RegistryClient::unauthorized(long status) const {
    // 401: no (acceptable) credentials; 403: the credentials sent were refused.
    return token_.empty() || status == 401
               ? fmt::format("host {} requires authentication credentials", host_)
               : fmt::format("host {} rejected the given authentication credentials", host_);
}

VersionList RegistryClient::versions(const providers::Provider& provider) {
    const std::string path =
        escape_path_segment(provider.namespace_) + "/" + escape_path_segment(provider.type) + "/versions";
    HttpRequest request;
    request.url = resolve_reference(base_url_, path).value_or(base_url_ + path);
    request.purpose = Purpose::api;
    request.headers = {"X-Terraform-Version: " + engine_version_, "Accept: application/json"};
    request.bearer_token = token_;
    request.max_bytes = 16U << 20;
    auto response = client_.fetch(request);
    VersionList out;
    if (!response.transport_ok()) {
        out.error = failed_query(provider, response.error_message);
    } else if (response.status == 404) {
        out.status = LookupStatus::not_found;
        out.error =
            fmt::format("provider registry {} does not have a provider named {}", host_, provider.for_display(engine_));
    } else if (response.status == 401 || response.status == 403) {
        out.status = LookupStatus::unauthorized;
        out.error = unauthorized(response.status);
    } else if (response.status != 200) {
        out.error = failed_query(provider, response.status_text);
    } else {
        out = decode_version_list(response.body, response.effective_url);
        if (out.status != LookupStatus::ok) out.error = failed_query(provider, out.error);
    }
    return out;
}

DownloadLookup RegistryClient::download(const providers::Provider& provider, const providers::Version& version,
                                        const providers::Platform& platform) {
    const std::string path = escape_path_segment(provider.namespace_) + "/" + escape_path_segment(provider.type) + "/" +
                             escape_path_segment(version.to_string()) + "/download/" +
                             escape_path_segment(platform.os) + "/" + escape_path_segment(platform.arch);
    HttpRequest request;
    request.url = resolve_reference(base_url_, path).value_or(base_url_ + path);
    request.purpose = Purpose::api;
    request.headers = {"X-Terraform-Version: " + engine_version_, "Accept: application/json"};
    request.bearer_token = token_;
    request.max_bytes = 16U << 20;
    auto response = client_.fetch(request);
    DownloadLookup out;
    const std::string addr = provider.for_display(engine_);
    if (!response.transport_ok()) {
        out.error = failed_query(provider, response.error_message);
    } else if (response.status == 404) {
        out.status = LookupStatus::not_found;
        out.error =
            fmt::format("provider {} {} is not available for {}", addr, version.to_string(), platform.to_string());
    } else if (response.status == 401 || response.status == 403) {
        out.status = LookupStatus::unauthorized;
        out.error = unauthorized(response.status);
    } else if (response.status != 200) {
        out.error = failed_query(provider, response.status_text);
    } else {
        out = decode_download_document(response.body, response.effective_url, addr, version, platform);
        if (out.status != LookupStatus::ok && out.error.rfind("provider ", 0) != 0) {
            out.error = failed_query(provider, out.error);
        }
    }
    return out;
}

std::optional<std::string> RegistryClient::fetch_document(const std::string& url, std::string_view what,
                                                          std::string& error) {
    HttpRequest request;
    request.url = url;
    request.purpose = Purpose::api;
    request.max_bytes = 16U << 20;
    auto response = client_.fetch(request);
    if (!response.transport_ok()) {
        error = fmt::format("failed to retrieve {} for provider: {}", what, response.error_message);
        return std::nullopt;
    }
    if (response.status != 200) {
        auto parsed = parse_absolute_url(response.effective_url);
        error = fmt::format("failed to retrieve {} for provider: {} returned from {}", what, response.status_text,
                            parsed ? parsed->authority() : response.effective_url);
        return std::nullopt;
    }
    return std::move(response.body);
}

}  // namespace tfsift::net
