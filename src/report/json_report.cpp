// The JSON report; its schema is documented in docs/json-report.md. Written
// as it is produced (report/json_writer.hpp), in the bytes nlohmann::json
// would print.
#include <array>
#include <ostream>

#include "report/json_writer.hpp"
#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

class JsonReport {
public:
    JsonReport(const ReportInput& in, std::ostream& out) : in_(in), w_(out), paths_(in.working_dir) {}

    // Continues `whole`'s document at its findings, `items_before` of them
    // written: a run of findings put together on a thread of its own.
    JsonReport(const JsonReport& whole, std::ostream& out, std::size_t items_before)
        : in_(whole.in_), w_(out, whole.w_.depth(), items_before), paths_(whole.in_.working_dir) {}

    void write() {
        std::array<std::size_t, 3> counts{};
        for (const lint::Finding& f : in_.findings) ++counts.at(static_cast<std::size_t>(f.severity));
        w_.begin_object();
        w_.member("schema_version", json_schema_version);
        w_.key("tool");
        w_.begin_object();
        w_.member("name", "tfsift");
        w_.member("version", TFSIFT_VERSION);
        w_.end_object();
        w_.key("summary");
        w_.begin_object();
        w_.member("files", in_.files_scanned);
        w_.member("findings", in_.findings.size());
        w_.member("errors", counts[0]);
        w_.member("warnings", counts[1]);
        w_.member("notices", counts[2]);
        w_.end_object();
        w_.member("exit_code", in_.exit_code);
        w_.key("findings");
        w_.begin_array();
        // In runs of neighbouring findings, put together by the lint's jobs.
        detail::write_items_in_runs(
            w_, in_.findings.size(), in_.jobs, detail::findings_per_run,
            [&](std::ostream& out, std::size_t items_before, std::size_t begin, std::size_t end) {
                JsonReport part(*this, out, items_before);
                for (std::size_t i = begin; i < end; ++i) part.finding(in_.findings[i]);
                part.w_.flush();
            });
        w_.end_array();
        w_.end_object();
        w_.finish();
    }

private:
    void finding(const lint::Finding& f) {
        w_.begin_object();
        w_.member("rule", f.rule_id);
        w_.member("severity", to_string(f.severity));
        w_.member("message", f.message);
        w_.key("location");
        location(*f.file, f.range, nullptr);
        w_.key("related");
        w_.begin_array();
        for (const auto& r : f.related) {
            w_.begin_object();
            w_.member("message", r.message);
            w_.key("location");
            location(*r.file, r.range, nullptr);
            w_.end_object();
        }
        w_.end_array();
        w_.key("fix");
        if (f.fix) {
            w_.begin_object();
            w_.member("description", f.fix->description);
            w_.member("applicability", lint::to_string(f.fix->applicability));
            w_.key("edits");
            w_.begin_array();
            for (const auto& e : f.fix->edits) location(*e.file, e.range, &e.replacement);
            w_.end_array();
            w_.end_object();
        } else {
            w_.null();
        }
        w_.end_object();
    }

    // {"path", "start", "end"} and, for an edit, its "replacement".
    void location(const SourceFile& file, Range range, const std::string* replacement) {
        w_.begin_object();
        w_.member("path", paths_.of(file));
        w_.key("start");
        position(file, range.start);
        w_.key("end");
        position(file, range.end);
        if (replacement != nullptr) w_.member("replacement", *replacement);
        w_.end_object();
    }

    void position(const SourceFile& file, Pos pos) {
        const auto r = file.resolve(pos);
        w_.begin_object();
        w_.member("line", r.line);
        w_.member("column", r.column);
        w_.member("byte", r.byte);
        w_.end_object();
    }

    const ReportInput& in_;
    detail::JsonWriter w_;
    detail::RelativePaths paths_;
};

}  // namespace

void write_json(const ReportInput& in, std::ostream& out) { JsonReport(in, out).write(); }

void write_rules_json(const std::vector<lint::Rule>& rules, std::ostream& out) {
    detail::JsonWriter w(out);
    w.begin_object();
    w.member("schema_version", json_schema_version);
    w.key("rules");
    w.begin_array();
    for (const lint::Rule& r : rules) {
        w.begin_object();
        w.member("id", detail::valid_utf8(r.id));
        w.member("severity", to_string(r.default_severity));
        w.key("enabled_by_default");
        w.boolean(r.enabled_by_default);
        w.key("fixable");
        w.boolean(r.fixable);
        w.member("category", lint::to_string(r.category));
        w.key("policy");
        w.boolean(r.is_policy);
        w.member("summary", detail::valid_utf8(r.doc.summary));
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.finish();
}

}  // namespace tfsift::report
