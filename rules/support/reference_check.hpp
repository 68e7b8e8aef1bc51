// What `terraform validate` / `tofu validate` find wrong with the references
// of a module's expressions, without provider schemas: references to
// objects the module does not declare, module outputs the called module does
// not declare, `count`, `each` and `self` outside the blocks that give them,
// attributes a declared variable type cannot have, malformed and reserved
// references, and `depends_on` items that are not whole objects. The
// summaries and details are Terraform's (OpenTofu's where they differ).
// Several rules report parts of the result.
#pragma once

#include <string>
#include <vector>

#include "tfsift/lint/context.hpp"

namespace tfsift::lint {

enum class ReferenceProblemKind : std::uint8_t {
    undeclared,        // an undeclared variable, local value, resource, module or module output
    invalid,           // the reference cannot be valid anywhere or here
    workspace_remote,  // terraform.workspace with a `remote` backend
};

struct ReferenceProblem {
    ReferenceProblemKind kind = ReferenceProblemKind::undeclared;
    Severity severity = Severity::error;
    std::string summary;
    std::string detail;
    const SourceFile* file = nullptr;
    Range range;
};

// The problems of the context's module (its own files only), in file load
// order and source order.
std::vector<ReferenceProblem> reference_problems(const LintContext& ctx);

}  // namespace tfsift::lint
