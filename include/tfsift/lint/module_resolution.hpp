// The one chain of module source resolvers every command passes to the
// loader (config/module_source_resolver.hpp), so that `lint`, `lock`,
// `effective` and the server see the same module tree: the modules
// `terraform init` installed (.terraform/modules), then tfsift's module
// cache, then the network when the command may use it.
#pragma once

#include <memory>
#include <string>

#include "tfsift/config/module_source_resolver.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/engine.hpp"

namespace tfsift::lint {

// What a command allows the resolvers to do.
struct ModuleFetchPolicy {
    // The command may fetch what is neither installed nor cached
    // (`lint --online`, `lock`, `fetch`); false: no socket is opened.
    bool network = false;
    // --cache-dir; empty: TFSIFT_CACHE_DIR, else $XDG_CACHE_HOME/tfsift/modules.
    std::string cache_dir;
    // Whose CLI configuration (.terraformrc or .tofurc: hosts, credentials)
    // and default registry apply.
    Engine engine = Engine::terraform;
    // The settings' engine_version (sent as X-Terraform-Version); empty: none.
    std::string engine_version;
};

// The resolver chain for `policy`. Shared by every load of a run (it is
// safe to call from several threads), so that a package is fetched once.
// `listings` (may be null): the listings of the one scan the chain serves,
// which must outlive it (config::InstalledModulesResolver).
std::shared_ptr<config::ModuleSourceResolver> default_module_resolver(const ModuleFetchPolicy& policy,
                                                                      const ScanListings* listings = nullptr);

}  // namespace tfsift::lint
