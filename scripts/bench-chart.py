#!/usr/bin/env python3
"""Draws the chart of docs/benchmarks.md from lint_bench's own output.

Reads what lint_bench (or scripts/bench.sh, which runs it) printed and draws
one horizontal bar per timed run: the whole lint of the corpus with one job
and with every core, and, when the run was given --hclbench, the Go
reference parser (hashicorp/hcl) only parsing the same corpus. Writes an SVG
by hand, with no packages beyond Python's standard library.

usage: scripts/bench-chart.py LINT_BENCH_OUTPUT [--output FILE.svg]
  LINT_BENCH_OUTPUT  a file, or - for standard input
  --output           where to write the SVG (atomically); default stdout
"""
import argparse
import os
import re
import sys
from xml.sax.saxutils import escape

LINT = re.compile(r"^lint --jobs (\d+)\s+([\d.]+) s \(.*?\)\s+(\d+) files, (\d+) findings, ([\d.]+) MB")
GO = re.compile(r"^Go hcl parse -j (\d+)\s+([\d.]+) s \((\d+) \.tf files")


def read_runs(text):
    runs = []  # (label, seconds, is_tfsift, jobs or threads)
    lint_files = config_mb = None
    for line in text.splitlines():
        m = LINT.match(line)
        if m:
            jobs, seconds = m.group(1), float(m.group(2))
            lint_files, config_mb = int(m.group(3)), float(m.group(5))
            runs.append((f"tfsift lint --jobs {jobs}", seconds, True, int(jobs)))
            continue
        m = GO.match(line)
        if m:
            runs.append((f"Go hcl parse only, {m.group(1)} thread{'s' if m.group(1) != '1' else ''}",
                         float(m.group(2)), False, int(m.group(1))))
    if not any(r[2] for r in runs):
        sys.exit("bench-chart: no `lint --jobs N` lines: is this lint_bench's output?")
    runs.sort(key=lambda r: (r[2], r[3]))
    return runs, lint_files, config_mb


def svg(runs, files, mb):
    width, left, right, bar, gap, top = 720, 250, 90, 26, 12, 58
    height = top + len(runs) * (bar + gap) + 40
    longest = max(r[1] for r in runs)
    scale = (width - left - right) / longest
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="16" y="26" font-size="16" font-weight="bold">Wall time on the corpus: {files:,} files, '
        f'{mb:.1f} MB (shorter is better)</text>',
        '<text x="16" y="46" fill="#555555">tfsift: the whole lint, every default rule, JSON report; '
        'Go: hashicorp/hcl parsing the same .tf files</text>',
    ]
    for k, (label, seconds, ours, _) in enumerate(runs):
        y = top + k * (bar + gap)
        w = max(1.0, seconds * scale)
        colour = "#2f6db5" if ours else "#9a9a9a"
        out.append(f'<text x="{left - 10}" y="{y + bar * 0.7:.1f}" text-anchor="end">{escape(label)}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colour}"/>')
        out.append(f'<text x="{left + w + 8:.1f}" y="{y + bar * 0.7:.1f}">{seconds:.2f} s</text>')
    axis_y = top + len(runs) * (bar + gap) - gap / 2
    out.append(f'<line x1="{left}" y1="{top - 6}" x2="{left}" y2="{axis_y:.1f}" stroke="#333333"/>')
    out.append(f'<text x="16" y="{height - 14}" fill="#555555" font-size="12">Drawn by scripts/bench-chart.py '
               'from the output of lint_bench.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("--output")
    a = ap.parse_args()
    text = sys.stdin.read() if a.input == "-" else open(a.input, encoding="utf-8").read()
    runs, files, mb = read_runs(text)
    chart = svg(runs, files, mb)
    if not a.output:
        sys.stdout.write(chart)
        return 0
    tmp = f"{a.output}.tmp.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(chart)
    os.replace(tmp, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
