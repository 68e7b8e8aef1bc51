// An initialisation run once per object, as std::call_once runs it, but
// without a system call. std::call_once (pthread_once) wakes any waiting
// threads through the kernel each time it finishes an initialisation, waiting
// or not; a run touches thousands of source files whose line tables are built
// so, one futex call each. Here a flag read with acquire order answers once
// the work is done, and a mutex, which costs no system call while no other
// thread waits, covers the first run.
#pragma once

#include <atomic>
#include <mutex>

namespace tfsift {

class Once {
public:
    // Runs `init` unless a call has run it to the end; concurrent callers
    // wait for the one that runs it. When `init` throws, the exception goes
    // to its caller and the next call tries again.
    template <class Init>
    void run(Init&& init) {
        if (done_.load(std::memory_order_acquire)) return;
        const std::lock_guard<std::mutex> lock(mutex_);
        if (done_.load(std::memory_order_relaxed)) return;
        init();
        done_.store(true, std::memory_order_release);
    }

private:
    std::atomic<bool> done_{false};
    std::mutex mutex_;
};

}  // namespace tfsift
