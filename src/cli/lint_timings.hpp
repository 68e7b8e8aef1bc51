// `tfsift lint --timings`: where the run's time went, printed to standard
// error after the report, so that a user (or a benchmark) sees the stages of
// the process they ran rather than of a loop inside another program.
#pragma once

#include <chrono>
#include <cstddef>

#include "tfsift/lint/session.hpp"

namespace tfsift::cli {

struct LintTimings {
    std::chrono::steady_clock::time_point started;  // when the command began
    double report = 0;                              // seconds writing the reports
    std::size_t files_linted = 0;
};

// Prints the table: wall and processor time of the whole command, peak
// resident memory, the session's stages and what was read.
void print_lint_timings(const lint::SessionTimes& times, const LintTimings& command);

}  // namespace tfsift::cli
