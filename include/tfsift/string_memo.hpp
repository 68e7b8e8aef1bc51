// Answers of a pure function of a string, remembered per thread: the parsers
// of version constraints and provider addresses see the same few strings
// thousands of times in one run (every module's `required_version`, every
// provider's `source` and `version`), and each parse costs regular
// expressions and IDNA mapping. Bounded: past `limit` entries the memo
// starts again, so that a long-running process does not grow without end.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tfsift {

template <class Value, std::size_t limit = 4096>
class StringMemo {
public:
    // The answer for `key`, computed by `compute(key)` the first time. The
    // reference lives until the next call.
    template <class Compute>
    const Value& get(std::string_view key, Compute&& compute) {
        if (auto it = answers_.find(key); it != answers_.end()) return it->second;
        if (answers_.size() >= limit) answers_.clear();
        return answers_.emplace(std::string(key), std::forward<Compute>(compute)(key)).first->second;
    }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, Value, Hash, std::equal_to<>> answers_;
};

}  // namespace tfsift
