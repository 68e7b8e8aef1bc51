// A bump allocator for syntax trees. Every node placed in it must be
// trivially destructible (it holds string_views and spans into the arena or
// into the source text), so the arena frees everything at once.
#pragma once

#include <cstring>
#include <memory_resource>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tfsift {

class Arena {
public:
    Arena() : Arena(default_initial_chunk) {}
    // `initial_chunk` is the size of the first block taken from the heap;
    // later blocks grow geometrically. Sizing it to the expected tree keeps
    // small files from each holding a mostly empty default block.
    explicit Arena(std::size_t initial_chunk) : resource_(initial_chunk < 256 ? 256 : initial_chunk) {}
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    template <class T, class... Args>
    T* make(Args&&... args) {
        static_assert(std::is_trivially_destructible_v<T>, "arena nodes are never destroyed");
        void* p = resource_.allocate(sizeof(T), alignof(T));
        return ::new (p) T{std::forward<Args>(args)...};
    }

    // Copies a sequence into the arena.
    template <class T>
    std::span<T> copy(std::span<const T> items) {
        static_assert(std::is_trivially_destructible_v<T>);
        if (items.empty()) return {};
        T* p = static_cast<T*>(resource_.allocate(sizeof(T) * items.size(), alignof(T)));
        std::uninitialized_copy(items.begin(), items.end(), p);
        return {p, items.size()};
    }
    template <class T>
    std::span<T> copy(const std::vector<T>& items) {
        return copy(std::span<const T>(items.data(), items.size()));
    }

    std::string_view copy(std::string_view s) {
        if (s.empty()) return {};
        char* p = static_cast<char*>(resource_.allocate(s.size(), 1));
        std::memcpy(p, s.data(), s.size());
        return {p, s.size()};
    }

private:
    static constexpr std::size_t default_initial_chunk = 16 * 1024;
    std::pmr::monotonic_buffer_resource resource_;
};

}  // namespace tfsift
