// Checks of one module that the upstream loaders make once the module is
// merged (its override files applied), rather than while decoding a single
// block: how `import` blocks agree with the resources they import into,
// OpenTofu's provider configurations with `for_each`, and what a module
// call's `source` and `version` may refer to (config/static_evaluation.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/config/model.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/engine.hpp"

namespace tfsift::config {

struct ModuleProblem {
    Severity severity = Severity::error;
    std::string_view code;  // diagnostic_codes.hpp
    std::string summary;
    std::string detail;
    Origin at;
};

// The problems of the merged module `m`.
std::vector<ModuleProblem> check_module(const Module& m, Engine engine);

// The problems of the merged module `m` because it is called as a child
// module: an import block (only the root module may import) and a backend
// (ignored). They do not depend on the caller, so that a module gets the same
// answer whether it is loaded under a caller or linted alone as the called
// module its repository makes it.
std::vector<ModuleProblem> check_called_module(const Module& m, Engine engine);

// `p` as a diagnostic of the tree phase, pointing into `source` (the file of
// `p.at`, or null).
LoadDiagnostic tree_diagnostic(ModuleProblem p, std::shared_ptr<const SourceFile> source);

}  // namespace tfsift::config
