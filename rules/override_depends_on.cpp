// override-depends-on: `depends_on` in an overriding resource, data, output
// or module block.
//
// Terraform's loader rejects a non-empty `depends_on` in an override block
// that has a base ("Unsupported override", claimed below). It says nothing
// about an empty list, nor about an override block that has no base (that
// one is reported as a missing base only); the check reports those.
#include <algorithm>
#include <string_view>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/override_support.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    // Only override files are checked: without one, there is nothing to read.
    if (std::none_of(ctx.files().begin(), ctx.files().end(),
                     [](const config::ModuleFile& f) { return f.is_override; })) {
        return;
    }
    std::vector<DeclaredBlock> primaries;
    for (const auto& f : ctx.files()) {
        if (f.is_override) continue;
        for (auto& b : declared_blocks(*f.decoded)) primaries.push_back(std::move(b));
    }
    for (const auto& f : ctx.files()) {
        if (!f.is_override) continue;
        std::vector<DeclaredBlock> decoded = declared_blocks(*f.decoded);
        for (const WrittenBlock& w : written_blocks(f, {"resource", "data", "output", "module"})) {
            const WrittenArgument* dep = w.find_argument("depends_on");
            if (!dep) continue;
            DeclaredBlock header{w.type, w.labels, std::nullopt, w.def_range, 0, {}};
            const DeclaredBlock* base = nullptr;
            for (const auto& p : primaries) {
                if (p.same_header(header)) {
                    base = &p;
                    break;
                }
            }
            // The loader reports the references of a block it merges.
            bool loader_reports = false;
            for (const auto& d : decoded) {
                if (d.same_header(header) && d.def_range == w.def_range && d.depends_on > 0 && base) {
                    loader_reports = true;
                }
            }
            if (loader_reports) continue;
            Finding finding;
            finding.rule_id = "override-depends-on";
            finding.severity = Severity::error;
            finding.message = fmt::format(
                "{}: depends_on may not be written in an override block{}; declare dependencies in the primary block",
                block_header(w.type, w.labels),
                base ? " (Terraform silently ignores an empty list, which does not clear the base's dependencies)"
                     : "");
            finding.file = f.parsed->source;
            finding.range = dep->name_range;
            if (base) {
                finding.related.push_back(
                    {ctx.shared_source(base->origin.file), base->def_range, "the block this override changes"});
            }
            sink.report(std::move(finding));
        }
    }
}

}  // namespace

Rule override_depends_on() {
    Rule r;
    r.id = "override-depends-on";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "An override file's resource, data, output or module block sets depends_on.";
    r.doc.what =
        "The `depends_on` meta-argument may not appear in a `resource`, `data`, `output` or `module` block of an "
        "override file (`override.tf`, `*_override.tf`, and their JSON forms). Terraform rejects a non-empty "
        "list when it merges the block; the rule also reports an empty list, which Terraform drops without a "
        "word, and `depends_on` in an override block that has no base.";
    r.doc.why =
        "Dependencies decide the order of operations, and a reader of the primary file must be able to see "
        "them. Terraform refuses to load a module whose override file changes them; an empty list in an "
        "override looks like it clears the base's dependencies but does nothing.";
    r.doc.failing_example = R"hcl(# override.tf
resource "aws_instance" "web" {
  depends_on = [aws_iam_role_policy.web]
}
)hcl";
    r.doc.passing_example = R"hcl(# main.tf
resource "aws_instance" "web" {
  ami        = "ami-408c7f28"
  depends_on = [aws_iam_role_policy.web]
}
)hcl";
    r.doc.fix_safety = "Not fixable: move the dependency into the primary block by hand.";
    r.check = check;
    r.claimed_codes = {code::depends_on_override};
    return r;
}

}  // namespace tfsift::lint::rules
