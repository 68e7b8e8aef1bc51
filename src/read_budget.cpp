#include "tfsift/read_budget.hpp"

namespace tfsift {

bool ReadBudget::admit(std::uint64_t device, std::uint64_t inode, std::uint64_t size) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::pair<std::uint64_t, std::uint64_t> file{device, inode};
    if (charged_.count(file) != 0) return true;
    // Once one file is refused, every later one is: what is left out is
    // whatever came after that point, not a selection of small files.
    if (reached_ || size > limit_ - used_) {
        reached_ = true;
        return false;
    }
    used_ += size;
    charged_.insert(file);
    return true;
}

}  // namespace tfsift
