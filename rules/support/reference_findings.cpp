#include "reference_findings.hpp"

#include "loader_reports.hpp"

namespace tfsift::lint {

void report_reference_problems(const LintContext& ctx, FindingSink& sink, std::string_view rule_id,
                               ReferenceProblemKind kind) {
    for (ReferenceProblem& p : reference_problems(ctx)) {
        if (p.kind != kind) continue;
        if (loader_reported_within(ctx, p.file, Range{p.range.start, Pos{p.range.end.byte + 1}})) continue;
        Finding f;
        f.rule_id = std::string(rule_id);
        f.severity = p.severity;
        f.message = p.detail.empty() ? std::move(p.summary) : p.summary + ": " + p.detail;
        f.file = ctx.shared_source(p.file);
        f.range = p.range;
        if (f.file) sink.report(std::move(f));
    }
}

}  // namespace tfsift::lint
