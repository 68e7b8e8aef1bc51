// The dependency lock file `.terraform.lock.hcl`: reading it with every
// diagnostic Terraform's depsfile package gives (spec 3.1-3.3), and writing
// it byte for byte as `SaveLocksToBytes` does (spec 3.4).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/providers/version.hpp"
#include "tfsift/source.hpp"

namespace tfsift::providers {

// The lock file's name in the root module directory.
inline constexpr std::string_view kLockFileName = ".terraform.lock.hcl";

// One `provider` block: the selected version, the constraints it was chosen
// under and the package hashes that are acceptable for it.
struct ProviderLock {
    Provider provider;
    Version version;                  // 0.0.0 when the file's value was unusable
    VersionConstraints constraints;   // empty when absent (or "")
    std::vector<std::string> hashes;  // "<scheme>:<value>", in the order held
    std::optional<Range> definition;  // `provider "<label>"` when read from a file
};

// depsfile.NewProviderLock: the hashes sorted bytewise and deduplicated, as
// every lock entry Terraform builds itself (reading a file keeps them as
// written).
[[nodiscard]] ProviderLock make_provider_lock(Provider provider, Version version, VersionConstraints constraints,
                                              std::vector<std::string> hashes);

// A set of provider locks, ordered as the file lists them (by address).
struct LockFile {
    std::map<Provider, ProviderLock> providers;

    [[nodiscard]] const ProviderLock* find(const Provider& provider) const;
};

// What reading gave: the locks that could be decoded (possibly partial when
// there are errors, exactly as Terraform's reader leaves them) and the
// diagnostics in Terraform's order.
struct LockFileRead {
    LockFile locks;
    Diagnostics diagnostics;
    std::shared_ptr<const SourceFile> source;  // null when nothing was read

    [[nodiscard]] bool has_errors() const { return tfsift::has_errors(diagnostics); }
};

struct LockReadOptions {
    Engine engine = Engine::terraform;
    // Named in the warning about `module` blocks ("Terraform v1.3.10 only
    // supports ..."); the engine's product name is used without it.
    std::string core_version;
    // How load_lock_file reads the file (tfsift/file_read.hpp).
    ReadPolicy read_policy;
};

// Reads lock file text. `source->path()` names the file in diagnostics.
[[nodiscard]] LockFileRead read_lock_file(const std::shared_ptr<const SourceFile>& source,
                                          const LockReadOptions& options = {});

// Reads the lock file at `path` under `options.read_policy`. A missing file
// is an empty lock set; a path that cannot be read (a directory, a FIFO, a
// dangling symlink, no permission, too large) is an error diagnostic.
[[nodiscard]] LockFileRead load_lock_file(const std::filesystem::path& path, const LockReadOptions& options = {});

// The file's first line, which differs by engine.
[[nodiscard]] std::string_view lock_file_header(Engine engine);

// The bytes SaveLocksToBytes writes: the two header lines, then one block
// per provider in address order; version, constraints (when they render
// non-empty) and hashes (in the order held) with HCL string escaping.
[[nodiscard]] std::string write_lock_file(const LockFile& locks, Engine engine);

// HCL quoted-string escaping as hclwrite does it (without the quotes):
// \n \r \t \" \\, "${" -> "$${", "%{" -> "%%{", other non-printable runes
// as \uXXXX / \UXXXXXXXX.
[[nodiscard]] std::string hcl_escape_string(std::string_view text);

// Which engine wrote an existing lock file, judged by its header line;
// nullopt when the header names neither.
[[nodiscard]] std::optional<Engine> engine_of_lock_header(std::string_view text);

}  // namespace tfsift::providers
