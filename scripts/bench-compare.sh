#!/usr/bin/env bash
# Compares two tfsift binaries on one corpus as users run them, interleaved
# round by round so that a change in the machine's load reaches both alike:
# `tfsift lint -r CORPUS` (default jobs, then --jobs 1), reports to
# /dev/null, with wall time, processor time (user and system) and peak RSS
# of each process; and, when HCLBENCH names the Go reference benchmark, its
# one-thread parse in the same round (best round and its process's figures).
# Prints the load averages before and after: figures from a loaded machine
# are not results. With INSTRUCTIONS=1, it also counts the instructions of
# `lint -r --jobs 1` of each binary under callgrind (valgrind): a figure the
# machine's load does not move, for a change too small to show through it.
#
# Usage: scripts/bench-compare.sh OLD_TFSIFT NEW_TFSIFT [CORPUS_DIR] [ROUNDS]
#   CORPUS_DIR defaults to ../shared/corpus, ROUNDS to 3.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: scripts/bench-compare.sh OLD_TFSIFT NEW_TFSIFT [CORPUS_DIR] [ROUNDS]" >&2
  exit 2
fi
old=$1 new=$2 corpus=${3:-../shared/corpus} rounds=${4:-3}
for bin in "$old" "$new"; do
  [[ -x $bin ]] || { echo "bench-compare: $bin is not an executable" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "bench-compare: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
if [[ ${INSTRUCTIONS:-} == 1 ]] && ! command -v valgrind >/dev/null; then
  echo "bench-compare: INSTRUCTIONS=1 needs valgrind (Debian package valgrind)" >&2
  exit 2
fi

# One run: "wall user system maxrss_kb" of the process.
measure() {
  /usr/bin/time -o "$timing" -f '%e %U %S %M' "$@" >/dev/null 2>/dev/null || true
  tail -n 1 "$timing"
}

echo "load average $(cut -d' ' -f1-3 /proc/loadavg) (before)"
results=$(mktemp)
timing=$(mktemp)
trap 'rm -f "$results" "$timing"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for which in old new; do
    bin=$old
    [[ $which == new ]] && bin=$new
    echo "$which default $(measure "$bin" lint -r "$corpus")" >>"$results"
    echo "$which jobs1 $(measure "$bin" lint -r --jobs 1 "$corpus")" >>"$results"
  done
  if [[ -n ${HCLBENCH:-} ]]; then
    go_out=$(/usr/bin/time -o "$timing" -f '%e %U %S %M' "$HCLBENCH" -n 3 -j 1 "$corpus")
    best=$(grep -o 'best_seconds [0-9.]*' <<<"$go_out" | cut -d' ' -f2)
    echo "go parse $best $(tail -n 1 "$timing")" >>"$results"
  fi
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) (after)"

# Best round (least wall time) of each kind, with its processor time.
awk '
  $1 != "go" { key = $1 " " $2; wall = $3 + 0
               if (!(key in best) || wall < best[key]) { best[key] = wall; line[key] = $0 }
               if ($6 + 0 > rss[key]) rss[key] = $6 + 0 }
  $1 == "go" { if (!gobest || $3 + 0 < gobest) { gobest = $3 + 0; goline = $0 } }
  END {
    for (k in line) {
      split(line[k], f, " ")
      printf "%-14s %6.3f s wall, %6.3f s processor (user %.3f, system %.3f), peak RSS %.1f MB\n",
             k, f[3], f[4] + f[5], f[4], f[5], rss[k] / 1000
    }
    if (gobest) {
      split(goline, g, " ")
      printf "go parse -j 1  best round %.3f s; its process %.3f s wall, %.3f s processor\n", g[3], g[4], g[5] + g[6]
      for (k in line) { split(line[k], f, " "); printf "%-14s / Go parse -j 1 = %.3f\n", k, f[3] / gobest }
    }
  }' "$results" | sort

# Instructions, old and new: one run each, the same on any machine.
if [[ ${INSTRUCTIONS:-} == 1 ]]; then
  # The lint exits 1 when it reports findings: only the count matters here.
  count() {
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" lint -r --jobs 1 "$corpus" 2>&1 >/dev/null || true; } |
      sed -n 's/.*Collected : *//p'
  }
  old_count=$(count "$old")
  new_count=$(count "$new")
  if [[ -z $old_count || -z $new_count ]]; then
    echo "bench-compare: callgrind reported no instruction count" >&2
    exit 1
  fi
  awk -v o="$old_count" -v n="$new_count" 'BEGIN {
    printf "instructions   old %.1f million, new %.1f million (lint -r --jobs 1, callgrind): new / old = %.4f\n",
           o / 1e6, n / 1e6, n / o }'
fi
