// reviewdog's Diagnostic Format as one JSON document (rdjson): a
// DiagnosticResult whose diagnostics carry message, location (path and a
// range of 1-based lines and UTF-8 byte columns, end exclusive), severity,
// rule code, suggested fixes and related locations.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

using json = nlohmann::ordered_json;

std::string_view rd_severity(Severity s) {
    switch (s) {
        case Severity::error: return "ERROR";
        case Severity::warning: return "WARNING";
        case Severity::notice: return "INFO";
    }
    return "UNKNOWN_SEVERITY";
}

// rdjson columns count UTF-8 bytes from 1.
json position(const SourceFile& file, Pos pos) {
    const std::uint32_t line = file.line(pos);
    const std::string_view text = file.text();
    const std::string_view line_text = file.line_text(line);
    std::uint32_t column = 1;
    if (line_text.data() != nullptr) {
        const auto line_start = static_cast<std::uint32_t>(line_text.data() - text.data());
        const std::uint32_t byte = std::min<std::uint32_t>(pos.byte, static_cast<std::uint32_t>(text.size()));
        column = byte >= line_start ? byte - line_start + 1 : 1;
    }
    return {{"line", line}, {"column", column}};
}

json range(const SourceFile& file, Range r) {
    json start = position(file, r.start);
    json end = position(file, r.end);
    if (end["line"] < start["line"] || (end["line"] == start["line"] && end["column"] < start["column"])) end = start;
    return {{"start", std::move(start)}, {"end", std::move(end)}};
}

json location(const ReportInput& in, const SourceFile& file, Range r) {
    return {{"path", detail::valid_utf8(relative_path(file.path(), in.working_dir))}, {"range", range(file, r)}};
}

}  // namespace

void write_rdjson(const ReportInput& in, std::ostream& out) {
    std::map<std::string_view, const lint::Rule*> rules;
    for (const auto& r : in.rules) rules.emplace(r.id, &r);
    json diagnostics = json::array();
    for (const lint::Finding& f : in.findings) {
        json d = {{"message", detail::valid_utf8(f.message)},
                  {"location", location(in, *f.file, f.range)},
                  {"severity", rd_severity(f.severity)}};
        json code = {{"value", f.rule_id}};
        if (auto rule = rules.find(f.rule_id); rule != rules.end()) code["url"] = lint::rule_help_uri(*rule->second);
        d["code"] = std::move(code);
        // A suggestion has no path of its own: offered only when the whole
        // fix edits the finding's file.
        if (f.fix && !f.fix->edits.empty() &&
            std::all_of(f.fix->edits.begin(), f.fix->edits.end(), [&](const auto& e) { return e.file == f.file; })) {
            json suggestions = json::array();
            for (const auto& e : f.fix->edits) {
                suggestions.push_back(
                    {{"range", range(*e.file, e.range)}, {"text", detail::valid_utf8(e.replacement)}});
            }
            d["suggestions"] = std::move(suggestions);
        }
        if (!f.related.empty()) {
            json related = json::array();
            for (const auto& r : f.related) {
                related.push_back(
                    {{"message", detail::valid_utf8(r.message)}, {"location", location(in, *r.file, r.range)}});
            }
            d["related_locations"] = std::move(related);
        }
        diagnostics.push_back(std::move(d));
    }
    json doc = {{"source", {{"name", "tfsift"}, {"url", lint::project_url}}}, {"diagnostics", std::move(diagnostics)}};
    out << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace tfsift::report
