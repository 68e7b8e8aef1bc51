// Provider source addresses and module source addresses, parsed and
// normalized as Terraform v1.3's addrs package (and go-getter's detectors,
// for remote module packages) do it.
#pragma once

#include <string>
#include <string_view>
#include <variant>

namespace tfsift::config {

// A provider address or why it is invalid.
struct ProviderSourceResult {
    std::string fqn;        // "registry.terraform.io/hashicorp/aws"; empty on error
    std::string_view code;  // error code (config/diagnostic_codes.hpp); empty on success
    std::string summary;    // error summary; empty on success
    std::string detail;

    [[nodiscard]] bool ok() const { return summary.empty(); }
};

// addrs.ParseProviderPart: a provider type or namespace, case-folded; false
// with `error` set when invalid.
bool parse_provider_part(std::string_view given, std::string& out, std::string& error);

// addrs.ParseProviderSourceString: "[hostname/][namespace/]type".
ProviderSourceResult parse_provider_source(std::string_view source);

// A module source address.
enum class ModuleSourceKind : std::uint8_t { local, registry, remote };

struct ModuleSourceResult {
    ModuleSourceKind kind = ModuleSourceKind::remote;
    std::string normalized;       // the address as Terraform prints it; empty on error
    std::string error;            // the parse error text; empty on success
    bool maybe_relative = false;  // go-getter saw a relative path without ./
};

// addrs.ParseModuleSource (or ParseModuleSourceRegistry when the call has a
// `version` argument).
ModuleSourceResult parse_module_source(std::string_view raw, bool registry_only);

}  // namespace tfsift::config
