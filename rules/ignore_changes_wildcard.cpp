// ignore-changes-wildcard: "ignore everything" is written `ignore_changes =
// all`; the old wildcard and quoted forms are rejected or deprecated.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/loader_reports.hpp"
#include "support/written_resources.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "ignore-changes-wildcard";

// `ignore_changes = [all]`: the keyword inside a list names an attribute
// called "all", which no resource type has.
void check(const LintContext& ctx, FindingSink& sink) {
    for (const config::ModuleFile& mf : ctx.files()) {
        const SourceFile* file = mf.parsed->source.get();
        const auto blocks = written::resource_blocks(*mf.parsed);
        for (const auto& r : *blocks) {
            if (r.mode != config::ResourceMode::managed) continue;
            for (const auto& lc : r.lifecycles) {
                const auto* m = lc.argument("ignore_changes");
                if (!m || !m->expr || !m->expr->native || m->expr->native->kind != hcl::ExprKind::tuple) continue;
                for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(*m->expr->native).items) {
                    if (item->kind != hcl::ExprKind::scope_traversal) continue;
                    const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*item);
                    if (t.root != "all" || !t.steps.empty()) continue;
                    if (loader_reported_within(ctx, file, item->range)) continue;
                    sink.report(Finding{std::string(rule_id),
                                        Severity::error,
                                        fmt::format("{}: `[all]` ignores an attribute named \"all\"; write "
                                                    "`ignore_changes = all` (no brackets) to ignore every attribute",
                                                    written::block_label(r.mode, r.type, r.name)),
                                        ctx.shared_source(file),
                                        item->range,
                                        {},
                                        std::nullopt});
                }
            }
        }
    }
}

}  // namespace

Rule ignore_changes_wildcard() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "`ignore_changes` uses the old `[\"*\"]` wildcard, a quoted keyword or quoted attribute names.";
    r.doc.what =
        "To ignore every attribute, `ignore_changes` takes the bare keyword `all`. Reported as errors: the "
        "Terraform 0.11 wildcard `[\"*\"]` (alone, or mixed with attribute names), the keyword written as a string "
        "(`ignore_changes = \"all\"`), and the keyword inside a list (`[all]`, which names an attribute called "
        "\"all\"). Reported as warnings: attribute names written in quotes (`[\"tags\"]`), a deprecated form "
        "Terraform still reads.";
    r.doc.why =
        "Terraform refuses to load the `[\"*\"]` wildcard (deprecated, now an error) and the keyword in quotes "
        "(anything but the bare keyword must be a list). `[all]` loads, but as an attribute named `all`: "
        "`terraform validate` rejects it when the resource type has no such attribute, and otherwise only that "
        "one attribute is ignored. In no case is the drift the author meant to tolerate ignored.";
    r.doc.failing_example = R"hcl(resource "aws_autoscaling_group" "workers" {
  lifecycle {
    ignore_changes = ["*"]
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_autoscaling_group" "workers" {
  lifecycle {
    ignore_changes = all
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    r.claimed_codes = {
        code::invalid_ignore_changes_wildcard,
        code::invalid_ignore_changes_ruleset,
        code::ignore_changes_quoted_reference,
        code::ignore_changes_quoted_wildcard,
    };
    return r;
}

}  // namespace tfsift::lint::rules
