// Static evaluation of a module call's `source` and `version` when they are
// written with variables and local values (OpenTofu v1.8, Terraform v1.15).
// Both engines work these out while installing modules, before anything is
// planned, from what is known then: variable defaults, the values the
// calling module block gives (worked out the same way in the caller), the
// root module's variable files, local values built from those, `path.*`, and
// pure functions. tfsift does the same with a small set of string functions;
// whatever it cannot work out stays unknown, with a sentence saying why, so
// the call is reported as not loaded instead of guessed.
//
// Which variables count as known differs: Terraform knows only variables
// declared `const = true`; OpenTofu knows every variable that is neither
// sensitive nor ephemeral. What may be referenced at all does not depend on
// the caller and is checked once per module (static_reference_problems).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/config/model.hpp"
#include "tfsift/cty/value.hpp"
#include "tfsift/engine.hpp"

namespace tfsift::config {

// A value worked out statically, or why it cannot be known.
struct StaticResult {
    std::optional<cty::Value> value;  // set when wholly known
    std::string unknown_because;      // otherwise: a clause such as "var.name has no default"
    // Not known because the engine refuses what it uses (a variable
    // Terraform does not know, a resource, an undeclared name, ...): an
    // error reported on its own (static_reference_problems, the reference
    // rules), not just a value missing.
    bool refused = false;
};

// The values given for a module's input variables, by variable name.
using StaticInputs = std::map<std::string, StaticResult, std::less<>>;

// What is known in one module while its module calls are installed.
struct StaticScope {
    const Module* module = nullptr;
    Engine engine = Engine::terraform;
    // Values for its variables: the caller's arguments, or for the root
    // module its variable files. A variable with none takes its default.
    StaticInputs given;
    // The root module: a variable without a value would come from -var or a
    // variable file (the sentence of an unknown value says so).
    bool is_root = true;
    // `path.module`: the module directory relative to the root module's
    // directory ("." for the root module itself).
    std::string module_path = ".";
};

// The value of `expr` in `scope`: wholly known, or the reason it is not.
StaticResult evaluate_static(const Expression& expr, const StaticScope& scope);

// The arguments of `call`, worked out in the caller's scope: the values its
// module block gives the called module's variables.
StaticInputs static_arguments(const ModuleCall& call, const StaticScope& caller);

// A reference a static `source` or `version` may not make (directly, or
// through the local values it uses), as the engine reports it.
struct StaticReferenceProblem {
    std::string_view code;  // diagnostic_codes.hpp
    std::string summary;
    std::string detail;
    Origin at;
};

// What `expr`, the `source` (or `version`, when `is_version`) of a module
// call, refers to that the engine cannot know while installing modules:
// resources, module outputs, `count`/`each`, and with Terraform variables
// not declared `const = true`; with OpenTofu sensitive and ephemeral
// variables. Independent of the caller, so reported once per module.
std::vector<StaticReferenceProblem> static_reference_problems(const Module& module, const std::string& call_name,
                                                              const Expression& expr, Engine engine, bool is_version);

}  // namespace tfsift::config
