// Turning the reference problems of one kind into findings of a rule, with
// the summary and detail as the message. Places where Terraform's loader
// already reported an error are left to it.
#pragma once

#include <string_view>

#include "reference_check.hpp"
#include "tfsift/lint/rule.hpp"

namespace tfsift::lint {

void report_reference_problems(const LintContext& ctx, FindingSink& sink, std::string_view rule_id,
                               ReferenceProblemKind kind);

}  // namespace tfsift::lint
