#include "loader_reports.hpp"

#include "tfsift/lint/engine_gate.hpp"

namespace tfsift::lint {

bool loader_reported_within(const LintContext& ctx, const SourceFile* file, Range range, Severity at_least) {
    for (const config::LoadDiagnostic& d : ctx.tree->diagnostics) {
        if (d.source.get() != file || !d.diagnostic.subject) continue;
        if (d.diagnostic.severity > at_least) continue;                             // error < warning < notice
        if (dropped_by_release(*ctx.tree, d, ctx.engine, *ctx.settings)) continue;  // never reported
        const Pos p = d.diagnostic.subject->start;
        if (range.start.byte <= p.byte && p.byte < range.end.byte) return true;
    }
    return false;
}

}  // namespace tfsift::lint
