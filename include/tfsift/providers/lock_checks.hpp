// The checks the lock file reader applies to the text of a provider entry's
// `version` and `constraints` (spec 3.3 steps 6-7): each must parse and be
// written in canonical form. Both problems can occur together.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfsift::providers {

struct LockProblem {
    std::string summary;
    std::string detail;
};

// `provider` is the entry's canonical address, as messages name it.
[[nodiscard]] std::vector<LockProblem> lock_version_problems(std::string_view text, std::string_view provider);
[[nodiscard]] std::vector<LockProblem> lock_constraints_problems(std::string_view text, std::string_view provider);

}  // namespace tfsift::providers
