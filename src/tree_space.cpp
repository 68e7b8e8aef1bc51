#include "tfsift/tree_space.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace tfsift::tree_space {

namespace {

char* reserve() {
    // Read-write but not reserved in swap: untouched pages cost nothing.
    void* p = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        std::fputs("tfsift: cannot reserve 4 GiB of address space for syntax trees\n", stderr);
        std::abort();
    }
    return static_cast<char*>(p);
}

constexpr std::size_t granule = 16;
constexpr std::size_t small_limit = std::size_t{64} * 1024;  // larger blocks start on a page
constexpr std::size_t page = 4096;

std::size_t rounded(std::size_t bytes) { return (std::max<std::size_t>(bytes, 1) + granule - 1) / granule * granule; }

// Blocks are handed out from the top of the space (a bump pointer) in
// multiples of 16 bytes. A block given back at the top lowers the top again,
// and the block at the top can grow or shrink in place: an arena that is the
// only one allocating (a file parsed on one thread) ends up exactly as large
// as its tree. Other small blocks are recycled through one free list per
// size (up to 64 KiB), linked through their first four bytes; other large
// blocks give their whole pages back to the system and are reused by the
// next request they fit, latest first.
struct Allocator {
    std::mutex mutex;
    std::uint64_t top = granule;  // offset 0 stays unused
    std::array<std::uint32_t, small_limit / granule + 1> free_small{};
    struct Span {
        std::uint64_t offset;
        std::uint64_t size;
    };
    std::vector<Span> free_large;
    std::size_t used = 0;

    void* take(std::size_t bytes) {
        const std::size_t size = rounded(bytes);
        std::lock_guard lock(mutex);
        if (size <= small_limit) {
            std::uint32_t& head = free_small[size / granule];
            if (head != 0) {
                char* p = detail::base + head;
                std::uint32_t next = 0;
                std::memcpy(&next, p, sizeof next);
                head = next;
                used += size;
                return p;
            }
        } else {
            for (auto it = free_large.rbegin(); it != free_large.rend(); ++it) {
                if (it->size < size) continue;
                char* p = detail::base + it->offset;
                it->offset += size;
                it->size -= size;
                if (it->size == 0) free_large.erase(std::next(it).base());
                used += size;
                return p;
            }
        }
        std::uint64_t at = size > small_limit ? (top + page - 1) / page * page : top;
        if (at + size > capacity) throw std::bad_alloc();
        top = at + size;
        used += size;
        return detail::base + at;
    }

    void give_back(void* p, std::size_t bytes) {
        const std::size_t size = rounded(bytes);
        const auto offset = static_cast<std::uint64_t>(static_cast<char*>(p) - detail::base);
        std::lock_guard lock(mutex);
        used -= size;
        if (offset + size == top) {
            top = offset;
        } else if (size <= small_limit) {
            std::uint32_t& head = free_small[size / granule];
            std::memcpy(p, &head, sizeof head);
            head = static_cast<std::uint32_t>(offset);
        } else {
            // The whole pages inside the block go back to the system.
            const std::uint64_t first = (offset + page - 1) / page * page;
            const std::uint64_t last = (offset + size) / page * page;
            if (last > first) ::madvise(detail::base + first, last - first, MADV_DONTNEED);
            free_large.push_back({offset, size});
        }
    }

    bool resize(void* p, std::size_t old_bytes, std::size_t new_bytes) {
        const auto offset = static_cast<std::uint64_t>(static_cast<char*>(p) - detail::base);
        const std::size_t old_size = rounded(old_bytes);
        const std::size_t new_size = rounded(new_bytes);
        std::lock_guard lock(mutex);
        if (offset + old_size != top || offset + new_size > capacity) return false;
        top = offset + new_size;
        used = used - old_size + new_size;
        return true;
    }
};

Allocator& allocator() {
    static Allocator a;
    return a;
}

}  // namespace

namespace detail {

char* const base = reserve();

void outside(const void* p) {
    std::fprintf(stderr, "tfsift: internal error: %p is outside the syntax-tree space\n", p);
    std::abort();
}

}  // namespace detail

void* allocate(std::size_t bytes) { return allocator().take(bytes); }

void release(void* p, std::size_t bytes) {
    if (p != nullptr) allocator().give_back(p, bytes);
}

bool resize_in_place(void* p, std::size_t old_bytes, std::size_t new_bytes) {
    return allocator().resize(p, old_bytes, new_bytes);
}

std::size_t in_use() {
    Allocator& a = allocator();
    std::lock_guard lock(a.mutex);
    return a.used;
}

}  // namespace tfsift::tree_space
