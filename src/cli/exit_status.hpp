// The exit statuses every tfsift command returns, in one place (the table
// in README.md, "Exit codes").
#pragma once

#include <cstdio>

namespace tfsift::cli {

// Nothing at or above the failure severity (lint), or the command did what
// was asked.
inline constexpr int exit_clean = 0;
// Findings at or above the failure severity, or errors in the input a
// command reports (a parse dump with errors, a lock file with errors).
inline constexpr int exit_findings = 1;
// Usage and settings errors, and every I/O failure: a file or directory
// that exists but cannot be read or is refused, a failed write (standard
// output included), and an exception that escapes a command, out of memory
// among them.
inline constexpr int exit_failure = 2;

// The status after flushing standard output: when anything written there
// failed (a full disk, `> /dev/full`, a closed pipe), prints why on standard
// error (`write_error`, an errno value, when the failed write told it) and
// returns exit_failure; otherwise `status`.
int finish_standard_output(int status, int write_error = 0);

}  // namespace tfsift::cli
