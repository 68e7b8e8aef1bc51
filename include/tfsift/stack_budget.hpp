// A bound on how much stack a recursive walk over hostile input may use.
// Counting levels alone is not enough: a frame is several times larger in a
// sanitizer build than in an optimised one, so the same count that is safe in
// one overflows the other. The budget is measured from the frame that first
// asks, so it is independent of how deep the caller already is.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tfsift {

class StackBudget {
public:
    explicit StackBudget(std::size_t bytes) : limit_(bytes) {}

    // True once the calling frame lies more than the budget below the frame
    // of the first call. (Stacks grow downwards on every platform we build for.)
    [[nodiscard]] bool exceeded() {
        char marker = 0;
        const auto here = reinterpret_cast<std::uintptr_t>(&marker);
        if (base_ == 0) base_ = here;
        return base_ > here && base_ - here > limit_;
    }

private:
    std::uintptr_t base_ = 0;
    std::size_t limit_;
};

}  // namespace tfsift
