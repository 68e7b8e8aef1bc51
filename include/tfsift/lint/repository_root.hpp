// The repository a path belongs to. Whether a module is a root module or a
// shared one is a property of the repository, so every scope (a recursive
// run, one directory, one file) must start from the same root.
#pragma once

#include <optional>
#include <string>

namespace tfsift::lint {

// The repository root of `start` (a file or directory): the nearest
// directory upward holding `.git`, or holding a `.tfsift.toml` that says
// `root = true`, whichever comes first; nullopt when there is neither.
// Absolute and lexically normal.
std::optional<std::string> find_marked_repository_root(const std::string& start);

// The same, else `fallback` when given, else the directory of `start`.
std::string find_repository_root(const std::string& start, const std::string& fallback = {});

// The directory everything a lint of `start` reads must resolve into
// (tfsift/file_read.hpp's trusted root), absolute with symlinks resolved:
// the marked repository root above; without one (an exported checkout, a
// container build context, a CI artifact: no `.git`), the working directory
// when `start` lies inside it, so that `envs/prod` may call
// `../../modules/vpc` as Terraform lets it; else the directory of `start`.
std::string trusted_repository_root(const std::string& start);

// Whether the settings file `path` sets `root = true` (false when it cannot
// be read or parsed; the settings loader reports that).
bool settings_file_marks_root(const std::string& path);

}  // namespace tfsift::lint
