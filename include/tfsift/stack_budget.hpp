// A bound on how much stack a recursive walk over hostile input may use.
// Counting levels alone is not enough: a frame is several times larger in a
// sanitizer build than in an optimised one, so the same count that is safe in
// one overflows the other. Nor is a fixed byte count: the stack itself may be
// smaller than the budget (`ulimit -s 1024` gives the main thread 1 MiB). The
// budget is measured from the frame that first asks, so it is independent of
// how deep the caller already is, and it never exceeds what the calling
// thread's real stack has left below that frame, less a reserve for the
// calls the deepest frame still makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace tfsift {

// Bytes of stack the calling thread has below the address `here` (an address
// in the current frame), from the thread's real stack bounds (for the main
// thread these follow RLIMIT_STACK); nullopt when they cannot be found.
std::optional<std::size_t> stack_left_below(std::uintptr_t here);

// Stack kept free below a budget's deepest frame: what a library call made
// from there (formatting a message, allocating, a regular expression) needs.
inline constexpr std::size_t stack_reserve_bytes = std::size_t{192} << 10;

class StackBudget {
public:
    explicit StackBudget(std::size_t bytes) : limit_(bytes) {}

    // True once the calling frame lies more than the budget below the frame
    // of the first call. (Stacks grow downwards on every platform we build for.)
    [[nodiscard]] bool exceeded() {
        char marker = 0;
        const auto here = reinterpret_cast<std::uintptr_t>(&marker);
        if (base_ == 0) {
            base_ = here;
            if (auto left = stack_left_below(here)) {
                const std::size_t usable = *left > 2 * stack_reserve_bytes ? *left - stack_reserve_bytes : *left / 2;
                if (usable < limit_) limit_ = usable;
            }
        }
        return base_ > here && base_ - here > limit_;
    }

    // The budget in bytes, once the first call has fitted it to the stack.
    [[nodiscard]] std::size_t limit() const { return limit_; }

private:
    std::uintptr_t base_ = 0;
    std::size_t limit_;
};

}  // namespace tfsift
