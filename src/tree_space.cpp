#include "tfsift/tree_space.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <thread>
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

// The lock on the shared part of the allocator: its free blocks, its top
// and the list of regions. Threads take it when their region runs out and
// when they give back a block out of order, for well under a microsecond
// each time. A mutex put a waiting thread to sleep and woke it again
// hundreds of times a run, each costing more than the wait; this lock spins
// a while, then yields the processor, and never sleeps in the kernel.
class SpinLock {
public:
    void lock() noexcept {
        while (held_.exchange(true, std::memory_order_acquire)) {
            int spins = 0;
            while (held_.load(std::memory_order_relaxed)) {
                if (++spins < 128) {
                    pause();
                } else {
                    std::this_thread::yield();
                    spins = 0;
                }
            }
        }
    }
    void unlock() noexcept { held_.store(false, std::memory_order_release); }

private:
    static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    std::atomic<bool> held_{false};
};

std::size_t rounded(std::size_t bytes) { return (std::max<std::size_t>(bytes, 1) + granule - 1) / granule * granule; }

// Each thread hands out blocks from a region of its own, [next, end), without
// taking the lock: a new block is the region's next bytes, and a block given
// back or shrunk that ends where the region's free part begins returns to the
// region. Worker threads parse files side by side, and a shared lock for every
// source text and tree block kept them waiting on each other.
//
// Regions come from the shared space under the lock, in multiples of 16
// bytes: the free block that best fits the request that ran the region out
// (all of it, unless it is much larger), else more of the space at its top
// (a bump pointer), where a region that ends at the top grows in place: an
// arena that is the only one allocating (a file parsed on one thread) ends
// up exactly as large as its tree. A block given back out of order merges
// with free neighbours, and a free block that reaches the top lowers the top
// instead. Pages stay with the process for reuse, except those of blocks of
// 1 MiB and more, which go back to the system when the block is given back.
struct Region {
    // Written by the owning thread only; read by in_use() on any thread.
    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> end{0};
    bool listed = false;  // in Allocator::regions (under its lock)

    [[nodiscard]] std::uint64_t room() const {
        return end.load(std::memory_order_relaxed) - next.load(std::memory_order_relaxed);
    }
};

constexpr std::uint64_t region_size = std::uint64_t{256} * 1024;

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

    SpinLock mutex;
    std::uint64_t top = granule;                                     // offset 0 stays unused
    std::map<std::uint64_t, std::uint64_t> free_at;                  // offset -> size
    std::set<std::pair<std::uint64_t, std::uint64_t>> free_by_size;  // (size, offset)
    std::size_t used = 0;                                            // regions count whole
    std::set<const Region*> regions;                                 // of the living threads

    void add_free(std::uint64_t offset, std::uint64_t size) {
        free_at.emplace(offset, size);
        free_by_size.emplace(size, offset);
    }
    void remove_free(std::map<std::uint64_t, std::uint64_t>::iterator it) {
        free_by_size.erase({it->second, it->first});
        free_at.erase(it);
    }

    // A block of at least `least` bytes and at most `size` (multiples of the
    // granule), its size stored in `size`: the best fit among the free
    // blocks, all of it when it is smaller than `whole_below`, else from the
    // top. The mutex is held.
    std::uint64_t take_locked(std::uint64_t least, std::uint64_t& size, std::uint64_t whole_below) {
        if (auto fit = free_by_size.lower_bound({least, 0}); fit != free_by_size.end()) {
            const auto [block_size, offset] = *fit;
            remove_free(free_at.find(offset));
            if (block_size < whole_below) {
                size = block_size;
            } else if (block_size > size) {
                add_free(offset + size, block_size - size);
            }
            used += size;
            return offset;
        }
        if (top + size > capacity) throw SpaceFull();
        const std::uint64_t at = top;
        top += size;
        used += size;
        return at;
    }

    // Makes [offset, offset + size) free, merged with free neighbours, or
    // lowers the top if it ends there. The mutex is held. Every syntax tree
    // freed comes here, so the entries of a merged neighbour are reused
    // (a block merged into the one before it only changes that one's size)
    // rather than freed and made again.
    void add_free_merged(std::uint64_t offset, std::uint64_t size) {
        std::uint64_t end = offset + size;
        std::map<std::uint64_t, std::uint64_t>::node_type at_node;
        std::set<std::pair<std::uint64_t, std::uint64_t>>::node_type size_node;
        // Merge with the free blocks on either side.
        auto next = free_at.lower_bound(offset);
        if (next != free_at.end() && next->first == end) {
            end += next->second;
            size_node = free_by_size.extract({next->second, next->first});
            auto after = std::next(next);
            at_node = free_at.extract(next);
            next = after;
        }
        if (next != free_at.begin()) {
            auto prev = std::prev(next);
            if (prev->first + prev->second == offset) {
                offset = prev->first;
                auto prev_size = free_by_size.extract({prev->second, prev->first});
                if (end == top) {
                    free_at.erase(prev);
                    top = offset;
                    return;
                }
                prev->second = end - offset;
                prev_size.value() = {end - offset, offset};
                free_by_size.insert(std::move(prev_size));
                return;
            }
        }
        if (end == top) {
            top = offset;
            return;
        }
        if (at_node) {
            at_node.key() = offset;
            at_node.mapped() = end - offset;
            free_at.insert(next, std::move(at_node));
        } else {
            free_at.emplace_hint(next, offset, end - offset);
        }
        if (size_node) {
            size_node.value() = {end - offset, offset};
            free_by_size.insert(std::move(size_node));
        } else {
            free_by_size.emplace(end - offset, offset);
        }
    }

    // Gives back [offset, offset + size). The mutex is held.
    void give_back_locked(std::uint64_t offset, std::uint64_t size) {
        used -= size;
        add_free_merged(offset, size);
    }

    // The region's free part given back. The mutex is held.
    void retire_locked(Region& r) {
        const std::uint64_t next = r.next.load(std::memory_order_relaxed);
        const std::uint64_t end = r.end.load(std::memory_order_relaxed);
        if (end > next) give_back_locked(next, end - next);
        r.next.store(0, std::memory_order_relaxed);
        r.end.store(0, std::memory_order_relaxed);
    }

    // Serves `size` bytes through the calling thread's region when its free
    // part is too small. A free block that holds them becomes the new
    // region (the best fit, so that what was given back is used again
    // first), else the region grows at the top if it ends there, else a new
    // region comes from the top.
    std::uint64_t refill(Region& r, std::uint64_t size) {
        std::lock_guard lock(mutex);
        if (!r.listed) r.listed = regions.insert(&r).second;
        const std::uint64_t end = r.end.load(std::memory_order_relaxed);
        const std::uint64_t want = std::max(size, region_size);
        if (end == 0 || end != top || free_by_size.lower_bound({size, 0}) != free_by_size.end()) {
            retire_locked(r);
            std::uint64_t region = want;
            const std::uint64_t start = take_locked(size, region, want + region_size);
            r.next.store(start + size, std::memory_order_relaxed);
            r.end.store(start + region, std::memory_order_relaxed);
            return start;
        }
        const std::uint64_t next = r.next.load(std::memory_order_relaxed);
        const std::uint64_t grow = next + want - end;
        if (top + grow > capacity) throw SpaceFull();
        top += grow;
        used += grow;
        r.end.store(end + grow, std::memory_order_relaxed);
        r.next.store(next + size, std::memory_order_relaxed);
        return next;
    }

    // Grows the block that ends at the region's next byte to end at
    // `new_end` in place, when the region ends at the top.
    bool grow_region_locked(Region& r, std::uint64_t new_end) {
        const std::uint64_t end = r.end.load(std::memory_order_relaxed);
        if (end == 0 || end != top || new_end > capacity) return false;
        if (new_end > end) {
            used += new_end - end;
            top = new_end;
            r.end.store(new_end, std::memory_order_relaxed);
        }
        r.next.store(new_end, std::memory_order_relaxed);
        return true;
    }

    void forget(Region& r) {
        std::lock_guard lock(mutex);
        retire_locked(r);
        regions.erase(&r);
    }
};

Allocator& allocator() {
    // Never destroyed: a thread's region may be given back after static
    // objects are gone.
    static Allocator* a = new Allocator;
    return *a;
}

// The calling thread's region, given back when the thread ends.
struct ThreadRegion {
    Region region;
    ~ThreadRegion() {
        if (region.listed) allocator().forget(region);
    }
};

Region& my_region() {
    thread_local ThreadRegion mine;
    return mine.region;
}

}  // namespace

namespace detail {

char* const base = reserve();

void outside(const void* p) {
    std::fprintf(stderr, "tfsift: internal error: %p is outside the syntax-tree space\n", p);
    std::abort();
}

}  // namespace detail

void* allocate(std::size_t bytes) {
    const std::uint64_t size = rounded(bytes);
    Region& r = my_region();
    const std::uint64_t next = r.next.load(std::memory_order_relaxed);
    if (r.end.load(std::memory_order_relaxed) - next >= size && next != 0) {
        r.next.store(next + size, std::memory_order_relaxed);
        return detail::base + next;
    }
    if (size > capacity) throw SpaceFull();
    return detail::base + allocator().refill(r, size);
}

void release(void* p, std::size_t bytes) {
    if (p == nullptr) return;
    const std::uint64_t size = rounded(bytes);
    const auto offset = static_cast<std::uint64_t>(static_cast<char*>(p) - detail::base);
    if (size >= give_pages_back) {
        // The whole pages inside the block go back to the system.
        const std::uint64_t first = (offset + page - 1) / page * page;
        const std::uint64_t last = (offset + size) / page * page;
        if (last > first) ::madvise(detail::base + first, last - first, MADV_DONTNEED);
    }
    Region& r = my_region();
    if (r.end.load(std::memory_order_relaxed) != 0 && offset + size == r.next.load(std::memory_order_relaxed)) {
        r.next.store(offset, std::memory_order_relaxed);
        return;
    }
    Allocator& a = allocator();
    std::lock_guard lock(a.mutex);
    a.give_back_locked(offset, size);
}

bool resize_in_place(void* p, std::size_t old_bytes, std::size_t new_bytes) {
    const auto offset = static_cast<std::uint64_t>(static_cast<char*>(p) - detail::base);
    const std::uint64_t old_size = rounded(old_bytes);
    const std::uint64_t new_size = rounded(new_bytes);
    if (new_size == old_size) return true;
    Region& r = my_region();
    Allocator& a = allocator();
    if (r.end.load(std::memory_order_relaxed) != 0 && offset + old_size == r.next.load(std::memory_order_relaxed)) {
        // The region's last block: its free part follows.
        if (offset + new_size <= r.end.load(std::memory_order_relaxed)) {
            r.next.store(offset + new_size, std::memory_order_relaxed);
            return true;
        }
        std::lock_guard lock(a.mutex);
        return a.grow_region_locked(r, offset + new_size);
    }
    std::lock_guard lock(a.mutex);
    if (new_size < old_size) {
        a.give_back_locked(offset + new_size, old_size - new_size);
        return true;
    }
    if (offset + old_size != a.top || offset + new_size > capacity) return false;
    a.top = offset + new_size;
    a.used += new_size - old_size;
    return true;
}

std::size_t largest_free() {
    Allocator& a = allocator();
    std::lock_guard lock(a.mutex);
    return a.free_by_size.empty() ? 0 : static_cast<std::size_t>(a.free_by_size.rbegin()->first);
}

std::size_t in_use() {
    Allocator& a = allocator();
    std::lock_guard lock(a.mutex);
    std::size_t room = 0;
    for (const Region* r : a.regions) room += r->room();
    return a.used - room;
}

}  // namespace tfsift::tree_space
