// The effective configuration document (`tfsift effective --format json`),
// as ../shared/spec/effective-config.md defines it. It only serializes:
// the model it prints is in loaded_tree.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tfsift/config/loaded_tree.hpp"

namespace tfsift::config {

// The MODULE object of the document.
nlohmann::json module_to_json(const LoadedModule& module);

// The whole document; `root` null when the root directory could not be read.
// Diagnostics are sorted as the spec requires.
nlohmann::json effective_document(const LoadedModule* root, const std::vector<LoadDiagnostic>& diagnostics);

// Two-space indented text ending in a newline; invalid UTF-8 is replaced.
std::string dump_document(const nlohmann::json& document);

}  // namespace tfsift::config
