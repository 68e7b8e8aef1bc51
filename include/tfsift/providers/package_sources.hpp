// Where provider packages can be found without a network (spec 7-8): the
// working directory's installed packages, the plugin cache, filesystem
// mirrors in both layouts, the implied local mirror directories and the
// `provider_installation` / `plugin_cache_dir` settings of the CLI
// configuration file. Directory trees are read defensively: names must be
// valid addresses, versions and platforms; nothing below a base directory is
// followed through a symlink except the last package directory itself.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/package_check.hpp"
#include "tfsift/providers/platform.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::providers {

// One package found on disk.
struct LocalPackage {
    Provider provider;
    Version version;
    Platform platform;
    PackageKind kind = PackageKind::directory;
    std::filesystem::path path;  // the zip, or the unpacked OS_ARCH directory
    // Why the package must not be read, e.g. its directory is a symlink
    // leading outside the places packages come from; empty when it may be.
    std::string refused;
};

// Packages of a filesystem mirror at `base`: unpacked
// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/ directories and packed
// HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip files.
// Entries whose names do not parse are skipped. Sorted by provider,
// platform and version; of several for the same triple the first found (in
// name order, so unpacked before packed) is kept.
[[nodiscard]] std::vector<LocalPackage> scan_filesystem_mirror(const std::filesystem::path& base, Engine engine);

// Unpacked packages only (.terraform/providers, the plugin cache).
// A package directory may be a symlink (Terraform links installed packages to
// the plugin cache) leading below `base` or below one of `link_roots`; one
// leading anywhere else (`/`, a home directory) is listed with `refused` set,
// so that nothing there is read as a package. Mirrors allow their own base.
[[nodiscard]] std::vector<LocalPackage> scan_unpacked_packages(
    const std::filesystem::path& base, Engine engine, const std::vector<std::filesystem::path>& link_roots = {});

// How tfsift reads environment variables; tests substitute their own.
using Environment = std::function<std::optional<std::string>(std::string_view name)>;
[[nodiscard]] Environment process_environment();

// One method of a `provider_installation` block. Patterns are kept as
// written ("[HOST/]NAMESPACE/TYPE" with "*" wildcards).
struct InstallationMethod {
    enum class Kind : std::uint8_t { direct, filesystem_mirror, network_mirror, dev_overrides } kind;
    std::string location;  // filesystem_mirror: path; network_mirror: url
    std::vector<std::string> include;
    std::vector<std::string> exclude;
};

// The parts of the CLI configuration that decide where packages come from.
struct CliConfig {
    std::vector<std::filesystem::path> files;  // the files read, in order
    std::optional<std::filesystem::path> plugin_cache_dir;
    bool plugin_cache_may_break_dependency_lock_file = false;
    std::optional<std::vector<InstallationMethod>> provider_installation;  // nullopt: implied
    Diagnostics diagnostics;
};

// The CLI configuration files in effect (spec 8.1): TF_CLI_CONFIG_FILE or
// TERRAFORM_CONFIG, else ~/.terraformrc (OpenTofu: ~/.tofurc, then
// ~/.terraformrc, then $XDG_CONFIG_HOME/opentofu/tofurc) plus *.tfrc of the
// config directory when no variable names a file.
[[nodiscard]] std::vector<std::filesystem::path> cli_config_files(const Environment& env, Engine engine);

// Reads and merges the given files (HCL native syntax, the common subset of
// HCL 1). TF_PLUGIN_CACHE_DIR and TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE
// override the files. `$VAR`/`${VAR}` in plugin_cache_dir are expanded.
[[nodiscard]] CliConfig read_cli_config(const std::vector<std::filesystem::path>& files, const Environment& env);

// The implied local mirror directories of spec 7.2 (Unix), in search order,
// only those that exist as directories. `cwd` is the launch directory.
[[nodiscard]] std::vector<std::filesystem::path> implied_mirror_directories(const Environment& env, Engine engine,
                                                                            const std::filesystem::path& cwd);
// The first of them, `cwd`'s terraform.d/plugins, when it exists.
[[nodiscard]] std::optional<std::filesystem::path> working_mirror_directory(const std::filesystem::path& cwd);
// The rest: the directories of the user and the system.
[[nodiscard]] std::vector<std::filesystem::path> user_mirror_directories(const Environment& env, Engine engine);

// Whether a filesystem/network mirror method handles `provider` under its
// include/exclude patterns (spec 8.2). Invalid patterns match nothing.
[[nodiscard]] bool method_handles(const InstallationMethod& method, const Provider& provider, Engine engine);

// Every package tfsift can see for a working directory, by where it is.
struct LocalPackages {
    std::vector<LocalPackage> installed;  // <data dir>/providers (TF_DATA_DIR or .terraform)
    std::vector<LocalPackage> cache;      // the plugin cache, if configured
    std::vector<LocalPackage> mirrors;    // filesystem mirrors, in method order
    Diagnostics diagnostics;              // from the CLI configuration
};

[[nodiscard]] LocalPackages find_local_packages(const std::filesystem::path& working_dir, const Environment& env,
                                                Engine engine);

// find_local_packages for many working directories: what does not depend on
// the working directory (the CLI configuration, the plugin cache's packages,
// the filesystem mirrors of the configuration and the user's implied mirror
// directories) is read the first time an engine asks and kept, so a lint of
// many modules reads them once. What changes on disk after that is not
// seen: one finder serves one run. Safe to use from several threads.
class LocalPackageFinder {
public:
    // `listings` (may be null; else it must outlive the finder): the
    // listings of the scan the finder serves. A working directory listed
    // there without a `.terraform` (the data directory, TF_DATA_DIR unset)
    // or a `terraform.d` entry is not searched for what they would hold.
    explicit LocalPackageFinder(Environment env, const ScanListings* listings = nullptr);
    ~LocalPackageFinder();
    LocalPackageFinder(const LocalPackageFinder&) = delete;
    LocalPackageFinder& operator=(const LocalPackageFinder&) = delete;

    [[nodiscard]] LocalPackages find(const std::filesystem::path& working_dir, Engine engine) const;

private:
    struct Shared;
    [[nodiscard]] const Shared& shared(Engine engine) const;

    Environment env_;
    const ScanListings* listings_ = nullptr;
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tfsift::providers
