#include "cli/out_of_memory.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace tfsift::cli {

namespace {

std::atomic<void*> reserve{nullptr};

// The first failed allocation: give the reserve back and fail it, so that
// the destructors the bad_alloc runs can allocate. Later failures throw
// directly (no handler).
void release_reserve() {
    std::set_new_handler(nullptr);
    std::free(reserve.exchange(nullptr));  // NOLINT(cppcoreguidelines-no-malloc): paired with the malloc below
    throw std::bad_alloc();
}

}  // namespace

void install_out_of_memory_reserve(std::size_t bytes) {
    // Untouched, so it costs address space, not resident memory.
    void* block = std::malloc(bytes);  // NOLINT(cppcoreguidelines-no-malloc): released by the new-handler
    if (block == nullptr) return;
    reserve.store(block);
    std::set_new_handler(release_reserve);
}

}  // namespace tfsift::cli
