// reviewdog's Diagnostic Format as one JSON document (rdjson): a
// DiagnosticResult whose diagnostics carry message, location (path and a
// range of 1-based lines and UTF-8 byte columns, end exclusive), severity,
// rule code, suggested fixes and related locations. Written as it is
// produced (report/json_writer.hpp).
#include <algorithm>
#include <map>
#include <ostream>

#include "report/json_writer.hpp"
#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

std::string_view rd_severity(Severity s) {
    switch (s) {
        case Severity::error: return "ERROR";
        case Severity::warning: return "WARNING";
        case Severity::notice: return "INFO";
    }
    return "UNKNOWN_SEVERITY";
}

struct LineColumn {
    std::uint32_t line = 1;
    std::uint32_t column = 1;
};

// rdjson columns count UTF-8 bytes from 1.
LineColumn position(const SourceFile& file, Pos pos) {
    const std::uint32_t line = file.line(pos);
    const std::string_view text = file.text();
    const std::string_view line_text = file.line_text(line);
    std::uint32_t column = 1;
    if (line_text.data() != nullptr) {
        const auto line_start = static_cast<std::uint32_t>(line_text.data() - text.data());
        const std::uint32_t byte = std::min<std::uint32_t>(pos.byte, static_cast<std::uint32_t>(text.size()));
        column = byte >= line_start ? byte - line_start + 1 : 1;
    }
    return {line, column};
}

class RdjsonReport {
public:
    RdjsonReport(const ReportInput& in, std::ostream& out) : in_(in), w_(out), paths_(in.working_dir) {}

    // Continues `whole`'s document at its diagnostics, `items_before` of
    // them written: a run of findings put together on a thread of its own.
    RdjsonReport(const RdjsonReport& whole, std::ostream& out, std::size_t items_before)
        : in_(whole.in_), w_(out, whole.w_.depth(), items_before), paths_(whole.in_.working_dir) {}

    void write() {
        std::map<std::string_view, const lint::Rule*> rules;
        for (const auto& r : in_.rules) rules.emplace(r.id, &r);
        w_.begin_object();
        w_.key("source");
        w_.begin_object();
        w_.member("name", "tfsift");
        if (!in_.links.homepage.empty()) w_.member("url", in_.links.homepage);
        w_.end_object();
        w_.key("diagnostics");
        w_.begin_array();
        // In runs of neighbouring findings, put together by the lint's jobs.
        detail::write_items_in_runs(
            w_, in_.findings.size(), in_.jobs, detail::findings_per_run,
            [&](std::ostream& out, std::size_t items_before, std::size_t begin, std::size_t end) {
                RdjsonReport part(*this, out, items_before);
                for (std::size_t i = begin; i < end; ++i) {
                    const lint::Finding& f = in_.findings[i];
                    auto rule = rules.find(f.rule_id);
                    part.diagnostic(f, rule == rules.end() ? nullptr : rule->second);
                }
                part.w_.flush();
            });
        w_.end_array();
        w_.end_object();
        w_.finish();
    }

private:
    void diagnostic(const lint::Finding& f, const lint::Rule* rule) {
        w_.begin_object();
        w_.member("message", detail::valid_utf8(f.message));
        w_.key("location");
        location(*f.file, f.range);
        w_.member("severity", rd_severity(f.severity));
        w_.key("code");
        w_.begin_object();
        w_.member("value", f.rule_id);
        if (const std::string uri = rule != nullptr ? lint::rule_help_uri(*rule, in_.links) : std::string();
            !uri.empty()) {
            w_.member("url", uri);
        }
        w_.end_object();
        // A suggestion has no path of its own: offered only when the whole
        // fix edits the finding's file.
        if (f.fix && !f.fix->edits.empty() &&
            std::all_of(f.fix->edits.begin(), f.fix->edits.end(), [&](const auto& e) { return e.file == f.file; })) {
            w_.key("suggestions");
            w_.begin_array();
            for (const auto& e : f.fix->edits) {
                w_.begin_object();
                w_.key("range");
                range(*e.file, e.range);
                w_.member("text", detail::valid_utf8(e.replacement));
                w_.end_object();
            }
            w_.end_array();
        }
        if (!f.related.empty()) {
            w_.key("related_locations");
            w_.begin_array();
            for (const auto& r : f.related) {
                w_.begin_object();
                w_.member("message", detail::valid_utf8(r.message));
                w_.key("location");
                location(*r.file, r.range);
                w_.end_object();
            }
            w_.end_array();
        }
        w_.end_object();
    }

    void location(const SourceFile& file, Range r) {
        w_.begin_object();
        w_.member("path", detail::valid_utf8(paths_.of(file)));
        w_.key("range");
        range(file, r);
        w_.end_object();
    }

    void range(const SourceFile& file, Range r) {
        const LineColumn start = position(file, r.start);
        LineColumn end = position(file, r.end);
        if (end.line < start.line || (end.line == start.line && end.column < start.column)) end = start;
        w_.begin_object();
        w_.key("start");
        line_column(start);
        w_.key("end");
        line_column(end);
        w_.end_object();
    }

    void line_column(LineColumn p) {
        w_.begin_object();
        w_.member("line", p.line);
        w_.member("column", p.column);
        w_.end_object();
    }

    const ReportInput& in_;
    detail::JsonWriter w_;
    detail::RelativePaths paths_;
};

}  // namespace

void write_rdjson(const ReportInput& in, std::ostream& out) { RdjsonReport(in, out).write(); }

}  // namespace tfsift::report
