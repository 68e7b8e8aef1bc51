#include "cli/exit_status.hpp"

#include <cerrno>
#include <cstring>

namespace tfsift::cli {

int finish_standard_output(int status, int write_error) {
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    if (!flushed && errno != 0) write_error = errno;
    if (flushed && std::ferror(stdout) == 0) return status;
    // Plain stdio: formatting could itself fail for want of memory.
    std::fputs("tfsift: cannot write to standard output: ", stderr);
    std::fputs(write_error != 0 ? std::strerror(write_error) : "write error", stderr);
    std::fputs("\n", stderr);
    std::clearerr(stdout);  // said once
    return exit_failure;
}

}  // namespace tfsift::cli
