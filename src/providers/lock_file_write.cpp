// Writing `.terraform.lock.hcl` byte for byte as Terraform's
// depsfile.SaveLocksToBytes (hclwrite, then its formatter) lays it out.
#include <fmt/format.h>
#include <utf8proc.h>

#include <algorithm>

#include "providers/go_quote.hpp"
#include "tfsift/providers/lock_file.hpp"

namespace tfsift::providers {

namespace {

constexpr std::string_view kTerraformHeader = "# This file is maintained automatically by \"terraform init\".";
constexpr std::string_view kOpenTofuHeader = "# This file is maintained automatically by \"tofu init\".";
constexpr std::string_view kSecondHeaderLine = "# Manual edits may be lost in future updates.";

void append_utf8(std::string& out, std::int32_t rune) {
    utf8proc_uint8_t buf[4];
    const auto n = utf8proc_encode_char(rune, buf);
    out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
}

}  // namespace

ProviderLock make_provider_lock(Provider provider, Version version, VersionConstraints constraints,
                                std::vector<std::string> hashes) {
    std::sort(hashes.begin(), hashes.end());
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    return ProviderLock{std::move(provider), std::move(version), std::move(constraints), std::move(hashes),
                        std::nullopt};
}

const ProviderLock* LockFile::find(const Provider& provider) const {
    auto it = providers.find(provider);
    return it == providers.end() ? nullptr : &it->second;
}

std::string_view lock_file_header(Engine engine) {
    return engine == Engine::opentofu ? kOpenTofuHeader : kTerraformHeader;
}

std::optional<Engine> engine_of_lock_header(std::string_view text) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    const auto first_line = text.substr(0, text.find('\n'));
    if (first_line.find("\"tofu init\"") != std::string_view::npos) return Engine::opentofu;
    if (first_line.find("\"terraform init\"") != std::string_view::npos) return Engine::terraform;
    return std::nullopt;
}

std::string hcl_escape_string(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
    std::size_t i = 0;
    while (i < text.size()) {
        utf8proc_int32_t rune = 0;
        auto n = utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(text.size() - i), &rune);
        if (n <= 0) {  // Go decodes a bad byte as U+FFFD, which is printable
            rune = 0xFFFD;
            n = 1;
        }
        const auto len = static_cast<std::size_t>(n);
        switch (rune) {
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '$':
            case '%':
                out += static_cast<char>(rune);
                // Doubling the introducer keeps "${" and "%{" literal.
                if (i + 1 < text.size() && text[i + 1] == '{') out += static_cast<char>(rune);
                break;
            default:
                if (!go_is_print(rune)) {
                    out += rune < 0x10000 ? fmt::format("\\u{:04x}", rune) : fmt::format("\\U{:08x}", rune);
                } else if (rune == 0xFFFD) {
                    append_utf8(out, rune);
                } else {
                    out.append(text.substr(i, len));
                }
        }
        i += len;
    }
    return out;
}

std::string write_lock_file(const LockFile& locks, Engine engine) {
    std::string out;
    out += lock_file_header(engine);
    out += '\n';
    out += kSecondHeaderLine;
    out += '\n';
    for (const auto& [provider, lock] : locks.providers) {
        out += "\nprovider \"";
        out += hcl_escape_string(provider.to_string());
        out += "\" {\n";
        const std::string version = hcl_escape_string(lock.version.to_string());
        const std::string constraints = hcl_escape_string(render_constraints(lock.constraints));
        if (constraints.empty()) {
            out += fmt::format("  version = \"{}\"\n", version);
        } else {
            // hclwrite aligns the "=" of adjacent single-line attributes.
            out += fmt::format("  version     = \"{}\"\n", version);
            out += fmt::format("  constraints = \"{}\"\n", constraints);
        }
        if (!lock.hashes.empty()) {
            out += "  hashes = [\n";
            for (const auto& hash : lock.hashes) out += fmt::format("    \"{}\",\n", hcl_escape_string(hash));
            out += "  ]\n";
        }
        out += "}\n";
    }
    return out;
}

}  // namespace tfsift::providers
