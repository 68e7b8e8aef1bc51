// Whether Terraform's loader (whose diagnostics become findings of their
// own) already reported something at a place, so a rule's check does not
// report it a second time.
#pragma once

#include "tfsift/lint/context.hpp"

namespace tfsift::lint {

// True when a diagnostic of the loader whose subject starts inside `range`
// of `file` has at least `at_least` severity.
bool loader_reported_within(const LintContext& ctx, const SourceFile* file, Range range,
                            Severity at_least = Severity::error);

}  // namespace tfsift::lint
