#include "tfsift/providers/lock_checks.hpp"

#include <fmt/format.h>

#include "providers/go_quote.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::providers {

std::vector<LockProblem> lock_version_problems(std::string_view text, std::string_view provider) {
    constexpr std::string_view kSummary = "Invalid provider version number";
    std::vector<LockProblem> problems;
    auto parsed = parse_version(text);
    if (!parsed.version) {
        problems.push_back(
            {std::string(kSummary),
             fmt::format("The selected version number for provider {} is invalid: {}.", provider, parsed.error)});
    }
    // A failed parse leaves the zero version, whose form never matches.
    const std::string canonical = parsed.version ? parsed.version->to_string() : Version{}.to_string();
    if (canonical != text) {
        problems.push_back({std::string(kSummary),
                            fmt::format("The selected version number for provider {} must be written in normalized "
                                        "form: {}.",
                                        provider, go_quote(canonical))});
    }
    return problems;
}

std::vector<LockProblem> lock_constraints_problems(std::string_view text, std::string_view provider) {
    constexpr std::string_view kSummary = "Invalid provider version constraints";
    std::vector<LockProblem> problems;
    auto parsed = parse_constraints(text);
    if (!parsed.constraints) {
        problems.push_back(
            {std::string(kSummary),
             fmt::format("The recorded version constraints for provider {} are invalid: {}.", provider, parsed.error)});
    }
    const std::string canonical = parsed.constraints ? render_constraints(*parsed.constraints) : std::string();
    if (canonical != text) {
        problems.push_back(
            {std::string(kSummary), fmt::format("The recorded version constraints for provider {} must be written in "
                                                "normalized form: {}.",
                                                provider, go_quote(canonical))});
    }
    return problems;
}

}  // namespace tfsift::providers
