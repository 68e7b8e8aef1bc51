// What one lint run may read and hold: the bytes of its configuration files,
// all files together, and the memory the process may reach before it reads
// another file.
//
// The size of one file is bounded (`max_file_size`), but a repository can
// hold any number of files, and a file costs a multiple of its size in
// memory once it is parsed, decoded and merged: about 3x for real modules,
// 30-40x for a file of nothing but tiny blocks. So the files a run loads
// share one budget of bytes, and before a file is read the process's peak
// resident memory is compared with a budget of memory: before each file of
// memory_check_bytes or more, and before a smaller one once the files
// admitted since the last comparison reach memory_check_bytes (a
// comparison is a system call; most files are a few KiB). Once either
// budget is reached, the file and every later one are not read, and each
// is reported as a file that cannot be read, naming the budget. A file is
// charged once however often it is read in the run (several trees share a
// module, a released module is loaded again), by its device and inode.
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <utility>

namespace tfsift {

// The default budgets (`tfsift lint --max-total-size`, `--max-memory`).
inline constexpr std::uint64_t default_max_total_size = std::uint64_t{256} << 20;
inline constexpr std::uint64_t default_max_memory = std::uint64_t{1} << 30;

// The files admitted between two comparisons of the peak memory with its
// budget total less than this, and the file that brings them to it is
// compared before it is read: less than twice this many bytes are read
// unseen (at the densest, ~40x, about 5 MiB of memory).
inline constexpr std::uint64_t memory_check_bytes = std::uint64_t{64} << 10;

// The process's peak resident memory so far, in bytes.
std::uint64_t peak_resident_memory();

class ReadBudget {
public:
    // `memory_limit` 0: no budget of memory.
    explicit ReadBudget(std::uint64_t limit, std::uint64_t memory_limit = 0)
        : limit_(limit), memory_limit_(memory_limit) {}

    // Charges the file (`device`, `inode`) of `size` bytes, unless it was
    // charged already; false, charging nothing, when a budget was reached
    // before, this file would pass the budget of bytes, or the process's
    // peak memory, when compared (see memory_check_bytes), is past the
    // budget of memory. Safe to call from several threads.
    bool admit(std::uint64_t device, std::uint64_t inode, std::uint64_t size);

    // True when the process's peak resident memory is past the budget of
    // memory (then no further file is admitted either): asked before work
    // that adds to what the files read so far cost, such as merging a
    // module's files.
    bool memory_passed();

    // Which budget refused the first file refused.
    enum class Reached : std::uint8_t { none, bytes, memory };
    [[nodiscard]] Reached reached() const;
    // The peak resident memory first seen past the budget of memory; 0
    // while it was not.
    [[nodiscard]] std::uint64_t memory_at_refusal() const;

    [[nodiscard]] std::uint64_t limit() const { return limit_; }
    [[nodiscard]] std::uint64_t memory_limit() const { return memory_limit_; }

private:
    // Charges the file, or refuses it when it would pass the budget of
    // bytes. The mutex is held.
    bool charge_locked(const std::pair<std::uint64_t, std::uint64_t>& file, std::uint64_t size);

    mutable std::mutex mutex_;
    std::set<std::pair<std::uint64_t, std::uint64_t>> charged_;
    std::uint64_t used_ = 0;
    Reached reached_ = Reached::none;
    std::uint64_t memory_at_refusal_ = 0;
    bool compared_ = false;        // the peak memory was compared with its budget
    std::uint64_t unchecked_ = 0;  // bytes admitted since the last comparison
    const std::uint64_t limit_;
    const std::uint64_t memory_limit_;
};

}  // namespace tfsift
