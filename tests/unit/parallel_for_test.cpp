// parallel_for: every index once, on several threads, errors passed on.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tfsift/parallel_for.hpp"

using tfsift::parallel_for;

TEST_CASE("parallel_for calls the work once per index, whatever the thread count", "[parallel]") {
    for (unsigned threads : {0U, 1U, 2U, 7U}) {
        for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{200}}) {
            std::vector<std::atomic<int>> calls(count);
            parallel_for(count, threads, [&](std::size_t i) { calls[i].fetch_add(1); });
            for (std::size_t i = 0; i < count; ++i) CHECK(calls[i].load() == 1);
        }
    }
}

TEST_CASE("parallel_for uses more than one thread when asked", "[parallel]") {
    std::mutex m;
    std::set<std::thread::id> seen;
    std::atomic<int> waiting{0};
    // Each call waits (briefly) until a second call has started, which only
    // another thread can start.
    parallel_for(2, 2, [&](std::size_t) {
        {
            std::lock_guard<std::mutex> lock(m);
            seen.insert(std::this_thread::get_id());
        }
        waiting.fetch_add(1);
        for (int spin = 0; spin < 2000 && waiting.load() < 2; ++spin)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    CHECK(seen.size() == 2);
}

TEST_CASE("parallel_for rethrows the exception of the lowest index after finishing the rest", "[parallel]") {
    std::atomic<int> done{0};
    auto work = [&](std::size_t i) {
        if (i == 3 || i == 9) throw std::runtime_error("failed at " + std::to_string(i));
        done.fetch_add(1);
    };
    try {
        parallel_for(12, 3, work);
        FAIL("no exception");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "failed at 3");
    }
    CHECK(done.load() == 10);
    CHECK(tfsift::available_processors() >= 1);
}

TEST_CASE("parallel_for threads have room for deep recursion", "[parallel]") {
    // About 6 MiB of stack frames, as much as the main thread can take.
    std::function<std::size_t(int)> deep = [&](int n) -> std::size_t {
        volatile char pad[1024];
        pad[0] = static_cast<char>(n);
        return n == 0 ? static_cast<std::size_t>(pad[0]) : deep(n - 1) + 1;
    };
    std::vector<std::size_t> results(4);
    parallel_for(4, 4, [&](std::size_t i) { results[i] = deep(6000); });
    for (auto r : results) CHECK(r == 6000);
}
