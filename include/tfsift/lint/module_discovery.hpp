// Finding the modules to lint: configuration files of a directory, module
// directories below a path, the engine flavour a directory is written for.
// (Which modules other modules call is read off their loaded module trees.)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tfsift/directory_listing.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

// The configuration files of a module directory in load order (see
// config::select_config_files: `.tf` and `.tf.json`, for OpenTofu also
// `.tofu` and `.tofu.json` shadowing their `.tf` twins; hidden files and
// editor backups left out). Excluded files (settings `exclude`) are dropped.
std::vector<std::string> module_config_files(const std::string& dir, Engine engine, const Settings& settings);

// Every directory at or below `root` that holds configuration files, sorted;
// hidden directories (.terraform, .git), excluded ones and symlinks to
// directories are skipped. A directory that cannot be listed (no permission,
// a path too long to open) is named in `problems`, in the order of the
// directories' names. `listings`, when given, receives every listing made,
// for the later steps of the same scan, by the directory's absolute path
// and by its real path (the root's real path and the names below it) when
// `root` is named through a symbolic link. Up to `jobs` directories are
// listed at once.
std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings,
                                          std::vector<std::string>& problems, ScanListings* listings = nullptr,
                                          unsigned jobs = 1);
// The same, without telling what could not be read.
std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings);

// True for the names of the files a lint reads and reports on, which may
// be named on the command line: configuration files (`.tf`, `.tf.json`,
// `.tofu`, `.tofu.json`), test files (`.tftest.hcl`, `.tftest.json`,
// `.tofutest.hcl`, `.tofutest.json`), the lock file, the settings file and the state
// file a module is compared with (`terraform.tfstate`). Anything else named
// there is a mistake, not something to lint.
bool is_lintable_file_name(std::string_view name);

// The sentence that says so, for `path`: "PATH: not a Terraform or
// OpenTofu file (...)".
std::string not_lintable_message(std::string_view path);

// True when `dir` has no configuration files of its own but a directory
// below it has: linting it without --recursive finds nothing, which deserves
// a hint.
bool needs_recursive_hint(const std::string& dir, const Settings& settings);

// OpenTofu when the directory has `.tofu` files or a lock file written by
// `tofu init`; Terraform otherwise. The directory is listed unless
// `listings` holds it.
Engine detect_engine(const std::string& dir, const ScanListings* listings = nullptr);

// The engine a module directory is linted for: the one asked for (the
// command line's --engine), else the settings' `engine`, else detected.
Engine resolve_engine(std::optional<Engine> asked, const Settings& settings, const std::string& dir,
                      const ScanListings* listings = nullptr);

}  // namespace tfsift::lint
