// GitLab's Code Quality report: a JSON array of issues in the subset of the
// Code Climate format GitLab reads (description, check_name, fingerprint,
// severity, location.path, location.lines.begin), shown in merge requests.
// Written as it is produced (report/json_writer.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <vector>

#include "report/json_writer.hpp"
#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

// GitLab's severities are info, minor, major, critical and blocker.
std::string_view gitlab_severity(Severity s) {
    switch (s) {
        case Severity::error: return "critical";
        case Severity::warning: return "major";
        case Severity::notice: return "minor";
    }
    return "major";
}

// Code Climate's categories for a rule's category.
std::string_view code_climate_category(lint::RuleCategory c) {
    switch (c) {
        case lint::RuleCategory::correctness: return "Bug Risk";
        case lint::RuleCategory::supply_chain: return "Security";
        case lint::RuleCategory::maintainability: return "Compatibility";
        case lint::RuleCategory::style: return "Style";
        case lint::RuleCategory::policy: return "Bug Risk";
    }
    return "Bug Risk";
}

std::uint64_t fnv1a(std::uint64_t h, std::string_view s) {
    for (char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return h;
}

// A finding's fingerprint key: the rule, the file and the trimmed text of
// its line (not its number, so that an issue survives lines moving above it).
std::uint64_t line_key(const lint::Finding& f, detail::RelativePaths& paths, detail::SnippetGuard& guard) {
    const SourceFile& file = *f.file;
    const std::string& path = paths.of(file);
    std::string_view text = guard.may_quote(file) ? file.line_text(file.line(f.range.start)) : std::string_view();
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    std::uint64_t h = 1469598103934665603ULL;
    for (std::string_view part : {std::string_view(f.rule_id), std::string_view(path), text}) {
        h = fnv1a(h, part);
        h = fnv1a(h, std::string_view("\0", 1));
    }
    return h;
}

// One issue, `n` its repeat of `h` among the issues before it.
void issue(detail::JsonWriter& w, const ReportInput& in, const std::map<std::string_view, const lint::Rule*>& rules,
           detail::RelativePaths& paths, const lint::Finding& f, std::uint64_t h, int n) {
    const SourceFile& file = *f.file;
    const std::string& path = paths.of(file);
    const std::uint32_t line = file.line(f.range.start);
    const std::uint64_t unique = fnv1a(h, std::to_string(n));
    auto rule = rules.find(f.rule_id);
    const lint::RuleCategory category = rule == rules.end() ? lint::RuleCategory::correctness : rule->second->category;
    std::string description = detail::valid_utf8(f.message);
    for (const auto& r : f.related) {
        description += fmt::format(" ({}:{}: {})", detail::valid_utf8(paths.of(*r.file)), r.file->line(r.range.start),
                                   detail::valid_utf8(r.message));
    }
    w.begin_object();
    w.member("type", "issue");
    w.member("check_name", f.rule_id);
    w.member("description", description);
    w.key("categories");
    w.begin_array();
    w.string(code_climate_category(category));
    w.end_array();
    w.member("severity", gitlab_severity(f.severity));
    w.member("fingerprint", fmt::format("{:016x}{:016x}", h, unique));
    w.key("location");
    w.begin_object();
    w.member("path", detail::valid_utf8(path));
    w.key("lines");
    w.begin_object();
    w.member("begin", line);
    w.member("end", std::max(file.line(f.range.end), line));
    w.end_object();
    w.end_object();
    if (rule != rules.end()) {
        w.key("content");
        w.begin_object();
        // Where the rule is explained: its page when a home page is set,
        // else the command that prints the same documentation.
        const std::string uri = lint::rule_help_uri(*rule->second, in.links);
        w.member("body", detail::valid_utf8(rule->second->doc.summary) + " " +
                             (uri.empty() ? fmt::format("`tfsift rule {}` explains it.", f.rule_id) : uri));
        w.end_object();
    }
    w.end_object();
}

}  // namespace

void write_gitlab(const ReportInput& in, std::ostream& out) {
    std::map<std::string_view, const lint::Rule*> rules;
    for (const auto& r : in.rules) rules.emplace(r.id, &r);
    const lint::Findings& all = in.findings;
    constexpr std::size_t run_size = detail::findings_per_run;
    // GitLab keys issues by fingerprint across pipelines: the line's key,
    // and which repeat of it the issue is. The keys by runs, put together by
    // the lint's jobs; their repeats in order; then the issues by runs.
    std::vector<std::uint64_t> keys(all.size());
    std::vector<int> repeat(all.size());
    detail::for_each_run(all.size(), in.jobs, run_size, [&](std::size_t begin, std::size_t end) {
        detail::SnippetGuard guard(in.trusted_roots);
        detail::RelativePaths paths(in.repository_root);
        for (std::size_t i = begin; i < end; ++i) keys[i] = line_key(all[i], paths, guard);
    });
    std::map<std::uint64_t, int> repeats;
    for (std::size_t i = 0; i < all.size(); ++i) repeat[i] = ++repeats[keys[i]];
    detail::JsonWriter w(out);
    w.begin_array();
    detail::write_items_in_runs(
        w, all.size(), in.jobs, run_size,
        [&](std::ostream& part_out, std::size_t items_before, std::size_t begin, std::size_t end) {
            detail::JsonWriter part(part_out, w.depth(), items_before);
            detail::RelativePaths paths(in.repository_root);
            for (std::size_t i = begin; i < end; ++i) issue(part, in, rules, paths, all[i], keys[i], repeat[i]);
            part.flush();
        });
    w.end_array();
    w.finish();
}

}  // namespace tfsift::report
