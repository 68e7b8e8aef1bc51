// Walking a tree of work (a directory tree, say) on several threads.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

#include "tfsift/parallel_for.hpp"

namespace tfsift {

// Calls `visit(item, below)` for every item of `roots` and every item a
// visit puts in `below`, on up to `threads` threads (the calling thread is
// one of them), and returns when every visit is done. One queue feeds the
// threads, not one subtree each, so that no thread waits while another has
// a deep subtree or a level's last large directory left. Visits run in no
// particular order; a caller that needs ordered results sorts them. When a
// visit throws, no new visit starts and the exception is rethrown once the
// running ones are done.
template <class Item, class Visit>
void parallel_walk(std::vector<Item> roots, unsigned threads, Visit&& visit) {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Item> todo(std::make_move_iterator(roots.begin()), std::make_move_iterator(roots.end()));
    std::size_t busy = 0;  // items being visited
    bool stopped = false;  // a visit threw: the others stop too
    threads = threads > 0 ? threads : 1;
    parallel_for(threads, threads, [&](std::size_t) {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            changed.wait(lock, [&] { return stopped || !todo.empty() || busy == 0; });
            if (stopped || todo.empty()) return;
            Item item = std::move(todo.front());
            todo.pop_front();
            ++busy;
            lock.unlock();
            std::vector<Item> below;
            try {
                visit(item, below);
            } catch (...) {
                lock.lock();
                --busy;
                stopped = true;
                changed.notify_all();
                throw;
            }
            lock.lock();
            --busy;
            for (auto& b : below) todo.push_back(std::move(b));
            // Waiting threads have work now, or nothing more will come.
            if (!todo.empty() || busy == 0) changed.notify_all();
        }
    });
}

}  // namespace tfsift
