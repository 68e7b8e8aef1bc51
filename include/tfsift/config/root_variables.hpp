// The values a root module's input variables get while `init` installs its
// modules, for module sources and versions worked out statically
// (config/static_evaluation.hpp). Both engines read them in this order, a
// later value replacing an earlier one: `TF_VAR_name` environment variables;
// `terraform.tfvars`, then `terraform.tfvars.json`; the `*.auto.tfvars` and
// `*.auto.tfvars.json` files in lexical order of their names; then the
// `-var NAME=VALUE` options and `-var-file` files in the order given.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfsift/config/static_evaluation.hpp"
#include "tfsift/source.hpp"

namespace tfsift::config {

// One value given on the command line: `-var-file FILE` or `-var NAME=VALUE`.
struct RootVariableInput {
    enum class Kind : std::uint8_t { file, assignment };
    Kind kind = Kind::file;
    std::string text;  // the file's path, or NAME=VALUE
};

// What the user gives the root modules' variables beyond their own files.
struct RootVariableInputs {
    std::vector<std::pair<std::string, std::string>> environment;  // from TF_VAR_NAME=VALUE: (NAME, VALUE)
    std::vector<RootVariableInput> command_line;                   // in the order given
};

// The TF_VAR_ variables of an environment given as NAME=VALUE entries (such
// as `environ`): (NAME, VALUE) pairs, in the order given.
std::vector<std::pair<std::string, std::string>> variable_environment(const char* const* environment);

// Whether `name` is a variable file `init` reads from the root module's
// directory by itself; `json` says which syntax.
bool is_automatic_variable_file(std::string_view name, bool& json);

// The values a variable file sets, into `out` (replacing earlier ones):
// each a constant, or unknown with a clause naming `shown` when its
// expression is not one. `json` for the JSON syntax (`.tfvars.json`).
void read_variable_file(const std::shared_ptr<const SourceFile>& source, bool json, const std::string& shown,
                        StaticInputs& out);

// A value given as text (`-var NAME=VALUE`, `TF_VAR_NAME`), as the engines
// read it for `declared`: the text itself for a variable without a type or
// with a primitive one, else the text parsed as an expression.
StaticResult variable_value_from_text(std::string_view text, const Variable& declared, const std::string& shown);

}  // namespace tfsift::config
