#include "tfsift/lint/pattern.hpp"

#include <re2/re2.h>

namespace tfsift::lint {

std::optional<PolicyPattern> PolicyPattern::compile(const std::string& text, std::string& error) {
    RE2::Options options;
    options.set_log_errors(false);
    auto regex = std::make_shared<const RE2>(text, options);
    if (!regex->ok()) {
        error = regex->error();
        return std::nullopt;
    }
    PolicyPattern p;
    p.text_ = text;
    p.regex_ = std::move(regex);
    return p;
}

bool PolicyPattern::search(std::string_view subject) const {
    return RE2::PartialMatch(re2::StringPiece(subject.data(), subject.size()), *regex_);
}

}  // namespace tfsift::lint
