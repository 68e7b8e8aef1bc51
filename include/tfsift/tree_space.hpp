// The address space that syntax trees and the source text they point into
// live in. It is one reservation of 4 GiB made at start-up, so that a tree can
// refer to a node or to a piece of text by a 32-bit offset from its start
// instead of a 64-bit pointer: a kept tree is mostly references, and halving
// them is what keeps trees small (see include/tfsift/hcl/packed.hpp).
//
// Pages are backed only once they are written, so the reservation itself
// costs no memory. Offset 0 is never handed out: it stands for "none".
#pragma once

#include <cstddef>
#include <cstdint>

namespace tfsift::tree_space {

inline constexpr std::uint64_t capacity = std::uint64_t{1} << 32;

namespace detail {
extern char* const base;  // start of the reservation
[[noreturn]] void outside(const void* p);
}  // namespace detail

// True when `p` points into the space.
inline bool contains(const void* p) {
    const auto* c = static_cast<const char*>(p);
    return c >= detail::base && static_cast<std::uint64_t>(c - detail::base) < capacity;
}

// The offset of `p`, which must lie in the space (the program stops with a
// message otherwise: a reference that cannot be stored is a bug, and storing
// it wrong would corrupt the tree silently).
inline std::uint32_t offset_of(const void* p) {
    if (!contains(p)) detail::outside(p);
    return static_cast<std::uint32_t>(static_cast<const char*>(p) - detail::base);
}

inline char* at(std::uint32_t offset) { return detail::base + offset; }

// `bytes` of storage aligned to 16 bytes, from any thread. Throws a
// std::bad_alloc that says so when the space is full.
void* allocate(std::size_t bytes);

// Gives back storage from allocate() (or last resized to) `bytes`.
void release(void* p, std::size_t bytes);

// Makes the block at `p` of `old_bytes` `new_bytes` long without moving it:
// a block can always shrink (its tail is given back); it can grow when it is
// the last block the calling thread was handed and there is room after it
// (each thread hands out blocks from a region of the space of its own, which
// grows while it ends at the top of the space), or when it ends at the top
// of the space. Returns false, changing nothing, otherwise.
bool resize_in_place(void* p, std::size_t old_bytes, std::size_t new_bytes);

// Bytes handed out and not given back (for tests and benchmarks).
std::size_t in_use();

// The largest block given back and free for reuse (for tests: a larger
// request is served from the top of the space).
std::size_t largest_free();

}  // namespace tfsift::tree_space
