// The JSON report; its schema is documented in docs/json-report.md.
#include <nlohmann/json.hpp>

#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

using json = nlohmann::ordered_json;  // keeps keys in the documented order

json position(const SourceFile& file, Pos pos) {
    auto r = file.resolve(pos);
    return {{"line", r.line}, {"column", r.column}, {"byte", r.byte}};
}

json location(const ReportInput& in, const SourceFile& file, Range range) {
    return {{"path", relative_path(file.path(), in.working_dir)},
            {"start", position(file, range.start)},
            {"end", position(file, range.end)}};
}

}  // namespace

void write_json(const ReportInput& in, std::ostream& out) {
    json findings = json::array();
    std::size_t counts[3] = {0, 0, 0};
    for (const lint::Finding& f : in.findings) {
        ++counts[static_cast<int>(f.severity)];
        json related = json::array();
        for (const auto& r : f.related) {
            related.push_back({{"message", r.message}, {"location", location(in, *r.file, r.range)}});
        }
        json fix = nullptr;
        if (f.fix) {
            json edits = json::array();
            for (const auto& e : f.fix->edits) {
                json loc = location(in, *e.file, e.range);
                loc["replacement"] = e.replacement;
                edits.push_back(std::move(loc));
            }
            fix = {{"description", f.fix->description},
                   {"applicability", lint::to_string(f.fix->applicability)},
                   {"edits", std::move(edits)}};
        }
        findings.push_back({{"rule", f.rule_id},
                            {"severity", to_string(f.severity)},
                            {"message", f.message},
                            {"location", location(in, *f.file, f.range)},
                            {"related", std::move(related)},
                            {"fix", std::move(fix)}});
    }
    json doc = {
        {"schema_version", json_schema_version},
        {"tool", {{"name", "tfsift"}, {"version", TFSIFT_VERSION}}},
        {"summary",
         {{"files", in.files_scanned},
          {"findings", in.findings.size()},
          {"errors", counts[0]},
          {"warnings", counts[1]},
          {"notices", counts[2]}}},
        {"exit_code", in.exit_code},
        {"findings", std::move(findings)},
    };
    out << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace tfsift::report
