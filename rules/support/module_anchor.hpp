// Where a finding about a whole module is reported: the `terraform` keyword
// of its first `terraform` block (the block that says which versions and
// providers the module needs, and holds its backend), else the start of its
// first file. Findings about what the module as a whole lacks (a lock file, a
// required_version) sit there, where a reader fixes them, rather than at
// whatever block happened to need a provider first.
#pragma once

#include <memory>

#include "tfsift/lint/context.hpp"
#include "tfsift/source.hpp"

namespace tfsift::lint::rules {

struct ModuleAnchor {
    std::shared_ptr<const SourceFile> file;  // null for a module without files
    Range range;                             // empty at the start of the file when there is no terraform block
};

[[nodiscard]] ModuleAnchor module_anchor(const LintContext& ctx);

}  // namespace tfsift::lint::rules
