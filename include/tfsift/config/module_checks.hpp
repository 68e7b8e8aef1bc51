// Checks of one module that the upstream loaders make once the module is
// merged (its override files applied), rather than while decoding a single
// block: how `import` blocks agree with the resources they import into, and
// OpenTofu's provider configurations with `for_each`.
#pragma once

#include <string>
#include <vector>

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

}  // namespace tfsift::config
