// checkstyle XML and JUnit XML: the two formats CI systems take as test
// results.
#include <fmt/format.h>

#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

using detail::xml_escape;

std::string_view checkstyle_severity(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::notice: return "info";
    }
    return "warning";
}

// A displayed path and its findings.
using FileGroup = std::pair<std::string, std::vector<const lint::Finding*>>;

// Findings grouped by displayed path, paths in first-seen (sorted) order.
std::vector<FileGroup> by_file(const ReportInput& in) {
    std::vector<FileGroup> groups;
    std::map<std::string, std::size_t> index;
    detail::RelativePaths paths(in.working_dir);
    for (const auto& f : in.findings) {
        const std::string& path = paths.of(*f.file);
        auto [it, added] = index.emplace(path, groups.size());
        if (added) groups.emplace_back(path, std::vector<const lint::Finding*>{});
        groups[it->second].second.push_back(&f);
    }
    return groups;
}

// How many files' groups one run holds: a group holds all of a file's
// findings, so a run of them weighs about as much as a run of findings
// (detail::findings_per_run) does in the other reports.
constexpr std::size_t groups_per_run = 32;

// Writes each group's text, `render(group, text)`, put together by the
// lint's jobs in runs of groups and written in order.
void write_groups(const ReportInput& in, const std::vector<FileGroup>& groups, std::ostream& out,
                  const std::function<void(const FileGroup& group, std::string& text)>& render) {
    detail::render_in_runs(
        groups.size(), in.jobs, groups_per_run,
        [&](std::size_t begin, std::size_t end, std::string& text) {
            for (std::size_t i = begin; i < end; ++i) render(groups[i], text);
        },
        out);
}

}  // namespace

void write_checkstyle(const ReportInput& in, std::ostream& out) {
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
    write_groups(in, by_file(in), out, [](const FileGroup& group, std::string& text) {
        const auto& [path, findings] = group;
        fmt::format_to(std::back_inserter(text), "  <file name=\"{}\">\n", xml_escape(path));
        for (const lint::Finding* f : findings) {
            auto pos = f->file->resolve(f->range.start);
            fmt::format_to(
                std::back_inserter(text),
                "    <error line=\"{}\" column=\"{}\" severity=\"{}\" message=\"{}\" source=\"tfsift.{}\"/>\n",
                pos.line, pos.column, checkstyle_severity(f->severity), xml_escape(f->message), xml_escape(f->rule_id));
        }
        text += "  </file>\n";
    });
    out << "</checkstyle>\n";
}

void write_junit(const ReportInput& in, std::ostream& out) {
    auto groups = by_file(in);
    std::size_t failures = in.findings.size();
    // A run without findings is one passing test case, so that CI shows a green test rather than none.
    std::size_t tests = failures == 0 ? 1 : failures;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << fmt::format("<testsuites name=\"tfsift\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", tests, failures);
    if (groups.empty()) {
        out << fmt::format(
            "  <testsuite name=\"tfsift\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
            "    <testcase name=\"lint\" classname=\"tfsift\"/>\n  </testsuite>\n");
    }
    write_groups(in, groups, out, [](const FileGroup& group, std::string& text) {
        const auto& [path, findings] = group;
        auto to = std::back_inserter(text);
        fmt::format_to(to, "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", xml_escape(path),
                       findings.size(), findings.size());
        for (const lint::Finding* f : findings) {
            auto pos = f->file->resolve(f->range.start);
            std::string where = fmt::format("{}:{}:{}", path, pos.line, pos.column);
            fmt::format_to(to, "    <testcase name=\"{}\" classname=\"{}\">\n", xml_escape(f->rule_id + " at " + where),
                           xml_escape(path));
            fmt::format_to(to, "      <failure message=\"{}\" type=\"{}\">{}: {}[{}] {}</failure>\n",
                           xml_escape(f->message), to_string(f->severity), xml_escape(where), to_string(f->severity),
                           xml_escape(f->rule_id), xml_escape(f->message));
            text += "    </testcase>\n";
        }
        text += "  </testsuite>\n";
    });
    out << "</testsuites>\n";
}

}  // namespace tfsift::report
