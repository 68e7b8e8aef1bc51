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

enum class Format : std::uint8_t { text, json, sarif, checkstyle, junit, compact, github, gitlab, rdjson };

std::optional<Format> parse_format(std::string_view name);
std::string_view to_string(Format f);

// Version of the JSON report's schema (docs/json-report.md). Raised on any
// change a consumer could notice.
inline constexpr int json_schema_version = 1;

struct ReportInput {
    const lint::Findings& findings;        // sorted
    const std::vector<lint::Rule>& rules;  // every rule that could report (built-in and policies)
    std::string repository_root;           // absolute; SARIF locations are relative to it
    std::string working_dir;               // absolute; paths for people are relative to it
    std::size_t files_scanned = 0;
    int exit_code = 0;                      // the exit status of this run
    bool color = false;                     // text only: ANSI colours
    bool quiet = false;                     // text only: no summary line
    std::vector<std::string> command_line;  // SARIF invocation
    // SARIF: the code scanning category of the run (`--sarif-category`),
    // written as automationDetails.id "NAME/"; empty: no automationDetails,
    // so that the upload step's own category applies.
    std::string sarif_category;
    // Source text (snippets, and in SARIF the line hash) is shown only for
    // files that resolve inside one of these directories; empty: any file.
    // A file read from outside the repository may hold anything (a
    // committed link to /proc/self/environ holds the CI's secrets).
    std::vector<std::string> trusted_roots;
    // Where rule documentation is published; reports carry links only when
    // it has a home page (a build setting), and never an invented one.
    lint::ProjectLinks links;
    // Text only: after more than rule_table_threshold findings, a table of
    // the findings per rule (off when `--statistics` prints it instead).
    bool rule_table = true;
    // How many threads may put the report together at once (the lint's
    // jobs); every format but compact uses them.
    unsigned jobs = 1;
};

inline constexpr std::size_t rule_table_threshold = 20;

void write_report(Format format, const ReportInput& input, std::ostream& out);

// The report as one string. Its capacity is reserved from the number of
// findings before it is written, so that a long report (6.6 MB of SARIF for
// the benchmark corpus) is not copied each time its buffer doubles, with
// the old and the new buffer both in memory: the pages of a reservation
// that nothing writes take no memory. Throws std::bad_alloc when the report
// does not fit in memory.
std::string render_report(Format format, const ReportInput& input);

// GitHub's documented limits on what it takes from a report (docs/ci.md).
// Code scanning rejects a SARIF file beyond a maximum and keeps only part of
// what is beyond a display limit; workflow commands show only so many
// annotations per step.
struct GitHubLimits {
    static constexpr std::size_t runs_per_file = 20;
    static constexpr std::size_t results_per_run = 25'000;
    static constexpr std::size_t results_shown = 5'000;
    static constexpr std::size_t rules_per_run = 25'000;
    static constexpr std::size_t locations_per_result = 1'000;
    static constexpr std::size_t tags_per_rule = 20;
    static constexpr std::size_t tags_shown = 10;
    static constexpr std::size_t gzip_bytes = 10'000'000;    // the file, gzip-compressed
    static constexpr std::size_t annotations_per_step = 10;  // of each level: error, warning
};

// What the consumer of a rendered report would reject or leave out: for SARIF,
// GitHub code scanning's limits; for `github`, annotations past the ones a
// step shows. One sentence each, empty when nothing is lost.
std::vector<std::string> report_warnings(Format format, const ReportInput& input, std::string_view rendered);

// The size of `text` compressed with deflate at gzip's default level (what
// the SARIF upload sends), give or take a hundred bytes of headers.
std::size_t deflated_size(std::string_view text);

void write_text(const ReportInput& input, std::ostream& out);
void write_compact(const ReportInput& input, std::ostream& out);
void write_json(const ReportInput& input, std::ostream& out);
void write_sarif(const ReportInput& input, std::ostream& out);
void write_checkstyle(const ReportInput& input, std::ostream& out);
void write_junit(const ReportInput& input, std::ostream& out);
void write_github(const ReportInput& input, std::ostream& out);
void write_gitlab(const ReportInput& input, std::ostream& out);
void write_rdjson(const ReportInput& input, std::ostream& out);

// `tfsift rules --format json`: every rule with its id, default severity,
// whether it is on by default and fixable, its category, whether a
// [[policy]] table defines it, and its summary (docs/json-report.md).
void write_rules_json(const std::vector<lint::Rule>& rules, std::ostream& out);

// The number of findings per rule id, most frequent first, with how many
// of them carry a fix (`--statistics`, and the text report's table).
void write_statistics(const lint::Findings& findings, std::ostream& out);

// The text report's summary of a run, without a newline: "N findings (E
// errors, W warnings, M notices) in F of S files." and how many of them
// `tfsift lint --fix` (and `--unsafe-fixes`) would fix, or "No findings in
// S files.".
std::string summary_line(const ReportInput& input);

// "`tfsift rule ID` explains a, b." for the rules of the findings (with
// where their pages are when `links` has a home page); empty with no
// findings.
std::string rules_explained_line(const ReportInput& input);

// The path of `file_path` relative to `base_dir` when it lies below it,
// '/'-separated; otherwise its absolute form.
std::string relative_path(const std::string& file_path, const std::string& base_dir);

// `text` with the characters a terminal would act on, or a reader would not
// see, made visible: C0 controls but tab and line feed, DEL and bytes that
// are not UTF-8 become \xHH; C1 controls, the bidirectional controls
// (U+061C, U+200E-200F, U+202A-202E, U+2066-2069), zero-width characters
// (U+200B-200D, U+2060-2065, U+FEFF) and U+2028-2029 become \uHHHH. So a
// file name or file content cannot move the cursor, recolour or retitle the
// terminal, nor show a reviewer something other than what is there.
// Deterministic: the same input always gives the same text
// (docs/output-formats.md, "Escaping").
std::string escape_control_characters(std::string_view text);

// The same for a field that must stay on its line (a file name, a line of
// the compact or github format): line feed becomes \n and tab \t too, so no
// name can start a line a problem matcher would read as a finding.
std::string escape_line(std::string_view text);

// The nearest directory from `start` upward that holds `.git`; `start`
// itself (made absolute) when there is none.
std::string find_repository_root(const std::string& start);

// The directory report paths are relative to for a run over `dirs` (absolute,
// the first one first): the repository root of the first one; when no `.git`
// lies above it, the deepest directory holding all of them, so that a tree
// outside any repository still gets relative paths.
std::string report_root(const std::vector<std::string>& dirs);

}  // namespace tfsift::report
