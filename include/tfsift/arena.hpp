// A bump allocator for syntax trees. Every node placed in it must be
// trivially destructible (it holds string_views and spans into the arena or
// into the source text), so the arena frees everything at once. Its blocks
// come from the tree space (tfsift/tree_space.hpp), so that nodes can refer
// to each other by 32-bit offsets.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tfsift/tree_space.hpp"

namespace tfsift {

class Arena {
public:
    Arena() : Arena(default_chunk) {}
    // Memory is taken from the heap in blocks: the first of `first_chunk`
    // bytes, the others of `chunk_size` (at least min_chunk each; an
    // allocation larger than half a block gets a block of its own). The
    // unused tail of the last block is the arena's waste, so a tree that is
    // kept starts with a block smaller than its expected size and continues
    // in small ones.
    explicit Arena(std::size_t chunk_size) : Arena(chunk_size, chunk_size) {}
    Arena(std::size_t first_chunk, std::size_t chunk_size)
        : chunk_size_(chunk_size < min_chunk ? min_chunk : chunk_size),
          first_chunk_(first_chunk < min_chunk ? min_chunk : first_chunk) {}
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    ~Arena() {
        while (chunks_ != nullptr) {
            Chunk* prev = chunks_->prev;
            tree_space::release(chunks_, header + chunks_->size);
            chunks_ = prev;
        }
    }

    template <class T, class... Args>
    T* make(Args&&... args) {
        static_assert(std::is_trivially_destructible_v<T>, "arena nodes are never destroyed");
        void* p = allocate(sizeof(T), alignof(T));
        return ::new (p) T{std::forward<Args>(args)...};
    }

    // Copies a sequence into the arena.
    template <class T>
    std::span<T> copy(std::span<const T> items) {
        static_assert(std::is_trivially_destructible_v<T>);
        if (items.empty()) return {};
        T* p = static_cast<T*>(allocate(items.size_bytes(), alignof(T)));
        std::uninitialized_copy(items.begin(), items.end(), p);
        return {p, items.size()};
    }
    template <class T>
    std::span<T> copy(const std::vector<T>& items) {
        return copy(std::span<const T>(items.data(), items.size()));
    }

    std::string_view copy(std::string_view s) {
        if (s.empty()) return {};
        char* p = static_cast<char*>(allocate(s.size(), 1));
        std::memcpy(p, s.data(), s.size());
        return {p, s.size()};
    }

    // `bytes` suitably aligned storage, valid as long as the arena.
    void* allocate(std::size_t bytes, std::size_t align) {
        if (next_ != nullptr) {
            char* at = next_ + padding(next_, align);
            if (at <= end_ && static_cast<std::size_t>(end_ - at) >= bytes) {
                next_ = at + bytes;
                return at;
            }
        }
        return allocate_in_new_chunk(bytes, align);
    }

    // Gives the unused end of the current block back to the tree space, if
    // nothing was allocated there after it. A kept tree calls this once it
    // is complete: its last block then ends where the tree does.
    void trim() {
        if (next_ == nullptr) return;
        const auto used = static_cast<std::size_t>(next_ - (reinterpret_cast<char*>(chunks_) + header));
        if (tree_space::resize_in_place(chunks_, header + chunks_->size, header + used)) {
            chunks_->size = used;
            end_ = next_;
        }
    }

private:
    struct Chunk {
        Chunk* prev;
        std::size_t size;  // bytes after the header
    };
    static constexpr std::size_t default_chunk = std::size_t{16} * 1024;

    // Bytes to skip from `p` to the next multiple of `align` (a power of two).
    // Arithmetic stays on the pointer, so the compiler keeps its provenance.
    static std::size_t padding(const char* p, std::size_t align) {
        return (align - (reinterpret_cast<std::uintptr_t>(p) & (align - 1))) & (align - 1);
    }
    static constexpr std::size_t min_chunk = 256;
    static constexpr std::size_t header =
        (sizeof(Chunk) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);

    void* allocate_in_new_chunk(std::size_t bytes, std::size_t align) {
        const std::size_t need = bytes + (align > alignof(std::max_align_t) ? align : 0);
        if (next_ != nullptr) {
            // The current block grows in place when nothing was allocated
            // after it, so its free tail stays in use.
            const std::size_t grow = std::max(chunk_size_, need + align);
            if (tree_space::resize_in_place(chunks_, header + chunks_->size, header + chunks_->size + grow)) {
                chunks_->size += grow;
                end_ += grow;
                return allocate(bytes, align);
            }
        }
        if (need > chunk_size_ / 2 && next_ != nullptr) {
            // A large request gets a block of its own behind the current
            // one, so the current block's free tail stays in use.
            Chunk* c = new_chunk(need);
            c->prev = chunks_->prev;
            chunks_->prev = c;
            char* start = reinterpret_cast<char*>(c) + header;
            return start + padding(start, align);
        }
        const std::size_t size = next_ == nullptr ? first_chunk_ : chunk_size_;
        Chunk* c = new_chunk(need > size ? need : size);
        c->prev = chunks_;
        chunks_ = c;
        next_ = reinterpret_cast<char*>(c) + header;
        end_ = next_ + c->size;
        char* at = next_ + padding(next_, align);
        next_ = at + bytes;
        return at;
    }

    Chunk* new_chunk(std::size_t size) {
        void* p = tree_space::allocate(header + size);
        return ::new (p) Chunk{nullptr, size};
    }

    Chunk* chunks_ = nullptr;  // the current block; earlier ones through prev
    char* next_ = nullptr;
    char* end_ = nullptr;
    std::size_t chunk_size_;
    std::size_t first_chunk_;
};

}  // namespace tfsift
