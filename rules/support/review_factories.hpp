// The factories of the rules of `tfsift lock diff` (lint/lock_review.hpp),
// one per file in rules/: what the catalogue (rules/support/catalogue.cpp)
// lists, both among the built-in rules (their documentation) and as the
// review rules (their checks). Private to rules/.
#pragma once

#include "tfsift/lint/lock_review.hpp"

namespace tfsift::lint::rules {

ReviewRule lock_hash_unsigned();
ReviewRule lock_signing_key_changed();
ReviewRule lock_version_downgraded();
ReviewRule lock_platforms_lost();
ReviewRule lock_source_moved();

}  // namespace tfsift::lint::rules
