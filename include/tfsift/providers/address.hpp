// Provider source addresses: `[hostname/][namespace/]type`, normalized the way
// Terraform's terraform-registry-address and terraform-svchost do it (IDNA
// UTS-46 lookup mapping, NFC, punycode hostnames) for either engine.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

#include "tfsift/engine.hpp"

namespace tfsift::providers {

// Namespace of legacy (pre-0.13) provider addresses.
inline constexpr std::string_view kLegacyNamespace = "-";

// A string normalized by one of the functions below, or the reason it
// cannot be.
struct Normalized {
    std::string value;
    std::string error;  // upstream's wording, e.g. "dots are not allowed"
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// svchost.ForComparison: lower-case ASCII with punycode labels and an
// optional port (":443" dropped). Rejects punycode given by the user.
[[nodiscard]] Normalized normalize_hostname(std::string_view given);

// Hostname.ForDisplay: the comparison form with punycode labels decoded.
[[nodiscard]] std::string hostname_for_display(std::string_view comparison_form);

// A provider type (and, in OpenTofu, namespace) name part: no dots, no
// "--", then IDNA lookup mapping to Unicode.
[[nodiscard]] Normalized normalize_provider_part(std::string_view given);

// A namespace part. Terraform >= 1.16 also allows "_" between name pieces.
[[nodiscard]] Normalized normalize_namespace(std::string_view given, Engine engine);

// A fully-qualified provider address. The fields are stored normalized, so
// equality and ordering are plain byte comparisons (hostname in punycode
// comparison form, then namespace, then type), as upstream sorts them.
struct Provider {
    std::string hostname;    // comparison form, e.g. "xn--mnchen-3ya.de:8443"
    std::string namespace_;  // normalized Unicode, or "-" for legacy
    std::string type;        // normalized Unicode

    // The canonical string (String()): display hostname/namespace/type.
    [[nodiscard]] std::string to_string() const;
    // ForDisplay(): like to_string() without the engine's default host.
    [[nodiscard]] std::string for_display(Engine engine) const;

    [[nodiscard]] bool is_builtin(Engine engine) const;
    [[nodiscard]] bool is_legacy() const;
    // Whether a lock file may record it (depsfile.ProviderIsLockable).
    [[nodiscard]] bool is_lockable(Engine engine) const;

    // clang-tidy 14 mistakes the defaulted comparison's zero literal for a null pointer.
    // NOLINTNEXTLINE(modernize-use-nullptr)
    friend auto operator<=>(const Provider&, const Provider&) = default;
    friend bool operator==(const Provider&, const Provider&) = default;
};

// A failed parse: upstream's diagnostic summary and detail.
struct AddressError {
    std::string summary;  // e.g. "Invalid provider type"
    std::string detail;
};

struct ParsedProvider {
    std::optional<Provider> provider;
    std::optional<AddressError> error;
};

// addrs.ParseProviderSourceString: the `source` of required_providers, lock
// file labels and CLI arguments. A one-part source gets the "hashicorp"
// namespace on the engine's default host.
[[nodiscard]] ParsedProvider parse_provider_source(std::string_view source, Engine engine);

// The provider a local name stands for when no source is given:
// default-host/hashicorp/NAME, except "terraform", which is built in.
[[nodiscard]] Provider implied_provider(std::string_view local_name, Engine engine);

// The implied local name of a resource type: the text before the first "_".
[[nodiscard]] std::string_view implied_local_name(std::string_view resource_type);

// The built-in provider terraform.io/builtin/terraform.
[[nodiscard]] Provider builtin_terraform_provider();

// Why `label` cannot stand as the label of a lock file `provider` block
// (invalid, built-in, legacy or not in canonical form), or nullopt if it can.
[[nodiscard]] std::optional<AddressError> lock_label_error(std::string_view label, Engine engine);

}  // namespace tfsift::providers
