// Slash-separated paths as Terraform's loader handles them: lexical
// cleaning (Go's path.Clean) and local module source addresses.
#pragma once

#include <string>
#include <string_view>

namespace tfsift::config {

// Go's path.Clean: one slash between elements, `.` steps removed, `..` steps
// resolved against the preceding element where there is one, "." for an
// empty result.
std::string clean_path(std::string_view path);

// Joins a module directory and a relative path and cleans the result
// ("." joined with "x" is "x").
std::string join_path(std::string_view dir, std::string_view relative);

// True when a module source address is a local path (starts with "./" or
// "../", the only forms Terraform treats as local).
bool is_local_module_source(std::string_view source);

// The normalized form of a local module source: cleaned, keeping a "./"
// prefix on anything that does not start with "../".
std::string normalize_local_module_source(std::string_view source);

}  // namespace tfsift::config
