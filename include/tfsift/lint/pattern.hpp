// A regular expression of a [[policy]] table, compiled once with RE2.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace tfsift::lint {

class PolicyPattern {
public:
    // Compiles `text`; on failure returns nullopt and sets `error` to RE2's
    // explanation.
    static std::optional<PolicyPattern> compile(const std::string& text, std::string& error);

    [[nodiscard]] const std::string& text() const { return text_; }
    // Unanchored search, as RE2::PartialMatch: write ^...$ to match whole names.
    [[nodiscard]] bool search(std::string_view subject) const;

private:
    PolicyPattern() = default;
    std::string text_;
    std::shared_ptr<const re2::RE2> regex_;  // shared: copies of a policy reuse the compiled program
};

}  // namespace tfsift::lint
