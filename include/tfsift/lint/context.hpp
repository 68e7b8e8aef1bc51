// What a rule's check sees: one module, loaded as the root of its module
// tree, with its files as written and its effective configuration.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_tree.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::providers {
class LocalPackageFinder;
}

namespace tfsift::lint {

struct Settings;

// Whether other modules of the scan call this one (`--recursive` tells them
// apart by following local module sources). Rules for shared modules differ
// from rules for root modules.
enum class ModuleRole : std::uint8_t { root, called };

struct LintContext {
    std::string module_dir;  // the module's directory, as the user named it
    ModuleRole role = ModuleRole::root;
    Engine engine = Engine::terraform;
    const Settings* settings = nullptr;  // never null while rules run

    // The module loaded as the root of its tree: override files applied, local
    // module calls followed. Findings belong in this module's own files; the
    // children are there to look at (what a called module declares).
    const config::LoadedTree* tree = nullptr;

    // The local state file to compare with (`--state`, or terraform.tfstate in
    // the module directory when present); empty when there is none.
    std::string state_file;
    // The state file was named with --state: it may lie outside the
    // repository (other files are read under tree->read_policy).
    bool state_file_given = false;
    // Finds the provider packages on this machine for the run, reading what
    // every module shares once; null: each module reads it again.
    const providers::LocalPackageFinder* packages = nullptr;
    // The listings the scan took (may be null; they outlive the rules), by
    // absolute, lexically normal directory: a directory listed there holds
    // nothing its listing does not name, known without asking the file
    // system again (a scan's files do not change while it runs).
    const ScanListings* listings = nullptr;

    // The scan's listing of the directory `dir` (absolute, lexically
    // normal); null when it has none.
    [[nodiscard]] ScanListings::Entries listing_of(const std::string& dir) const {
        return listings != nullptr ? listings->find(dir) : nullptr;
    }
    // Whether the scan's listing of `dir` shows that nothing named `name` is
    // there; false when it has no listing of `dir` (then ask).
    [[nodiscard]] bool listed_without(const std::string& dir, std::string_view name) const {
        const ScanListings::Entries listed = listing_of(dir);
        return listed && !lists_entry(*listed, name);
    }

    [[nodiscard]] const config::LoadedModule& module() const { return *tree->root; }
    [[nodiscard]] const std::vector<config::ModuleFile>& files() const { return tree->root->files; }
    // The syntax tree of a file of this module, null for a JSON file.
    [[nodiscard]] static const hcl::File* native(const config::ModuleFile& file) {
        return file.parsed->native ? &*file.parsed->native : nullptr;
    }
    [[nodiscard]] std::shared_ptr<const SourceFile> shared_source(const SourceFile* file) const {
        return tree->shared_source(file);
    }
};

}  // namespace tfsift::lint
