#include "tfsift/tree_space.hpp"

#include <sys/mman.h>

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
constexpr std::size_t small_limit = std::size_t{64} * 1024;  // larger blocks are page-granular
constexpr std::size_t page = 4096;

// Small blocks are recycled through one free list per size (a multiple of
// 16 bytes up to 64 KiB), linked through their first four bytes. Large
// blocks are page multiples; a released one gives its pages back to the
// system and is reused by the next request it fits, latest first.
struct Allocator {
    std::mutex mutex;
    std::uint64_t top = granule;  // bump pointer; offset 0 stays unused
    std::array<std::uint32_t, small_limit / granule + 1> free_small{};
    struct Span {
        std::uint64_t offset;
        std::uint64_t size;
    };
    std::vector<Span> free_large;
    std::size_t used = 0;

    static std::size_t rounded(std::size_t bytes) {
        if (bytes == 0) bytes = 1;
        if (bytes <= small_limit) return (bytes + granule - 1) / granule * granule;
        return (bytes + page - 1) / page * page;
    }

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
            // The most recently released block that fits comes first.
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
        // Large blocks start on a page, so that releasing them frees whole pages.
        std::uint64_t at = size > small_limit ? (top + page - 1) / page * page : top;
        if (at + size > capacity) throw std::bad_alloc();
        top = at + size;
        used += size;
        return detail::base + at;
    }

    void give_back(void* p, std::size_t bytes) {
        const std::size_t size = rounded(bytes);
        const auto offset = static_cast<std::uint64_t>(static_cast<char*>(p) - detail::base);
        if (size > small_limit) ::madvise(p, size, MADV_DONTNEED);
        std::lock_guard lock(mutex);
        used -= size;
        if (size <= small_limit) {
            std::uint32_t& head = free_small[size / granule];
            std::memcpy(p, &head, sizeof head);
            head = static_cast<std::uint32_t>(offset);
        } else {
            free_large.push_back({offset, size});
        }
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

std::size_t in_use() {
    Allocator& a = allocator();
    std::lock_guard lock(a.mutex);
    return a.used;
}

}  // namespace tfsift::tree_space
