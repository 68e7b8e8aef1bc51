#!/usr/bin/env bash
# Rewrites the checked-in manual page and shell completions in share/ from a
# tfsift binary (default: build/tfsift), after a change to the command line.
# The shell-docs test fails until they match what the binary writes.
set -euo pipefail
cd "$(dirname "$0")/.."
tfsift=${1:-build/tfsift}
cmake -DTFSIFT="$tfsift" -DOUT=share -P cmake/generate_shell_docs.cmake
echo "share/: tfsift.1 tfsift.bash _tfsift tfsift.fish written by $tfsift"
