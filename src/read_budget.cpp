#include "tfsift/read_budget.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace tfsift {

std::uint64_t peak_resident_memory() {
    struct rusage usage {};
    if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux counts KiB
}

bool ReadBudget::admit(std::uint64_t device, std::uint64_t inode, std::uint64_t size) {
    const std::pair<std::uint64_t, std::uint64_t> file{device, inode};
    std::uint64_t unchecked_before = 0;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (charged_.count(file) != 0) return true;
        // Once one file is refused, every later one is: what is left out is
        // whatever came after that point, not a selection of small files.
        if (reached_ != Reached::none) return false;
        // One getrusage call (a system call) per comparison: small files are
        // compared in batches of memory_check_bytes, so that a run of
        // thousands of small files does not make one for each.
        const bool compare =
            memory_limit_ != 0 && (!compared_ || size >= memory_check_bytes || unchecked_ >= memory_check_bytes);
        if (!compare) return charge_locked(file, size);
        unchecked_before = unchecked_;
    }
    // The comparison's system call is made without the lock: the jobs that
    // read files side by side would otherwise wait on each other for it.
    const std::uint64_t peak = peak_resident_memory();
    const std::lock_guard<std::mutex> lock(mutex_);
    if (charged_.count(file) != 0) return true;
    if (reached_ != Reached::none) return false;
    compared_ = true;
    unchecked_ -= std::min(unchecked_, unchecked_before);
    if (peak > memory_limit_) {
        reached_ = Reached::memory;
        if (memory_at_refusal_ == 0) memory_at_refusal_ = peak;
        return false;
    }
    return charge_locked(file, size);
}

bool ReadBudget::charge_locked(const std::pair<std::uint64_t, std::uint64_t>& file, std::uint64_t size) {
    if (size > limit_ - used_) {
        reached_ = Reached::bytes;
        return false;
    }
    used_ += size;
    unchecked_ += size;
    charged_.insert(file);
    return true;
}

bool ReadBudget::memory_passed() {
    if (memory_limit_ == 0) return false;
    std::uint64_t unchecked_before = 0;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (memory_at_refusal_ != 0) return true;
        unchecked_before = unchecked_;
    }
    const std::uint64_t peak = peak_resident_memory();  // without the lock, as in admit()
    const std::lock_guard<std::mutex> lock(mutex_);
    if (memory_at_refusal_ != 0) return true;
    compared_ = true;
    unchecked_ -= std::min(unchecked_, unchecked_before);
    if (peak > memory_limit_) {
        if (reached_ == Reached::none) reached_ = Reached::memory;
        memory_at_refusal_ = peak;
        return true;
    }
    return false;
}

ReadBudget::Reached ReadBudget::reached() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return reached_;
}

std::uint64_t ReadBudget::memory_at_refusal() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return memory_at_refusal_;
}

}  // namespace tfsift
