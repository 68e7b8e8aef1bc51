// Version gates: whether the Terraform release that will run a module may be
// older than the release that changed a rule of the language. The
// `engine_version` setting names the release in use; without it, every
// release that the module's own `required_version` allows may run it (its
// callers' constraints are not known when the module is linted alone, and a
// module that relies on a recent release says so itself); without either,
// the newest release is assumed, as for the functions a release has
// (function-call-invalid) and TFLint's version-gated rules.
#pragma once

#include <string_view>

#include "tfsift/config/model.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

// Terraform v1.16 allows import blocks in child modules.
inline constexpr std::string_view child_module_imports_release = "1.16.0";

// True when the release in use may be older than `release` ("1.16.0").
[[nodiscard]] bool terraform_may_predate(const config::Module& module, const Settings& settings,
                                         std::string_view release);

}  // namespace tfsift::lint
