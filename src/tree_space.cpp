#include "tfsift/tree_space.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <utility>

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
constexpr std::size_t page = 4096;
constexpr std::size_t give_pages_back = std::size_t{1} << 20;  // from blocks this large

// What allocate() throws when the space is full.
class SpaceFull : public std::bad_alloc {
public:
    [[nodiscard]] const char* what() const noexcept override {
        return "the source texts and syntax trees held at once exceed tfsift's 4 GiB tree space";
    }
};

std::size_t rounded(std::size_t bytes) { return (std::max<std::size_t>(bytes, 1) + granule - 1) / granule * granule; }

// Blocks are handed out in multiples of 16 bytes, best fit from the free
// blocks, else from the top of the space (a bump pointer). A block given
// back merges with free neighbours, and a free block that reaches the top
// lowers the top instead. The block at the top can grow or shrink in place:
// an arena that is the only one allocating (a file parsed on one thread)
// ends up exactly as large as its tree. Any other block can shrink in place,
// its tail given back. Pages stay with the process for reuse, except those
// of blocks of 1 MiB and more, which go back to the system when the block
// is given back.
struct Allocator {
    Allocator() {
        // The reservation is made while static objects are initialized; a
        // static object of another file that allocated before it would get
        // storage outside the space.
        if (detail::base == nullptr) {
            std::fputs("tfsift: internal error: the tree space was used before it was reserved\n", stderr);
            std::abort();
        }
    }

    std::mutex mutex;
    std::uint64_t top = granule;                                     // offset 0 stays unused
    std::map<std::uint64_t, std::uint64_t> free_at;                  // offset -> size
    std::set<std::pair<std::uint64_t, std::uint64_t>> free_by_size;  // (size, offset)
    std::size_t used = 0;

    void add_free(std::uint64_t offset, std::uint64_t size) {
        free_at.emplace(offset, size);
        free_by_size.emplace(size, offset);
    }
    void remove_free(std::map<std::uint64_t, std::uint64_t>::iterator it) {
        free_by_size.erase({it->second, it->first});
        free_at.erase(it);
    }

    void* take(std::size_t bytes) {
        const std::size_t size = rounded(bytes);
        std::lock_guard lock(mutex);
        if (auto fit = free_by_size.lower_bound({size, 0}); fit != free_by_size.end()) {
            const auto [block_size, offset] = *fit;
            remove_free(free_at.find(offset));
            if (block_size > size) add_free(offset + size, block_size - size);
            used += size;
            return detail::base + offset;
        }
        if (top + size > capacity) throw SpaceFull();
        const std::uint64_t at = top;
        top += size;
        used += size;
        return detail::base + at;
    }

    void give_back(void* p, std::size_t bytes) {
        const std::size_t size = rounded(bytes);
        const auto offset = static_cast<std::uint64_t>(static_cast<char*>(p) - detail::base);
        if (size >= give_pages_back) {
            // The whole pages inside the block go back to the system.
            const std::uint64_t first = (offset + page - 1) / page * page;
            const std::uint64_t last = (offset + size) / page * page;
            if (last > first) ::madvise(detail::base + first, last - first, MADV_DONTNEED);
        }
        std::lock_guard lock(mutex);
        used -= size;
        add_free_merged(offset, size);
    }

    // Makes [offset, offset + size) free, merged with free neighbours, or
    // lowers the top if it ends there. The mutex is held.
    void add_free_merged(std::uint64_t offset, std::uint64_t size) {
        std::uint64_t end = offset + size;
        // Merge with the free blocks on either side.
        auto next = free_at.lower_bound(offset);
        if (next != free_at.end() && next->first == end) {
            end += next->second;
            auto after = std::next(next);
            remove_free(next);
            next = after;
        }
        if (next != free_at.begin()) {
            auto prev = std::prev(next);
            if (prev->first + prev->second == offset) {
                offset = prev->first;
                remove_free(prev);
            }
        }
        if (end == top) {
            top = offset;
        } else {
            add_free(offset, end - offset);
        }
    }

    bool resize(void* p, std::size_t old_bytes, std::size_t new_bytes) {
        const auto offset = static_cast<std::uint64_t>(static_cast<char*>(p) - detail::base);
        const std::size_t old_size = rounded(old_bytes);
        const std::size_t new_size = rounded(new_bytes);
        std::lock_guard lock(mutex);
        if (new_size == old_size) return true;
        if (offset + old_size == top) {
            if (offset + new_size > capacity) return false;
            top = offset + new_size;
            used = used - old_size + new_size;
            return true;
        }
        if (new_size > old_size) return false;
        used -= old_size - new_size;
        add_free_merged(offset + new_size, old_size - new_size);
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

std::size_t largest_free() {
    Allocator& a = allocator();
    std::lock_guard lock(a.mutex);
    return a.free_by_size.empty() ? 0 : static_cast<std::size_t>(a.free_by_size.rbegin()->first);
}

std::size_t in_use() {
    Allocator& a = allocator();
    std::lock_guard lock(a.mutex);
    return a.used;
}

}  // namespace tfsift::tree_space
