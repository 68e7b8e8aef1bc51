// The modules `terraform init` (or `terraform get`, `tofu init`) installed:
// .terraform/modules/modules.json in the root module's directory lists each
// one by its call path ("network.vpc"), with the source it was installed
// from, the version chosen and its directory. A resolver answers a call from
// there when the entry still matches it, as Terraform's loader checks before
// it uses an installed module: the same call path, the same source address
// (compared normalized), and a recorded version the call's constraint allows
// (a call with a constraint needs a recorded version).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "tfsift/config/module_source_resolver.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/file_read.hpp"

namespace tfsift::config {

// One entry of modules.json.
struct InstalledModule {
    std::string key;      // "network.vpc"; "" for the root module
    std::string source;   // as recorded
    std::string version;  // as recorded; empty when none
    std::string dir;      // cleaned; relative to the root module's directory (or absolute)
};

// A modules.json read, or why it could not be.
struct ModuleManifest {
    bool exists = false;                             // false: no .terraform/modules/modules.json (nothing installed)
    std::string error;                               // the file exists but cannot be used, and why; empty when it can
    std::map<std::string, InstalledModule> modules;  // by key
};

// Parses the text of a modules.json. Records without a string Key or Dir
// are left out; two records for one key make the file unusable, as they do
// for Terraform.
ModuleManifest parse_module_manifest(std::string_view text);

// Whether `entry` may serve the call `request`; when not, why (a sentence
// naming the call).
std::optional<std::string> installed_mismatch(const InstalledModule& entry, const ModuleRequest& request);

// Answers from the root's .terraform/modules/modules.json, read once per
// root directory (again when the file changes), as a regular file of at
// most default_max_file_size bytes. Directories are relative to the root
// directory, as recorded; the loader holds them to its own read policy (a
// directory outside the repository is refused there).
class InstalledModulesResolver final : public ModuleSourceResolver {
public:
    InstalledModulesResolver() = default;
    // `listings`: the listings of the one scan the resolver serves (null:
    // none; else it must outlive the resolver). A root directory listed
    // there without a `.terraform` entry has no manifest, known without
    // asking the file system for each call.
    explicit InstalledModulesResolver(const ScanListings* listings) : listings_(listings) {}

    ModuleResolution resolve(const ModuleRequest& request) override;

private:
    struct Read {
        std::optional<std::int64_t> stamp;  // modification time in ns; nullopt when there is no file
        std::uintmax_t size = 0;
        std::shared_ptr<const ModuleManifest> manifest;
    };
    std::shared_ptr<const ModuleManifest> manifest_of(const std::string& root_dir);

    std::mutex mutex_;
    std::map<std::string, Read> read_;  // by absolute root directory
    const ScanListings* listings_ = nullptr;
};

// The path of the manifest below a root module directory.
inline constexpr std::string_view installed_manifest_path = ".terraform/modules/modules.json";

}  // namespace tfsift::config
