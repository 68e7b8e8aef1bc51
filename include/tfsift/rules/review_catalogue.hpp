// The rules of `tfsift lock diff`, with their review checks (what
// lint::LockReviewRequest::rules takes). Their documentation is also in
// builtin_rules() (catalogue.hpp), like every rule's. The list is
// rules/support/catalogue.cpp.
#pragma once

#include <span>

#include "tfsift/lint/lock_review.hpp"

namespace tfsift::lint {

std::span<const ReviewRule> builtin_review_rules();

}  // namespace tfsift::lint
