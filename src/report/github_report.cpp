// GitHub Actions workflow commands: one `::error file=...::message` line per
// finding, which the runner turns into an annotation on the pull request,
// without code scanning.
#include <algorithm>
#include <fmt/format.h>

#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

// A command's message: the runner reads up to the end of the line, and
// decodes these three escapes.
std::string escape_data(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '%': out += "%25"; break;
            case '\r': out += "%0D"; break;
            case '\n': out += "%0A"; break;
            default: out += c;
        }
    }
    return out;
}

// A property value: ',' separates properties and ':' ends them, so both are
// escaped too.
std::string escape_property(std::string_view text) {
    std::string out;
    for (char c : escape_data(text)) {
        switch (c) {
            case ':': out += "%3A"; break;
            case ',': out += "%2C"; break;
            default: out += c;
        }
    }
    return out;
}

std::string_view command(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::notice: return "notice";
    }
    return "warning";
}

// Text for a log a browser shows: valid UTF-8, control characters visible.
std::string log_text(std::string_view text) { return escape_control_characters(detail::valid_utf8(text)); }

}  // namespace

void write_github(const ReportInput& in, std::ostream& out) {
    const lint::Findings& all = in.findings;
    // In runs of neighbouring findings, put together by the lint's jobs.
    detail::render_in_runs(
        all.size(), in.jobs, detail::findings_per_run,
        [&](std::size_t begin, std::size_t end, std::string& text) {
            detail::RelativePaths paths(in.repository_root);
            for (std::size_t i = begin; i < end; ++i) {
                const lint::Finding& f = all[i];
                const SourceFile& file = *f.file;
                const std::uint32_t line = file.line(f.range.start);
                const std::uint32_t end_line = std::max(file.line(f.range.end), line);
                std::string props =
                    fmt::format("file={},line={},endLine={}",
                                escape_property(escape_line(detail::valid_utf8(paths.of(file)))), line, end_line);
                // Columns are only meaningful on one line (GitHub drops them otherwise).
                if (end_line == line) {
                    const std::uint32_t col = detail::utf16_column(file, f.range.start);
                    props += fmt::format(",col={},endColumn={}", col,
                                         std::max(col, detail::utf16_column(file, f.range.end)));
                }
                props += ",title=" + escape_property(f.rule_id);
                std::string message = log_text(f.message);
                // Related locations as further lines of the annotation.
                for (const auto& r : f.related) {
                    message += fmt::format("\n{}:{}:{}: {}", escape_line(detail::valid_utf8(paths.of(*r.file))),
                                           r.file->line(r.range.start), detail::utf16_column(*r.file, r.range.start),
                                           log_text(r.message));
                }
                text += "::";
                text += command(f.severity);
                text += ' ';
                text += props;
                text += "::";
                text += escape_data(message);
                text += '\n';
            }
        },
        out);
}

}  // namespace tfsift::report
