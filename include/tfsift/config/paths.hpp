// Paths: slash-separated paths as Terraform's loader handles them (lexical
// cleaning as Go's path.Clean, local module source addresses), and the
// absolute form tfsift compares files by.
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

// The process's working directory, asked of the system once and kept
// (empty when it cannot be known); working_directory_changed() after a
// chdir makes the next call ask again.
std::string working_directory();
void working_directory_changed();

// Normalises a path to absolute, lexically normal, '/'-separated form,
// without a trailing slash (the file system is not consulted).
std::string absolute_normal_path(const std::string& path);

}  // namespace tfsift::config
