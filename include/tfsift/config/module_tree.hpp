// Loading a root module directory and the modules it calls: each module's
// files parsed, decoded and merged (override files applied), local module
// sources followed relative to the calling module, installed remote modules
// optionally followed through .terraform/modules/modules.json.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/module_files.hpp"

namespace tfsift::config {

struct TreeOptions {
    Engine engine = Engine::terraform;
    // Follow remote module calls that `terraform init` installed (listed in
    // the root's .terraform/modules/modules.json). Off by default: the
    // effective document's reference data loads local sources only.
    bool installed_modules = false;
    // Terraform v1.3.10's loader stops this deep without a diagnostic.
    int max_depth = 16;
};

struct LoadedTree {
    std::vector<std::unique_ptr<ParsedFile>> files;   // what every module points into
    std::unique_ptr<LoadedModule> root;               // null when the root directory cannot be read
    std::vector<LoadDiagnostic> diagnostics;          // in the order they arose

    [[nodiscard]] bool has_errors() const;
};

// Loads `root_dir` as the root module. File names in the result are relative
// to `root_dir`, with `/` separators.
LoadedTree load_module_tree(const std::string& root_dir, const TreeOptions& options = {});

}  // namespace tfsift::config
