#include "tfsift/providers/address.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include "providers/go_quote.hpp"
#include "providers/idna.hpp"
#include "tfsift/string_memo.hpp"

namespace tfsift::providers {

namespace {

constexpr std::string_view kPunycodePrefix = "xn--";
constexpr std::string_view kBuiltinNamespace = "builtin";
constexpr std::string_view kTerraformBuiltinHost = "terraform.io";
constexpr std::string_view kOpenTofuBuiltinHost = "opentofu.org";
constexpr int kDefaultHttpsPort = 443;
constexpr long long kMaxPort = 65535;

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        auto pos = s.find(sep, start);
        parts.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
        if (pos == std::string_view::npos) return parts;
        start = pos + 1;
    }
}

std::string ascii_lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Go's strconv.Atoi: optional sign, decimal digits, fits in int64.
std::optional<long long> go_atoi(std::string_view s) {
    if (s.empty()) return std::nullopt;
    bool negative = false;
    if (s.front() == '+' || s.front() == '-') {
        negative = s.front() == '-';
        s.remove_prefix(1);
        if (s.empty()) return std::nullopt;
    }
    long long value = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return negative ? -value : value;
}

// svchost's normalizePortPortion: "" or ":" followed by what strconv.Atoi
// accepts; 443 disappears, anything else is re-rendered in decimal.
Normalized normalize_port_portion(std::string_view portion) {
    if (portion.empty()) return {};
    auto number = go_atoi(portion.substr(1));
    if (!number) return {std::string(portion), "port portion contains non-digit characters"};
    if (*number == kDefaultHttpsPort) return {};
    if (*number > kMaxPort) return {std::string(portion), "port number is greater than 65535"};
    return {fmt::format(":{}", *number), {}};
}

std::pair<std::string_view, std::string_view> split_port(std::string_view given) {
    auto colon = given.find(':');
    if (colon == std::string_view::npos) return {given, {}};
    return {given.substr(0, colon), given.substr(colon)};
}

std::string invalid_part_detail(std::string_view what, std::string_view given, std::string_view source,
                                std::string_view error) {
    // Upstream's format string ends in a stray quote; messages copy it.
    return fmt::format("Invalid provider {} {} in source {}: {}\"", what, go_quote(given), go_quote(source), error);
}

AddressError invalid_source_string() {
    return {"Invalid provider source string",
            "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\""};
}

std::optional<AddressError> check_type_prefixes(const Provider& provider, Engine engine) {
    struct PrefixRule {
        std::string_view provider_prefix;  // e.g. "terraform-provider-"
        std::string_view product_prefix;   // e.g. "terraform-"
        std::string_view product;
    };
    std::vector<PrefixRule> rules = {{"terraform-provider-", "terraform-", "Terraform"}};
    if (engine == Engine::opentofu) rules.push_back({"opentofu-provider-", "opentofu-", "OpenTofu"});
    for (const auto& rule : rules) {
        if (provider.type.starts_with(rule.provider_prefix)) {
            auto suggested_type = std::string_view(provider.type).substr(rule.provider_prefix.size());
            if (normalize_provider_part(suggested_type).ok()) {
                Provider suggested = provider;
                suggested.type = std::string(suggested_type);
                return AddressError{
                    "Invalid provider type",
                    fmt::format("Provider source {} has a type with the prefix {}, which isn't valid. Although that "
                                "prefix is often used in the names of version control repositories for {} "
                                "providers, provider source strings should not include it.\n\nDid you mean {}?",
                                go_quote(provider.for_display(engine)), go_quote(rule.provider_prefix), rule.product,
                                go_quote(suggested.for_display(engine)))};
            }
        }
        if (provider.type.starts_with(rule.product_prefix)) {
            return AddressError{
                "Invalid provider type",
                fmt::format("Provider source {} has a type with the prefix {}, which isn't allowed because it would "
                            "be redundant to name a {} provider with that prefix. If you are the author of this "
                            "provider, rename it to not include the prefix.",
                            go_quote(provider.to_string()), go_quote(rule.product_prefix), rule.product)};
        }
    }
    return std::nullopt;
}

}  // namespace

Normalized normalize_hostname(std::string_view given) {
    auto [host, port_portion] = split_port(given);
    Normalized port = normalize_port_portion(port_portion);
    if (!port.ok()) {
        const std::string lowered = ascii_lower(host);
        if (lowered == "https" || lowered == "http") {
            return {{}, "need just a hostname and optional port number, not a full URL"};
        }
        return {{}, port.error};
    }
    if (host.empty()) return {{}, "empty string is not a valid hostname"};
    // Labels are walked as Go's idna label iterator walks them: it stops
    // early when only a final "." remains, so "a." and even "a.." pass
    // while any other empty label fails. Punycode given by the user is
    // refused (the check is case-sensitive upstream).
    std::size_t start = 0;
    while (start < host.size()) {
        auto dot = host.find('.', start);
        const std::size_t end = dot == std::string_view::npos ? host.size() : dot;
        const std::string_view label = host.substr(start, end - start);
        if (label.empty()) return {{}, "hostname contains empty label (two consecutive periods)"};
        if (label.starts_with(kPunycodePrefix)) {
            return {{},
                    fmt::format("hostname label {} specified in punycode format; service hostnames must be given in "
                                "unicode",
                                go_quote(label))};
        }
        start = end + 1;
        if (start == host.size() - 1 && host[start] == '.') break;
    }
    auto ascii = idna::to_ascii(host);
    if (!ascii.ok()) return {{}, ascii.error};
    return {ascii.value + port.value, {}};
}

std::string hostname_for_display(std::string_view comparison_form) {
    auto [host, port_portion] = split_port(comparison_form);
    auto unicode = idna::to_unicode(host);
    return (unicode.ok() ? unicode.value : std::string(host)) + std::string(port_portion);
}

Normalized normalize_provider_part(std::string_view given) {
    if (given.empty()) return {{}, "must have at least one character"};
    if (given.find('.') != std::string_view::npos) return {{}, "dots are not allowed"};
    if (given.find("--") != std::string_view::npos) return {{}, "cannot use multiple consecutive dashes"};
    auto unicode = idna::to_unicode(given);
    if (!unicode.ok()) {
        return {{}, "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"};
    }
    return {unicode.value, {}};
}

Normalized normalize_namespace(std::string_view given, Engine engine) {
    if (engine == Engine::opentofu || given.find('_') == std::string_view::npos) {
        return normalize_provider_part(given);
    }
    // Terraform >= 1.16: "_" joins pieces that are each a valid name part,
    // so it can be neither leading, trailing nor doubled.
    std::string joined;
    for (auto piece : split(given, '_')) {
        if (piece.empty()) {
            return {{},
                    "must contain only letters, digits, dashes, and underscores, and may not use leading or "
                    "trailing dashes or underscores"};
        }
        auto normalized = normalize_provider_part(piece);
        if (!normalized.ok()) return normalized;
        if (!joined.empty()) joined += '_';
        joined += normalized.value;
    }
    return {joined, {}};
}

std::string Provider::to_string() const { return hostname_for_display(hostname) + "/" + namespace_ + "/" + type; }

std::string Provider::for_display(Engine engine) const {
    if (hostname == default_registry_host(engine)) return namespace_ + "/" + type;
    return to_string();
}

bool Provider::is_builtin(Engine engine) const {
    if (namespace_ != kBuiltinNamespace) return false;
    return hostname == kTerraformBuiltinHost || (engine == Engine::opentofu && hostname == kOpenTofuBuiltinHost);
}

bool Provider::is_legacy() const { return namespace_ == kLegacyNamespace; }

bool Provider::is_lockable(Engine engine) const { return !is_builtin(engine) && !is_legacy(); }

namespace {

ParsedProvider parse_provider_source_once(std::string_view source, Engine engine) {
    const auto parts = split(source, '/');
    if (parts.size() > 3 || std::any_of(parts.begin(), parts.end(), [](auto p) { return p.empty(); })) {
        return {std::nullopt, invalid_source_string()};
    }
    Provider provider;
    provider.hostname = std::string(default_registry_host(engine));

    const std::string_view given_type = parts.back();
    auto type = normalize_provider_part(given_type);
    if (!type.ok()) {
        return {std::nullopt,
                AddressError{"Invalid provider type", invalid_part_detail("type", given_type, source, type.error)}};
    }
    provider.type = type.value;
    if (parts.size() == 1) {
        provider.namespace_ = "hashicorp";
        return {provider, std::nullopt};
    }

    const std::string_view given_namespace = parts[parts.size() - 2];
    if (given_namespace == kLegacyNamespace) {
        provider.namespace_ = std::string(kLegacyNamespace);
    } else {
        auto ns = normalize_namespace(given_namespace, engine);
        if (!ns.ok()) {
            // Upstream quotes an empty variable here instead of the namespace.
            return {std::nullopt,
                    AddressError{"Invalid provider namespace", invalid_part_detail("namespace", "", source, ns.error)}};
        }
        provider.namespace_ = ns.value;
    }

    if (parts.size() == 3) {
        auto host = normalize_hostname(parts[0]);
        if (!host.ok()) {
            return {std::nullopt,
                    AddressError{"Invalid provider source hostname",
                                 invalid_part_detail("source hostname namespace", "", source, host.error)}};
        }
        provider.hostname = host.value;
    }

    if (provider.is_legacy() && provider.hostname != default_registry_host(engine)) {
        return {std::nullopt,
                AddressError{"Invalid provider namespace",
                             fmt::format("The legacy provider namespace \"-\" can be used only with hostname {}.",
                                         default_registry_host(engine))}};
    }
    if (auto error = check_type_prefixes(provider, engine)) return {std::nullopt, std::move(error)};
    return {provider, std::nullopt};
}

}  // namespace

ParsedProvider parse_provider_source(std::string_view source, Engine engine) {
    // A run meets the same few sources in every module, and each parse maps
    // its parts through IDNA: each thread remembers its answers, per engine.
    thread_local std::array<StringMemo<ParsedProvider>, 2> memo;
    return memo[engine == Engine::opentofu ? 1 : 0].get(
        source, [engine](std::string_view s) { return parse_provider_source_once(s, engine); });
}

Provider builtin_terraform_provider() {
    return {std::string(kTerraformBuiltinHost), std::string(kBuiltinNamespace), "terraform"};
}

Provider implied_provider(std::string_view local_name, Engine engine) {
    if (local_name == "terraform") return builtin_terraform_provider();
    return {std::string(default_registry_host(engine)), "hashicorp", std::string(local_name)};
}

std::string_view implied_local_name(std::string_view resource_type) {
    return resource_type.substr(0, resource_type.find('_'));
}

std::optional<AddressError> lock_label_error(std::string_view label, Engine engine) {
    constexpr std::string_view kInvalid = "Invalid provider source address";
    auto parsed = parse_provider_source(label, engine);
    if (!parsed.provider) {
        return AddressError{std::string(kInvalid),
                            "The provider source address for a provider lock must be a valid, fully-qualified "
                            "address of the form \"hostname/namespace/type\"."};
    }
    const Provider& provider = *parsed.provider;
    if (provider.is_builtin(engine)) {
        return AddressError{
            std::string(kInvalid),
            fmt::format("Cannot lock a version for built-in provider {}. Built-in providers are bundled inside {} "
                        "itself, so you can't select a version for them independently of the {} release you are "
                        "currently running.",
                        provider.to_string(), product_name(engine), product_name(engine))};
    }
    if (provider.is_legacy()) {
        return AddressError{std::string(kInvalid),
                            fmt::format("Provider source address {} is a special provider that is not eligible for "
                                        "dependency locking.",
                                        provider.to_string())};
    }
    const std::string canonical = provider.to_string();
    if (canonical != label) {
        return AddressError{"Non-normalized provider source address",
                            fmt::format("The provider source address for this provider lock must be written as {}, "
                                        "the fully-qualified and normalized form.",
                                        go_quote(canonical))};
    }
    return std::nullopt;
}

}  // namespace tfsift::providers
