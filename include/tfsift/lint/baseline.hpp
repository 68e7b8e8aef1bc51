// Baselines: adopting tfsift in a repository with existing findings.
// `--write-baseline FILE` records the current findings; `--baseline FILE`
// then reports only findings that are not recorded there. A finding is
// recorded by rule, file and a fingerprint of the text it sits on, so that
// adding or removing lines above it does not make it "new".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfsift/lint/finding.hpp"

namespace tfsift::lint {

struct BaselineEntry {
    std::string rule;
    std::string file;         // '/'-separated, relative to the baseline file's directory when below it
    std::string fingerprint;  // 16 hex digits

    friend bool operator<(const BaselineEntry& a, const BaselineEntry& b) {
        return std::tie(a.file, a.rule, a.fingerprint) < std::tie(b.file, b.rule, b.fingerprint);
    }
    friend bool operator==(const BaselineEntry& a, const BaselineEntry& b) {
        return a.rule == b.rule && a.file == b.file && a.fingerprint == b.fingerprint;
    }
};

// The entries of `findings` (in any order), for a baseline kept in
// `baseline_dir`. The fingerprint hashes the rule id, the file's path and the
// text of the finding's first line with runs of blanks collapsed, plus the
// finding's index among the findings of its file with that same rule and
// line text (so two identical lines stay two entries). Sorted.
std::vector<BaselineEntry> baseline_entries(const Findings& findings, const std::string& baseline_dir);

// The baseline file's text: JSON, one entry per line, stable under re-runs.
std::string render_baseline(const std::vector<BaselineEntry>& entries);

struct BaselineParse {
    std::vector<BaselineEntry> entries;
    std::string error;  // "LINE:COLUMN: what is wrong" when the text is not a baseline
    [[nodiscard]] bool ok() const { return error.empty(); }
};

BaselineParse parse_baseline(std::string_view text);

// Drops the findings that the baseline records (each entry matches at most
// one finding); returns how many were dropped.
std::size_t filter_baseline(Findings& findings, const std::vector<BaselineEntry>& baseline,
                            const std::string& baseline_dir);

}  // namespace tfsift::lint
