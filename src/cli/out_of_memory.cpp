#include "cli/out_of_memory.hpp"

#include <sys/mman.h>

#include <atomic>
#include <new>

namespace tfsift::cli {

namespace {

std::atomic<void*> reserve{nullptr};
std::size_t reserve_bytes = 0;

// The first failed allocation: give the reserve back and fail it, so that
// the destructors the bad_alloc runs can allocate. Later failures throw
// directly (no handler).
void release_reserve() {
    std::set_new_handler(nullptr);
    if (void* block = reserve.exchange(nullptr)) ::munmap(block, reserve_bytes);
    throw std::bad_alloc();
}

}  // namespace

void install_out_of_memory_reserve(std::size_t bytes) {
    // Mapped from the kernel, not allocated: released, it is address space
    // given back to the system (the data limit counts it), which the
    // allocator can map again whatever it keeps for itself. Untouched, it
    // costs no resident memory.
    void* block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return;
    reserve_bytes = bytes;
    reserve.store(block);
    std::set_new_handler(release_reserve);
}

}  // namespace tfsift::cli
