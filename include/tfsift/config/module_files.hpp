// Which files of a module directory are configuration, which of them are
// override files, and in which order they are loaded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/engine.hpp"

namespace tfsift::config {

// OpenTofu also reads `.tofu` and `.tofu.json` files, and a `.tofu` file
// hides the `.tf` file of the same base name (`.tofu.json` hides `.tf.json`).

enum class FileSyntax : std::uint8_t { native, json };

enum class FileRole : std::uint8_t { primary, override };

struct ConfigFileName {
    std::string name;  // the file name, no directory
    FileSyntax syntax;
    FileRole role;
};

// The extension of a configuration file name (".tf", ".tf.json", and for
// OpenTofu ".tofu", ".tofu.json"), or "" when the name is not one.
std::string_view config_extension(std::string_view name, Engine engine);

// True for names Terraform skips even with a configuration extension: hidden
// files (`.x.tf`), editor backups (`x.tf~`) and Emacs autosaves (`#x.tf#`).
bool is_ignored_file_name(std::string_view name);

// Classifies one name; false when it is not a configuration file.
bool classify_file_name(std::string_view name, Engine engine, ConfigFileName& out);

// The configuration files among the entries `names` of one directory (file
// names only; directories already left out), in load order: byte-wise by
// name, with OpenTofu's shadowed `.tf` files removed.
std::vector<ConfigFileName> select_config_files(std::vector<std::string> names, Engine engine);

// The test files among the entries `names` of a module directory or of its
// test directory, in load order: `.tftest.hcl` and `.tftest.json`, and for
// OpenTofu `.tofutest.hcl` and `.tofutest.json`, each of which hides the
// `.tftest` file of the same base name.
std::vector<ConfigFileName> select_test_files(std::vector<std::string> names, Engine engine);

// Whether `name` (a file name, no directory) is a test file of either
// engine: `.tftest.hcl`, `.tftest.json`, `.tofutest.hcl`, `.tofutest.json`.
bool is_test_file_name(std::string_view name);

// The query files among the entries `names` of a module directory, in load
// order (Terraform v1.14's `.tfquery.hcl` and `.tfquery.json`; OpenTofu reads
// none).
std::vector<ConfigFileName> select_query_files(std::vector<std::string> names, Engine engine);

// The state migration files among the entries `names` of a module directory,
// in load order (Terraform's `.tfmigrate.hcl`, experimental builds of v1.16;
// there is no JSON form, and OpenTofu reads none).
std::vector<ConfigFileName> select_migration_files(std::vector<std::string> names, Engine engine);

// The mock data files among the entries `names` of a mock provider's
// `source` directory, in load order (Terraform's `.tfmock.hcl` and
// `.tfmock.json`).
std::vector<ConfigFileName> select_mock_data_files(std::vector<std::string> names);

}  // namespace tfsift::config
