#include "tfsift/config/installed_modules.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "tfsift/config/paths.hpp"
#include "tfsift/providers/core_version.hpp"

namespace tfsift::config {

namespace fs = std::filesystem;

ModuleManifest parse_module_manifest(std::string_view text) {
    ModuleManifest out;
    out.exists = true;
    auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        out.error = "it is not a JSON object";
        return out;
    }
    auto records = doc.find("Modules");
    if (records == doc.end() || records->is_null()) return out;
    if (!records->is_array()) {
        out.error = "its \"Modules\" is not a list";
        return out;
    }
    for (const auto& record : *records) {
        if (!record.is_object()) continue;
        auto key = record.find("Key");
        auto dir = record.find("Dir");
        if (key == record.end() || dir == record.end() || !key->is_string() || !dir->is_string()) continue;
        InstalledModule m;
        m.key = key->get<std::string>();
        m.dir = dir->get<std::string>();
        std::replace(m.dir.begin(), m.dir.end(), '\\', '/');  // written on Windows
        m.dir = m.dir.starts_with("/") ? m.dir : clean_path(m.dir);
        if (auto s = record.find("Source"); s != record.end() && s->is_string()) m.source = s->get<std::string>();
        if (auto v = record.find("Version"); v != record.end() && v->is_string()) m.version = v->get<std::string>();
        if (out.modules.count(m.key) != 0) {
            out.error = fmt::format("it has two records for the module path \"{}\"", m.key);
            out.modules.clear();
            return out;
        }
        std::string k = m.key;
        out.modules.emplace(std::move(k), std::move(m));
    }
    return out;
}

std::optional<std::string> installed_mismatch(const InstalledModule& entry, const ModuleRequest& request) {
    const std::string address = request.address();
    const std::string installed =
        entry.source.empty() ? std::string() : parse_module_source(entry.source, false).normalized;
    if (installed != request.parsed.normalized) {
        return fmt::format(
            "The copy of {} in .terraform/modules was installed from \"{}\", but the call's source is now \"{}\" "
            "(Terraform: \"Module source has changed\").",
            address, entry.source, request.parsed.normalized);
    }
    std::optional<providers::CoreVersion> version;
    if (!entry.version.empty()) {
        version = providers::parse_core_version(entry.version);
        if (!version) {
            return fmt::format(
                "The copy of {} in .terraform/modules records the version \"{}\", which is not a "
                "version.",
                address, entry.version);
        }
    }
    if (request.version.empty()) return std::nullopt;
    auto constraints = providers::parse_core_constraints(request.version);
    if (!constraints) return std::nullopt;  // the loader reports the constraint; Terraform stops earlier
    if (!version) {
        return fmt::format(
            "The copy of {} in .terraform/modules records no version, but the call requires \"{}\" (Terraform: "
            "\"Module version requirements have changed\").",
            address, request.version);
    }
    if (!providers::core_constraints_allow(*constraints, *version)) {
        return fmt::format(
            "The copy of {} in .terraform/modules is version {}, which the call's constraint \"{}\" does not allow "
            "(Terraform: \"Module version requirements have changed\").",
            address, entry.version, request.version);
    }
    return std::nullopt;
}

namespace {

// The `//subdir` at the end of a normalized module source address; empty
// when it has none.
std::string subdir_of(std::string_view normalized) {
    for (std::size_t at = normalized.find("//"); at != std::string_view::npos; at = normalized.find("//", at + 2)) {
        if (at > 0 && normalized[at - 1] == ':') continue;  // a URL's scheme://
        std::string_view rest = normalized.substr(at + 2);
        return std::string(rest.substr(0, rest.find('?')));
    }
    return {};
}

}  // namespace

std::shared_ptr<const ModuleManifest> InstalledModulesResolver::manifest_of(const std::string& root_dir) {
    if (listings_ != nullptr) {
        // The scan listed the root and saw no `.terraform`: nothing installed
        // (nearly every root), settled before the manifest's path is made.
        static const auto none = std::make_shared<const ModuleManifest>();
        const ScanListings::Entries listed = listings_->find(absolute_normal_path(root_dir.empty() ? "." : root_dir));
        if (listed && !lists_entry(*listed, ".terraform")) return none;
    }
    const std::string path = (fs::path(root_dir.empty() ? "." : root_dir) / installed_manifest_path).string();
    const std::string key = absolute_normal_path(path);
    std::error_code ec;
    std::optional<std::int64_t> stamp;
    std::uintmax_t size = 0;
    const auto status = fs::status(path, ec);
    if (!ec && fs::exists(status)) {
        auto when = fs::last_write_time(path, ec);
        stamp = ec ? 0 : static_cast<std::int64_t>(when.time_since_epoch().count());
        size = fs::is_regular_file(status) ? fs::file_size(path, ec) : 0;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = read_.find(key);
    if (it != read_.end() && it->second.stamp == stamp && it->second.size == size) return it->second.manifest;
    auto manifest = std::make_shared<ModuleManifest>();
    if (stamp) {
        const FileContent content = read_regular_file(path, ReadPolicy{});
        if (content.ok()) {
            *manifest = parse_module_manifest(content.bytes);
        } else if (content.failure != ReadFailure::missing) {
            manifest->exists = true;
            manifest->error = content.message;
        }
    }
    read_[key] = Read{stamp, size, manifest};
    return manifest;
}

ModuleResolution InstalledModulesResolver::resolve(const ModuleRequest& request) {
    const std::shared_ptr<const ModuleManifest> manifest = manifest_of(request.root_dir);
    if (!manifest->exists) return ModuleResolution::missing(ModuleUnavailableKind::not_found, {});
    if (!manifest->error.empty()) {
        return ModuleResolution::missing(
            ModuleUnavailableKind::not_found,
            fmt::format("The module manifest {} cannot be used: {}.", installed_manifest_path, manifest->error));
    }
    auto entry = manifest->modules.find(request.key());
    // Not installed: nothing to say beyond that (the loader says it).
    if (entry == manifest->modules.end()) return ModuleResolution::missing(ModuleUnavailableKind::not_found, {});
    if (auto why = installed_mismatch(entry->second, request)) {
        return ModuleResolution::missing(ModuleUnavailableKind::not_found, std::move(*why));
    }
    // A directory removed since (Terraform: "Module not installed").
    std::error_code ec;
    const fs::path dir = entry->second.dir.starts_with("/")
                             ? fs::path(entry->second.dir)
                             : fs::path(request.root_dir.empty() ? "." : request.root_dir) / entry->second.dir;
    if (!fs::is_directory(dir, ec)) {
        return ModuleResolution::missing(
            ModuleUnavailableKind::not_found,
            fmt::format("The directory {} that .terraform/modules/modules.json names for {} cannot be read.",
                        entry->second.dir, request.address()));
    }
    ResolvedModule m;
    m.dir = entry->second.dir;
    m.package_dir = m.dir;
    const std::string subdir = subdir_of(request.parsed.normalized);
    if (!subdir.empty()) {
        const std::string cleaned = clean_path(subdir);
        if (m.dir.size() > cleaned.size() + 1 && m.dir.ends_with("/" + cleaned)) {
            m.package_dir = m.dir.substr(0, m.dir.size() - cleaned.size() - 1);
        }
    }
    m.provenance = ModuleProvenance::installed;
    m.version = entry->second.version;
    return ModuleResolution::found(std::move(m));
}

}  // namespace tfsift::config
