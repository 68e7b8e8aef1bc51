// Running a piece of work on a thread whose stack size is known.
#pragma once

#include <cstddef>
#include <functional>

namespace tfsift {

// The stack tfsift's commands run on: the parser, the evaluator and every walk
// over hostile input bound their recursion by stack use, so what they accept
// must not depend on `ulimit -s` (a 1 MiB limit would crash a legal 999-term
// `+` chain on the main thread). 16 MiB is the common 8 MiB main-thread
// stack doubled for sanitizer builds' larger frames; parallel_for's worker
// threads get the same size.
inline constexpr std::size_t command_stack_bytes = std::size_t{16} << 20;

// Calls `work` on a new thread with a stack of `bytes` and returns its result
// once it is done. When no such thread can be made, `work` runs on the calling
// thread (whose stack budgets then follow its real size).
int run_on_stack(std::size_t bytes, const std::function<int()>& work);

}  // namespace tfsift
