// The bytes of configuration one lint run may read, all files together.
//
// The size of one file is bounded (`max_file_size`), but a repository can
// hold any number of files, and a file costs a multiple of its size in
// memory once it is parsed, decoded and merged. So the files a run loads
// share one budget: once the next file would pass it, that file and every
// later one are not read, and each is reported as a file that cannot be
// read, naming the budget. A file is charged once however often it is read
// in the run (several trees share a module, a released module is loaded
// again), by its device and inode.
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <utility>

namespace tfsift {

// The default budget (`tfsift lint --max-total-size`).
inline constexpr std::uint64_t default_max_total_size = std::uint64_t{256} << 20;

class ReadBudget {
public:
    explicit ReadBudget(std::uint64_t limit) : limit_(limit) {}

    // Charges the file (`device`, `inode`) of `size` bytes, unless it was
    // charged already; false, charging nothing, when the budget was
    // reached before or this file would pass it. Safe to call from several
    // threads.
    bool admit(std::uint64_t device, std::uint64_t inode, std::uint64_t size);

    [[nodiscard]] std::uint64_t limit() const { return limit_; }

private:
    std::mutex mutex_;
    std::set<std::pair<std::uint64_t, std::uint64_t>> charged_;
    std::uint64_t used_ = 0;
    bool reached_ = false;
    const std::uint64_t limit_;
};

}  // namespace tfsift
