// An initialisation runs once however many threads ask at the same time, and
// again after one that failed.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tfsift/once.hpp"

TEST_CASE("an initialisation runs once for every thread that asks", "[once]") {
    tfsift::Once once;
    std::atomic<int> runs{0};
    std::atomic<int> saw_done{0};
    int value = 0;  // written by the one run, read by every caller after it
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 1000; ++i) {
                once.run([&] {
                    ++runs;
                    std::this_thread::yield();
                    value = 42;
                });
                if (value == 42) ++saw_done;
            }
        });
    }
    for (auto& t : threads) t.join();
    CHECK(runs == 1);
    CHECK(saw_done == 8000);
}

TEST_CASE("an initialisation that throws is tried again by the next call", "[once]") {
    tfsift::Once once;
    int runs = 0;
    CHECK_THROWS_AS(once.run([&] {
        ++runs;
        throw std::runtime_error("not yet");
    }),
                    std::runtime_error);
    once.run([&] { ++runs; });
    once.run([&] { ++runs; });
    CHECK(runs == 2);
}
