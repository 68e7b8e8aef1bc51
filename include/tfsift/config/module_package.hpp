// A remote module source taken apart for fetching: which installer handles
// it (the module registry, the system `git`, an HTTP archive or an HTTP
// page naming another location) and its parts, the way Terraform's
// go-getter set-up reads the address parse_module_source normalised. Pure;
// the fetchers live in online/. Sources tfsift deliberately does not fetch
// (s3::, gcs::, hg::, bitbucket.org/, oci://, absolute file paths) come
// back as `unsupported` with the reason a notice shows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tfsift::config {

enum class ModulePackageKind : std::uint8_t {
    registry,     // host/namespace/name/system, versions from the module registry
    git,          // the system git binary
    http_archive, // an https URL of a zip / tar.gz / tar.bz2 / tar.xz archive
    http_page,    // an https URL answered with X-Terraform-Get or a terraform-get meta tag
    unsupported,  // see `reason`
    invalid,      // parse_module_source refused it; see `reason`
};

// The archive formats module packages may come in (Terraform's getmodules
// decompressors that yield a directory).
enum class ArchiveFormat : std::uint8_t { none, zip, tar_gz, tar_bz2, tar_xz };

[[nodiscard]] std::string_view archive_format_name(ArchiveFormat format);
// "zip", "tar.gz", "tgz", "tar.bz2", "tbz2", "tar.tbz2", "tar.xz", "txz";
// nullopt for any other name (single-file "gz", "bz2", "xz" included).
[[nodiscard]] std::optional<ArchiveFormat> archive_format_named(std::string_view name);

struct ModulePackage {
    ModulePackageKind kind = ModulePackageKind::invalid;
    std::string source;   // the normalised source, subdirectory included (the cache key's first half)
    std::string package;  // the normalised source without its subdirectory
    std::string subdir;   // "" or a clean relative path ("modules/vpc")

    // registry
    std::string host;       // comparison form, e.g. "registry.terraform.io" or "127.0.0.1:8443"
    std::string namespace_;
    std::string name;
    std::string system;

    // git
    std::string url;                  // what `git clone` is given (no ref/depth/sshkey query)
    std::string ref;                  // ?ref=, empty: the remote's default branch
    std::optional<unsigned> depth;    // ?depth=

    // http_archive / http_page: `url` is the URL requested (archive= removed)
    ArchiveFormat archive = ArchiveFormat::none;

    std::string reason;  // unsupported / invalid: why it is not fetched

    // host[:port] of the package for messages (never user information).
    [[nodiscard]] std::string display_host() const;
};

// Classifies a module call's `source` (as written). `registry_only`: the
// call has a `version` argument, so only a registry address is valid.
[[nodiscard]] ModulePackage classify_module_package(std::string_view raw_source, bool registry_only);

// Classifies an address a module registry or an X-Terraform-Get answer
// handed over: a direct remote package address (git, an archive, a page).
// A registry address or a local path is `invalid` with Terraform's reason.
[[nodiscard]] ModulePackage classify_package_location(std::string_view location);

}  // namespace tfsift::config
