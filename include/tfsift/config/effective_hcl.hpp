// The effective configuration as HCL native syntax (`tfsift effective
// --format hcl`): one section per module of the tree, each a valid module
// body on its own, every block and argument annotated with the
// `# from FILE:LINE` that supplied it.
#pragma once

#include <string>
#include <vector>

#include "tfsift/config/loaded_tree.hpp"

namespace tfsift::config {

// The sections of every module in the tree, root first, children in name
// order, then the diagnostics as comments.
std::string effective_hcl(const LoadedModule& root, const std::vector<LoadDiagnostic>& diagnostics);

// One module's merged configuration as HCL, without its children.
std::string module_hcl(const LoadedModule& module);

// A JSON value (cty's JSON form of a decoded value) as an HCL literal.
std::string hcl_literal(const nlohmann::json& value);

}  // namespace tfsift::config
