// Where the module tree loader gets the directory of a module call whose
// source is not a local path (a registry address, git, an archive URL).
//
// The loader (config/module_tree.hpp) follows local sources by itself and
// asks a ModuleSourceResolver for every other call: "give me the directory
// of this call". The loader never opens a socket; whoever starts a command
// (lint, lock, effective, the server) passes the resolver, so every command
// sees the same tree. A resolver answers with a directory on this machine
// and where it came from, or says why the call is unavailable.
//
// Resolvers are tried in a chain (ModuleResolverChain below): the modules
// `terraform init` installed (.terraform/modules/modules.json, see
// installed_modules.hpp), then tfsift's module cache, then the network when
// the command may use it. The first that has the module answers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/config/model.hpp"
#include "tfsift/config/sources.hpp"

namespace tfsift::config {

// One module call the loader needs a directory for.
struct ModuleRequest {
    // The root module's directory as the loader was given it (relative to
    // the working directory, or absolute): `.terraform/modules` lies there.
    std::string root_dir;
    // The calling module's directory: relative to root_dir ("." for the
    // root module), or absolute for a module that a resolver placed outside
    // it (a cache entry).
    std::string caller_dir;
    // The call's path from the root: {"network", "vpc"} for
    // module.network.module.vpc. Its key in modules.json is "network.vpc".
    std::vector<std::string> path;
    std::string source;             // the `source` value as written
    ModuleSourceResult parsed;      // parse_module_source of it: kind and normalized address
    std::string version;            // the `version` constraint as written; empty when none
    Origin source_origin;           // where `source` is written (the call's block when unknown)
    std::optional<Origin> version_origin;

    // "network.vpc": the key modules.json files the call under.
    [[nodiscard]] std::string key() const;
    // "module.network.module.vpc".
    [[nodiscard]] std::string address() const;
};

// Where a resolved module came from.
enum class ModuleProvenance : std::uint8_t {
    installed,  // .terraform/modules, as `terraform init` (or `terraform get`) laid it out
    cache,      // tfsift's module cache, filled by an earlier fetch
    network,    // fetched by this run
};

std::string_view to_string(ModuleProvenance provenance);

// A module call's directory on this machine.
struct ResolvedModule {
    // The module's directory, the source's `//subdir` applied: relative to
    // the request's root_dir, or absolute.
    std::string dir;
    // The top of the package the module came in (dir without the subdir).
    // Local sources of modules inside the package must stay in it
    // ("Local module path escapes module package"), and its files are read
    // as belonging to it even when it lies outside the repository.
    std::string package_dir;
    ModuleProvenance provenance = ModuleProvenance::installed;
    std::string version;   // registry sources: the version chosen; empty otherwise
    std::string revision;  // git: the commit SHA; archives: "sha256:HEX" of the archive; empty when unknown
};

// Why a call has no directory.
enum class ModuleUnavailableKind : std::uint8_t {
    // This resolver holds no copy (not installed, not cached, an installed
    // copy whose source or version no longer matches the call). The next
    // resolver of a chain is asked.
    not_found,
    // The module could be fetched, but this command may not use the network
    // (`lint` without --online, --offline, TFSIFT_OFFLINE=1).
    not_fetched,
    // A source tfsift does not fetch (s3::, gcs::, hg::, bitbucket.org/,
    // oci://): `terraform init` can install it.
    unsupported,
    // Fetching was tried and failed: 404, an unresolvable version
    // constraint, a missing git ref, a refused credential, a hostile
    // archive, a stalled transfer. An error: commands that had to fetch
    // exit 2.
    failed,
};

std::string_view to_string(ModuleUnavailableKind kind);

struct ModuleUnavailable {
    ModuleUnavailableKind kind = ModuleUnavailableKind::not_found;
    // Sentences saying why, naming the host and the module where there is
    // one; never a credential. Empty for a plain "not installed".
    std::string reason;
};

// What a resolver answers: a directory, or why there is none.
struct ModuleResolution {
    std::optional<ResolvedModule> module;
    ModuleUnavailable unavailable;  // meaningful when `module` is empty

    [[nodiscard]] bool resolved() const { return module.has_value(); }
    static ModuleResolution found(ResolvedModule m);
    static ModuleResolution missing(ModuleUnavailableKind kind, std::string reason);
};

// Gives the directory for a module call that names a registry or remote
// source. Several loads ask at once (lint loads trees in parallel) and a
// resolver is shared between them: resolve() must be safe to call from
// several threads. A resolver asked for the same package twice in one run
// fetches it once.
//
// The loader itself says which checks an unavailable call leaves incomplete
// and how to fetch it (module_tree.hpp); a resolver only says why.
class ModuleSourceResolver {
public:
    virtual ~ModuleSourceResolver() = default;
    virtual ModuleResolution resolve(const ModuleRequest& request) = 0;
};

// Asks each resolver in turn and answers with the first directory found.
// When none has one, answers with the most telling reason: `failed` before
// `unsupported` before `not_fetched` before `not_found` (of equals, the
// first), with the reasons of the others that said something appended.
class ModuleResolverChain final : public ModuleSourceResolver {
public:
    explicit ModuleResolverChain(std::vector<std::shared_ptr<ModuleSourceResolver>> resolvers)
        : resolvers_(std::move(resolvers)) {}
    ModuleResolution resolve(const ModuleRequest& request) override;

private:
    std::vector<std::shared_ptr<ModuleSourceResolver>> resolvers_;
};

}  // namespace tfsift::config
