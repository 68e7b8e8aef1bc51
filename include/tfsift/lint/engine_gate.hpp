// Version gates: whether the release of the engine (Terraform or OpenTofu)
// that will run a module may be older than the release that changed a rule
// of the language. The `engine_version` setting names the release in use; without it, every
// release that the module's own `required_version` allows may run it (its
// callers' constraints are not known when the module is linted alone, and a
// module that relies on a recent release says so itself); without either,
// the newest release is assumed, as for the functions a release has
// (function-call-invalid) and TFLint's version-gated rules.
#pragma once

#include <string_view>

#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/config/model.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

// Terraform v1.16 allows import blocks in child modules.
inline constexpr std::string_view child_module_imports_release = "1.16.0";

// Module `source` and `version` written with variables and local values,
// evaluated while installing modules: Terraform v1.15, OpenTofu v1.8.
inline constexpr std::string_view terraform_static_module_sources_release = "1.15.0";
inline constexpr std::string_view opentofu_static_module_sources_release = "1.8.0";

// A null module `version` counts as none: Terraform v1.15.5, OpenTofu v1.10.
inline constexpr std::string_view terraform_null_module_version_release = "1.15.5";
inline constexpr std::string_view opentofu_null_module_version_release = "1.10.0";

// True when the release in use may be older than `release` ("1.16.0"), a
// release of the engine in use (`required_version` constrains the release of
// whichever engine runs the module).
[[nodiscard]] bool release_may_predate(const config::Module& module, const Settings& settings,
                                       std::string_view release);

// True when the lint leaves out the loader diagnostic `d` of `tree`: it
// belongs to one side of a version gate and the module that holds it runs
// on the other. Import blocks in child modules are an error before
// Terraform v1.16 only. References in a module's source and version are
// refused before Terraform v1.15 and OpenTofu v1.8 and evaluated from then
// on (config/static_evaluation.hpp); the loader gives both answers under
// different codes. A null module version makes a local source an error
// before Terraform v1.15.5 and OpenTofu v1.10 only.
[[nodiscard]] bool dropped_by_release(const config::LoadedTree& tree, const config::LoadDiagnostic& d, Engine engine,
                                      const Settings& settings);

}  // namespace tfsift::lint
