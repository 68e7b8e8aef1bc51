// A query file (`*.tfquery.hcl`, `*.tfquery.json`; Terraform v1.14): the
// `list` blocks `terraform query` runs, and the provider configurations,
// variables and locals they use. `terraform query` and `terraform validate
// -query` read them from every module directory and add their declarations
// to the module; tfsift reads them with their module and checks them as that
// loader does, but never merges them into the module's configuration.
// OpenTofu has no query files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tfsift/config/config_file.hpp"

namespace tfsift::config {

// A `list "TYPE" "NAME"` block.
struct QueryList {
    std::string type;
    std::string name;
    std::optional<std::string> provider;  // "aws" or "aws.alias"
    Range def_range;
    bool valid = true;  // decoded without errors: Terraform keeps only these in the module

    [[nodiscard]] std::string key() const { return type + "." + name; }
};

struct QueryFile {
    const SourceFile* source = nullptr;
    std::vector<QueryList> lists;  // source order
    // The file's `provider`, `variable` and `locals` blocks, decoded as in a
    // configuration file.
    ConfigFile declarations;
};

}  // namespace tfsift::config
