// Reports: the findings of a lint run, written for people and for tools.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/rule.hpp"

namespace tfsift::report {

enum class Format : std::uint8_t { text, json, sarif, checkstyle, junit, compact };

std::optional<Format> parse_format(std::string_view name);
std::string_view to_string(Format f);

// Version of the JSON report's schema (docs/json-report.md). Raised on any
// change a consumer could notice.
inline constexpr int json_schema_version = 1;

struct ReportInput {
    const lint::Findings& findings;             // sorted
    const std::vector<lint::Rule>& rules;       // every rule that could report (built-in and policies)
    std::string repository_root;                // absolute; SARIF locations are relative to it
    std::string working_dir;                    // absolute; paths for people are relative to it
    std::size_t files_scanned = 0;
    int exit_code = 0;                          // the exit status of this run
    bool color = false;                         // text only: ANSI colours
    bool quiet = false;                         // text only: no summary line
    std::vector<std::string> command_line;      // SARIF invocation
};

void write_report(Format format, const ReportInput& input, std::ostream& out);

void write_text(const ReportInput& input, std::ostream& out);
void write_compact(const ReportInput& input, std::ostream& out);
void write_json(const ReportInput& input, std::ostream& out);
void write_sarif(const ReportInput& input, std::ostream& out);
void write_checkstyle(const ReportInput& input, std::ostream& out);
void write_junit(const ReportInput& input, std::ostream& out);

// The number of findings per rule id, most frequent first (`--statistics`).
void write_statistics(const lint::Findings& findings, std::ostream& out);

// The path of `file_path` relative to `base_dir` when it lies below it,
// '/'-separated; otherwise its absolute form.
std::string relative_path(const std::string& file_path, const std::string& base_dir);

// The nearest directory from `start` upward that holds `.git`; `start`
// itself (made absolute) when there is none.
std::string find_repository_root(const std::string& start);

}  // namespace tfsift::report
