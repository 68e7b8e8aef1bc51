// The target of a test file's override block (`override_resource`,
// `override_data`, `override_module`), read the way Terraform reads it:
// addrs.ParseTarget over the traversal, which accepts any number of module
// calls (`module.NAME`, each with an optional instance key) followed by
// nothing (the module call) or by one resource address
// (`[data.|ephemeral.|list.|resource.]TYPE.NAME`, with an optional instance
// key). Each block then accepts only its own kind of target.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "tfsift/hcl/ast.hpp"

namespace tfsift::config {

enum class OverrideTargetKind { module, managed, data, ephemeral, list };

struct OverrideTarget {
    OverrideTargetKind kind = OverrideTargetKind::module;
    // The names of the address without instance keys or a leading
    // `resource.`: module pairs, then `data` (data sources only), TYPE, NAME.
    std::vector<std::string> names;
};

// Why a traversal is no target: Terraform's summary, a detail, and the part
// of the traversal at fault.
struct OverrideTargetError {
    std::string summary;
    std::string detail;
    Range range;
};

std::variant<OverrideTarget, OverrideTargetError> parse_override_target(const hcl::ScopeTraversalExpr& t);

}  // namespace tfsift::config
