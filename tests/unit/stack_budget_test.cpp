#include <catch2/catch.hpp>

#include <pthread.h>

#include <cstddef>

#include "tfsift/stack_budget.hpp"

namespace {

struct Probe {
    std::size_t limit = 0;
    bool known = false;
};

void* probe_budget(void* arg) {
    auto* probe = static_cast<Probe*>(arg);
    tfsift::StackBudget budget(std::size_t{4} << 20);
    (void)budget.exceeded();
    probe->limit = budget.limit();
    char marker = 0;
    probe->known = tfsift::stack_left_below(reinterpret_cast<std::uintptr_t>(&marker)).has_value();
    return nullptr;
}

// Runs probe_budget on a thread with a stack of `bytes`.
Probe probe_on_stack(std::size_t bytes) {
    Probe probe;
    pthread_attr_t attr;
    REQUIRE(pthread_attr_init(&attr) == 0);
    REQUIRE(pthread_attr_setstacksize(&attr, bytes) == 0);
    pthread_t thread{};
    REQUIRE(pthread_create(&thread, &attr, probe_budget, &probe) == 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    return probe;
}

}  // namespace

TEST_CASE("a stack budget never exceeds the stack the thread has", "[stack]") {
    // A 4 MiB budget on a 512 KiB stack would let a walk run off the end.
    Probe small = probe_on_stack(std::size_t{512} << 10);
    REQUIRE(small.known);
    CHECK(small.limit < (std::size_t{512} << 10));
    CHECK(small.limit > (std::size_t{128} << 10));
    // On a large stack the requested budget stands.
    Probe large = probe_on_stack(std::size_t{64} << 20);
    CHECK(large.limit == (std::size_t{4} << 20));
}
