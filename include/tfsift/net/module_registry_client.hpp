// The module registry protocol (modules.v1): the versions list of a module,
// the version Terraform would choose for a call's `version` constraint, and
// the package location a registry hands out for one version (an
// X-Terraform-Get header on a 204 or 200 answer, or OpenTofu's JSON
// {"location": ...}). The decoders and the choice are pure and tested on
// their own; ModuleRegistryClient adds the requests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tfsift/net/http_client.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::net {

struct ModuleVersionList {
    bool ok = false;
    bool not_found = false;                     // 404: the registry does not know the module
    bool unauthorized = false;                  // 401 / 403
    std::vector<std::string> versions;          // as listed (valid ones, a "v" prefix dropped)
    std::vector<std::string> ignored;           // invalid version strings the registry listed
    std::string error;
};

// {"modules":[{"versions":[{"version":"1.0.0"}, ...]}]}: the first module's
// versions. `url` names the document in errors.
[[nodiscard]] ModuleVersionList decode_module_versions(const std::string& body, const std::string& url);

struct ModuleVersionChoice {
    std::optional<providers::Version> chosen;  // the newest version the constraint allows
    std::optional<providers::Version> newest;  // the newest version considered at all
    std::string constraint_error;              // the constraint string could not be parsed
};

// Terraform's module installer: prereleases are considered only when the
// constraint names them exactly; of the rest, the highest version that
// matches is chosen. An empty `constraint` allows every version.
[[nodiscard]] ModuleVersionChoice choose_module_version(const std::string& constraint,
                                                        const std::vector<std::string>& versions);

struct ModuleLocation {
    std::string location;  // a go-getter address; relative references already resolved
    std::string error;
    bool not_found = false;
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// The answer to GET .../VERSION/download: status 200 or 204 with
// X-Terraform-Get, else (200) a JSON body with "location". A location
// starting with "/", "./" or "../" is resolved against `final_url`.
[[nodiscard]] ModuleLocation decode_module_location(long status, const std::optional<std::string>& x_terraform_get,
                                                    const std::string& body, const std::string& final_url,
                                                    const std::string& module, const std::string& version);

class ModuleRegistryClient {
public:
    // `base_url`: the host's modules.v1 URL. `token`: the host's credentials
    // (may be empty). `engine_version`: X-Terraform-Version.
    ModuleRegistryClient(HttpClient& client, std::string host, std::string base_url, std::string token,
                         std::string engine_version);

    // `module`: "namespace/name/system".
    [[nodiscard]] ModuleVersionList versions(const std::string& module);
    [[nodiscard]] ModuleLocation location(const std::string& module, const std::string& version);

private:
    HttpRequest request_for(const std::string& url) const;
    [[nodiscard]] std::string failed(long status, const std::string& status_text) const;

    HttpClient& client_;
    std::string host_;
    std::string base_url_;
    std::string token_;
    std::string engine_version_;
};

}  // namespace tfsift::net
