// The run's budget of configuration bytes: each file charged once, and once
// a file would pass it, that file and every later one refused, by path and
// by name in an open directory alike.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../support/scratch_dir.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/read_budget.hpp"

namespace fs = std::filesystem;
using namespace tfsift;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

TEST_CASE("the budget charges a file once and refuses what would pass it", "[read-budget]") {
    ReadBudget budget(100);
    CHECK(budget.admit(1, 10, 60));
    CHECK(budget.admit(1, 10, 60));  // the same file again: charged once
    CHECK(budget.admit(1, 11, 40));  // exactly the budget
    CHECK_FALSE(budget.admit(1, 12, 1));
    CHECK(budget.admit(1, 10, 60));  // read already: still readable
}

TEST_CASE("once a file is refused, every later one is, however small", "[read-budget]") {
    ReadBudget budget(100);
    CHECK(budget.admit(1, 1, 50));
    CHECK_FALSE(budget.admit(1, 2, 60));
    CHECK_FALSE(budget.admit(1, 3, 1));
}

TEST_CASE("a file past the budget is not read, by path or by name, and says why", "[read-budget]") {
    const ScratchDir scratch("tfsift-budget");
    const fs::path root = fs::canonical(scratch.path);  // the trusted root, as the loader resolves it
    const std::string a = (root / "a.tf").string();
    const std::string b = (root / "b.tf").string();
    write_file(a, std::string(700, '#'));
    write_file(b, std::string(700, '#'));
    for (const bool by_name : {false, true}) {
        CAPTURE(by_name);
        ReadPolicy policy{root.string(), false, default_max_file_size};
        policy.budget = std::make_shared<ReadBudget>(1024);
        OpenDirectory dir;
        REQUIRE(dir.open(root.string()));
        DirectoryFileReader reader(dir, policy);
        auto read = [&](const std::string& name, const std::string& path, FileContent& failure) {
            return by_name ? reader.read(name, path, failure) : read_source_file(path, policy, failure);
        };
        FileContent failure;
        REQUIRE(read("a.tf", a, failure) != nullptr);
        REQUIRE(read("a.tf", a, failure) != nullptr);  // read again: charged once
        CHECK(read("b.tf", b, failure) == nullptr);
        CHECK(failure.failure == ReadFailure::over_budget);
        CHECK(failure.message == b + ": not read: the run's budget of 1024 bytes for all configuration files "
                                     "together was reached (the option --max-total-size)");
    }
}

TEST_CASE("the budget of memory refuses every file once the process's peak passes it", "[read-budget]") {
    // Any process has a peak of more than one KiB, and none of a PiB.
    ReadBudget roomy(1 << 20, std::uint64_t{1} << 50);
    CHECK(roomy.admit(1, 1, 10));
    CHECK_FALSE(roomy.memory_passed());
    CHECK(roomy.reached() == ReadBudget::Reached::none);

    ReadBudget tight(1 << 20, 1024);
    CHECK_FALSE(tight.admit(1, 1, 10));
    CHECK(tight.reached() == ReadBudget::Reached::memory);
    CHECK(tight.memory_at_refusal() >= peak_resident_memory() / 2);
    CHECK(tight.memory_at_refusal() > 1024);
    CHECK(tight.memory_passed());
    CHECK_FALSE(tight.admit(1, 2, 1));

    ReadBudget unlimited(1 << 20, 0);  // 0: no budget of memory
    CHECK(unlimited.admit(1, 1, 10));
    CHECK_FALSE(unlimited.memory_passed());
}

TEST_CASE("a file past the budget of memory says which budget and how much was held", "[read-budget]") {
    const ScratchDir scratch("tfsift-memory-budget");
    const fs::path root = fs::canonical(scratch.path);
    const std::string a = (root / "a.tf").string();
    write_file(a, "# a\n");
    ReadPolicy policy{root.string(), false, default_max_file_size};
    policy.budget = std::make_shared<ReadBudget>(1 << 20, 1 << 20);
    FileContent failure;
    CHECK(read_source_file(a, policy, failure) == nullptr);
    CHECK(failure.failure == ReadFailure::over_budget);
    const std::string held = std::to_string(policy.budget->memory_at_refusal() >> 20);
    CHECK(failure.message == a +
                                 ": not read: the run's memory budget of 1 MiB was reached (the process's peak "
                                 "resident memory was " +
                                 held + " MiB; the option --max-memory)");
}

namespace {

// Holds memory until the process's peak resident memory is past `bytes`
// (at most 1 GiB more), then lets it go.
void raise_peak_past(std::uint64_t bytes) {
    std::vector<std::unique_ptr<char[]>> held;
    constexpr std::size_t block = std::size_t{16} << 20;
    while (peak_resident_memory() <= bytes && held.size() < 64) {
        held.emplace_back(new char[block]);
        volatile char* p = held.back().get();
        for (std::size_t i = 0; i < block; i += 4096) p[i] = 1;  // touch each page
    }
}

}  // namespace

TEST_CASE("small files are compared with the budget of memory in batches", "[read-budget]") {
    const std::uint64_t limit = peak_resident_memory() + (std::uint64_t{32} << 20);
    ReadBudget budget(std::uint64_t{1} << 30, limit);
    CHECK(budget.admit(1, 1, 100));  // the first file is compared: under the budget
    raise_peak_past(limit);
    REQUIRE(peak_resident_memory() > limit);
    // Files admitted since the last comparison total less than
    // memory_check_bytes: not compared, admitted.
    CHECK(budget.admit(1, 2, memory_check_bytes - 200));
    CHECK(budget.admit(1, 3, 100));
    CHECK(budget.reached() == ReadBudget::Reached::none);
    // Once they reach it, the next file is compared: refused.
    CHECK_FALSE(budget.admit(1, 4, 1));
    CHECK(budget.reached() == ReadBudget::Reached::memory);

    // A file of memory_check_bytes or more is compared whatever came before.
    const std::uint64_t higher = peak_resident_memory() + (std::uint64_t{32} << 20);
    ReadBudget large(std::uint64_t{1} << 30, higher);
    CHECK(large.admit(1, 1, 100));
    raise_peak_past(higher);
    REQUIRE(peak_resident_memory() > higher);
    CHECK_FALSE(large.admit(1, 2, memory_check_bytes));
    CHECK(large.reached() == ReadBudget::Reached::memory);

    // memory_passed() always compares.
    const std::uint64_t highest = peak_resident_memory() + (std::uint64_t{32} << 20);
    ReadBudget merge(std::uint64_t{1} << 30, highest);
    CHECK(merge.admit(1, 1, 100));
    raise_peak_past(highest);
    REQUIRE(peak_resident_memory() > highest);
    CHECK(merge.memory_passed());
    CHECK_FALSE(merge.admit(1, 2, 1));
}

TEST_CASE("jobs admitting files side by side charge each file once and stop at the budget", "[read-budget]") {
    // Every admission compares the peak memory (files of memory_check_bytes),
    // which is done without the lock: two jobs that admit the same file in
    // that window must still charge it once.
    constexpr unsigned jobs = 4;
    constexpr std::uint64_t files = 200;
    const std::uint64_t size = memory_check_bytes;
    // Room for half the distinct files; no budget of memory is reached.
    ReadBudget budget(files / 2 * size, peak_resident_memory() + (std::uint64_t{1} << 30));
    std::vector<std::vector<char>> admitted(jobs, std::vector<char>(files, 0));
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j) {
        threads.emplace_back([&budget, &admitted, j, size] {
            // Every job asks for every file, each in its own order.
            for (std::uint64_t k = 0; k < files; ++k) {
                const std::uint64_t inode = (k * (j + 1)) % files;
                admitted[j][inode] = budget.admit(7, inode, size) ? 1 : 0;
            }
        });
    }
    for (auto& t : threads) t.join();
    CHECK(budget.reached() == ReadBudget::Reached::bytes);
    // A file some job was given is one the budget charged: at most half.
    std::uint64_t charged = 0;
    for (std::uint64_t f = 0; f < files; ++f) {
        bool any = false;
        for (unsigned j = 0; j < jobs; ++j) any = any || admitted[j][f] != 0;
        if (any) ++charged;
    }
    CHECK(charged == files / 2);
    // What was charged stays readable by any job; nothing else is.
    for (std::uint64_t f = 0; f < files; ++f) {
        bool any = false;
        for (unsigned j = 0; j < jobs; ++j) any = any || admitted[j][f] != 0;
        CHECK(budget.admit(7, f, size) == any);
    }
}
