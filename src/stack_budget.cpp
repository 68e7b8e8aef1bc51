#include "tfsift/stack_budget.hpp"

#include <pthread.h>
#include <sys/resource.h>

namespace tfsift {

namespace {

// The lowest address of the calling thread's stack, found once per thread
// (for the main thread glibc reads /proc/self/maps to find it). 0 when
// unknown.
std::uintptr_t thread_stack_low() {
    thread_local std::uintptr_t low = [] {
        std::uintptr_t found = 0;
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) != 0) return found;
        void* addr = nullptr;
        std::size_t size = 0;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) found = reinterpret_cast<std::uintptr_t>(addr);
        pthread_attr_destroy(&attr);
        return found;
    }();
    return low;
}

}  // namespace

std::optional<std::size_t> stack_left_below(std::uintptr_t here) {
    if (std::uintptr_t low = thread_stack_low(); low != 0 && low < here) return here - low;
    // Without the thread's bounds, the limit on the main thread's stack is
    // the best estimate there is; half of it, as how deep the caller already
    // is cannot be known.
    rlimit limit{};
    if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        return static_cast<std::size_t>(limit.rlim_cur) / 2;
    }
    return std::nullopt;
}

}  // namespace tfsift
