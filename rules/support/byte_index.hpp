// Things of one file found by the byte they start at: added, sorted once,
// then looked up by binary search. Rules that report many declarations of a
// module find each one's range so, rather than searching its file for each
// (which made them quadratic in the declarations).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace tfsift::lint::rules {

template <class T>
class ByteIndex {
public:
    void add(std::uint32_t byte, T value) { entries_.push_back({byte, std::move(value)}); }

    // Orders what was added; of two at one byte, the one added first is found.
    void sort() {
        std::stable_sort(entries_.begin(), entries_.end(),
                         [](const Entry& a, const Entry& b) { return a.byte < b.byte; });
    }

    // What starts at `byte`, or null; after sort().
    [[nodiscard]] const T* find(std::uint32_t byte) const {
        auto at = std::lower_bound(entries_.begin(), entries_.end(), byte,
                                   [](const Entry& e, std::uint32_t b) { return e.byte < b; });
        return at != entries_.end() && at->byte == byte ? &at->value : nullptr;
    }

private:
    struct Entry {
        std::uint32_t byte;
        T value;
    };
    std::vector<Entry> entries_;
};

}  // namespace tfsift::lint::rules
