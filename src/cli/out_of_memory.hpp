// Running out of memory ends a command with a message and exit status 2,
// never with std::terminate.
//
// A std::bad_alloc unwinds through destructors, and some of them allocate:
// nlohmann::json flattens a large document onto a heap stack to destroy it,
// so a SARIF report that exhausts memory used to abort (exit 134) while its
// document was destroyed. A reserve of memory set aside at start is given
// back the first time an allocation fails, so that the unwinding and the
// message have room.
#pragma once

#include <cstddef>

namespace tfsift::cli {

inline constexpr std::size_t out_of_memory_reserve_bytes = std::size_t{32} << 20;

// Sets the reserve aside and installs the new-handler that releases it.
void install_out_of_memory_reserve(std::size_t bytes = out_of_memory_reserve_bytes);

}  // namespace tfsift::cli
