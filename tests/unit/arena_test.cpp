// The bump allocator behind syntax trees: alignment, blocks of the sizes it
// was given, requests larger than a block, and copies; and the tree space its
// blocks come from.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tfsift/arena.hpp"
#include "tfsift/hcl/packed.hpp"
#include "tfsift/source.hpp"
#include "tfsift/tree_space.hpp"

using tfsift::Arena;

namespace {

struct Wide {
    alignas(16) std::uint64_t a;
    std::uint64_t b;
};

bool aligned(const void* p, std::size_t align) { return reinterpret_cast<std::uintptr_t>(p) % align == 0; }

}  // namespace

TEST_CASE("arena allocations are aligned, distinct and keep their contents", "[arena]") {
    Arena arena(1024, 512);
    std::vector<std::pair<unsigned char*, std::size_t>> blocks;
    // Sizes from 1 byte to more than a block, so requests cross block
    // boundaries and some get a block of their own.
    for (std::size_t i = 0; i < 400; ++i) {
        std::size_t size = 1 + (i * 37) % 700;
        std::size_t align = std::size_t{1} << (i % 5);  // 1..16
        auto* p = static_cast<unsigned char*>(arena.allocate(size, align));
        REQUIRE(aligned(p, align));
        for (std::size_t k = 0; k < size; ++k) p[k] = static_cast<unsigned char>(i);
        blocks.emplace_back(p, size);
    }
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        auto [p, size] = blocks[i];
        for (std::size_t k = 0; k < size; ++k) REQUIRE(p[k] == static_cast<unsigned char>(i));
    }
}

TEST_CASE("a block grows in place while nothing follows it", "[arena]") {
    // A first block larger than any free one comes from the top of the space.
    const std::size_t first = tfsift::tree_space::largest_free() + 4096;
    Arena arena(first);
    auto* small1 = arena.make<std::uint64_t>(std::uint64_t{1});
    // More than the block holds: it grows.
    auto* big = static_cast<char*>(arena.allocate(first + 1000, 8));
    auto* small2 = arena.make<std::uint64_t>(std::uint64_t{2});
    // One block, grown in place: each allocation follows the one before.
    CHECK(big == reinterpret_cast<char*>(small1 + 1));
    CHECK(reinterpret_cast<char*>(small2) == big + first + 1000);
    const std::size_t before = tfsift::tree_space::in_use();
    arena.trim();  // the block now ends where its last allocation does
    CHECK(tfsift::tree_space::in_use() < before);
    CHECK(*small1 == 1);
    CHECK(*small2 == 2);
}

TEST_CASE("a request larger than a block leaves the current block in use", "[arena]") {
    Arena arena(256);
    auto* small1 = arena.make<std::uint64_t>(std::uint64_t{1});
    // Something else is taken from the top of the space, after the arena's
    // block, so the block cannot grow.
    const std::size_t other_size = tfsift::tree_space::largest_free() + 64;
    void* other = tfsift::tree_space::allocate(other_size);
    CHECK(other > static_cast<void*>(small1));
    auto* big = static_cast<char*>(arena.allocate(10000, 8));
    auto* small2 = arena.make<std::uint64_t>(std::uint64_t{2});
    // The big request got a block of its own; the second small value follows
    // the first in the same block.
    CHECK(reinterpret_cast<char*>(small2) == reinterpret_cast<char*>(small1) + sizeof(std::uint64_t));
    CHECK((big + 10000 <= reinterpret_cast<char*>(small1) || big >= reinterpret_cast<char*>(small2 + 1)));
    CHECK(*small1 == 1);
    CHECK(*small2 == 2);
    tfsift::tree_space::release(other, other_size);
}

TEST_CASE("arena objects and copies", "[arena]") {
    Arena arena;
    const Wide* w = arena.make<Wide>(Wide{7, 8});
    CHECK(aligned(w, 16));
    CHECK(w->a == 7);
    CHECK(w->b == 8);

    std::vector<int> items{1, 2, 3, 4};
    std::span<int> copy = arena.copy(items);
    items.assign(4, 0);
    CHECK(std::vector<int>(copy.begin(), copy.end()) == std::vector<int>{1, 2, 3, 4});
    CHECK(arena.copy(std::vector<int>{}).empty());

    std::string text = "resource";
    std::string_view s = arena.copy(std::string_view(text));
    text = "xxxxxxxx";
    CHECK(s == "resource");
    CHECK(arena.copy(std::string_view{}).empty());
}

TEST_CASE("arena blocks and source texts live in the tree space", "[arena]") {
    const std::size_t before = tfsift::tree_space::in_use();
    {
        Arena arena;
        auto* v = arena.make<std::uint64_t>(std::uint64_t{42});
        CHECK(tfsift::tree_space::contains(v));
        tfsift::SourceFile f("x.tf", "a = 1\n");
        CHECK(tfsift::tree_space::contains(f.text().data()));
        CHECK(tfsift::tree_space::in_use() > before);
        // A reference is an offset: it reads back the same node.
        const tfsift::hcl::Ref<std::uint64_t> ref(v);
        CHECK(ref.get() == v);
        CHECK(*ref == 42);
        CHECK(tfsift::hcl::Ref<std::uint64_t>(nullptr).get() == nullptr);
        int on_stack = 0;
        CHECK_FALSE(tfsift::tree_space::contains(&on_stack));
    }
    CHECK(tfsift::tree_space::in_use() == before);  // everything was given back
}

TEST_CASE("the tree space reuses what it is given back", "[arena]") {
    namespace space = tfsift::tree_space;
    // One thread's blocks follow each other, from its own region.
    const std::size_t size = (space::largest_free() + (std::size_t{1} << 20) + 15) / 16 * 16;
    auto* x = static_cast<char*>(space::allocate(size));
    auto* y = static_cast<char*>(space::allocate(size));
    CHECK(y == x + size);
    // Given back last first, they return to the region, which serves a
    // request for both from where the first began.
    space::release(y, size);
    space::release(x, size);
    auto* both = static_cast<char*>(space::allocate(2 * size));
    CHECK(both == x);
    space::release(both, 2 * size);

    // A block given back out of order becomes a free block (merged with
    // any free one before it); a request the region cannot serve takes it,
    // as the best fit: it is larger than any free block there was.
    x = static_cast<char*>(space::allocate(size));
    void* after = space::allocate(16);
    space::release(x, size);
    CHECK(space::largest_free() >= size);
    auto* again = static_cast<char*>(space::allocate(size));
    CHECK(again <= x);
    CHECK(again + size > x);
    space::release(again, size);
    space::release(after, 16);

    // The same small size again gets the block that was given back.
    const std::size_t before = space::in_use();
    void* a = space::allocate(100);
    space::release(a, 100);
    void* b = space::allocate(112);  // the same 16-byte multiple
    CHECK(b == a);
    space::release(b, 112);
    CHECK(space::in_use() == before);
}

TEST_CASE("a block shrinks in place wherever it lies, its tail given back", "[arena]") {
    namespace space = tfsift::tree_space;
    const std::size_t size = 64 * 1024;
    auto* x = static_cast<char*>(space::allocate(size));
    auto* y = static_cast<char*>(space::allocate(size));  // x is no longer the last block
    const std::size_t before = space::in_use();
    // The same 16-byte multiple: nothing to do.
    CHECK(space::resize_in_place(x, size, size - 8));
    CHECK(space::in_use() == before);
    // Shorter: the tail is given back.
    CHECK(space::resize_in_place(x, size, size - 1024));
    CHECK(space::in_use() == before - 1024);
    CHECK(space::largest_free() >= 1024);
    // Longer again: y follows, so x cannot grow.
    CHECK_FALSE(space::resize_in_place(x, size - 1024, size));
    // The last block's tail returns to the region: the next request starts
    // there. It grows back in place.
    CHECK(space::resize_in_place(y, size, size - 1024));
    CHECK(space::in_use() == before - 2048);
    auto* tail = static_cast<char*>(space::allocate(1024));
    CHECK(tail == y + size - 1024);
    space::release(tail, 1024);
    CHECK(space::resize_in_place(y, size - 1024, size));
    space::release(x, size - 1024);
    space::release(y, size);
    CHECK(space::in_use() == before - 2 * size);
}

TEST_CASE("threads allocate side by side and give back each other's blocks", "[arena]") {
    namespace space = tfsift::tree_space;
    const std::size_t before = space::in_use();
    constexpr int threads = 4;
    constexpr int blocks = 2000;
    // Each thread fills its blocks with its own byte, then checks them: a
    // block handed out twice shows another thread's byte.
    std::vector<std::vector<std::pair<char*, std::size_t>>> made(threads);
    std::atomic<int> corrupt{0};
    auto fill = [&](int t) {
        for (int i = 0; i < blocks; ++i) {
            const std::size_t size = 1 + static_cast<std::size_t>((i * 7919 + t * 104729) % 20000);
            auto* p = static_cast<char*>(space::allocate(size));
            std::memset(p, 'a' + t, size);
            made[t].emplace_back(p, size);
            if (i % 3 == 0) {
                // Some are shrunk, some given back at once.
                if (space::resize_in_place(p, size, size / 2 + 1)) made[t].back().second = size / 2 + 1;
            }
            if (i % 5 == 0) {
                space::release(made[t].back().first, made[t].back().second);
                made[t].pop_back();
            }
        }
        for (const auto& [p, size] : made[t]) {
            for (std::size_t k = 0; k < size; ++k) {
                if (p[k] != 'a' + t) {
                    ++corrupt;
                    break;
                }
            }
        }
    };
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t) running.emplace_back(fill, t);
    for (auto& th : running) th.join();
    CHECK(corrupt == 0);
    CHECK(space::in_use() > before);
    // Each thread gives back the blocks of the next one, in order of
    // allocation (not the reverse: most go through the shared free blocks).
    running.clear();
    for (int t = 0; t < threads; ++t) {
        running.emplace_back([&, t] {
            for (const auto& [p, size] : made[(t + 1) % threads]) space::release(p, size);
        });
    }
    for (auto& th : running) th.join();
    // The threads have ended, their regions given back with them.
    CHECK(space::in_use() == before);
}

TEST_CASE("a full tree space is an exception that says so, not a crash", "[arena]") {
    namespace space = tfsift::tree_space;
    const std::size_t before = space::in_use();
    try {
        (void)space::allocate(space::capacity);
        FAIL("the whole space cannot be handed out: offset 0 is never used");
    } catch (const std::bad_alloc& e) {
        CHECK(std::string(e.what()).find("4 GiB tree space") != std::string::npos);
    }
    CHECK(space::in_use() == before);
}
