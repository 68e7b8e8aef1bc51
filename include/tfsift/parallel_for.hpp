// Running independent pieces of work on several threads.
#pragma once

#include <cstddef>
#include <functional>

namespace tfsift {

// Calls `work(i)` once for every i in [0, count), on up to `threads` threads
// (the calling thread is one of them), and returns when every call is done.
// Calls run in no particular order; a caller that needs ordered results
// stores them by index. Each extra thread gets a stack as large as the main
// thread's usual one (the parser and evaluator bound their recursion by
// stack use, so a small thread stack must not shrink what they accept).
// When calls throw, the exception of the lowest index is rethrown after all
// threads have finished.
void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work);

// The processors this process may use, at least 1: the default of `--jobs`.
unsigned available_processors();

}  // namespace tfsift
