// create-before-destroy-provisioner: destroy-time provisioners do not run
// for a resource that is created before it is destroyed.
#include <fmt/format.h>

#include "support/written_resources.hpp"
#include "tfsift/config/effective_document.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/registry.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "create-before-destroy-provisioner";

// Where a provisioner of the effective resource was written: its `when`
// argument, else its header.
std::optional<Range> provisioner_range(const LintContext& ctx, const config::Provisioner& p) {
    for (const config::ModuleFile& mf : ctx.files()) {
        if (mf.parsed->source.get() != p.origin.file) continue;
        for (const auto& r : written::resource_blocks(*mf.parsed)) {
            for (const auto& wp : r.provisioners) {
                if (wp.origin.byte == p.origin.pos.byte && wp.type == p.type) return wp.when.value_or(wp.def_range);
            }
        }
    }
    return std::nullopt;
}

void check(const LintContext& ctx, FindingSink& sink) {
    for (const auto& [key, r] : ctx.module().module.resources) {
        const auto& cbd = r.lifecycle.create_before_destroy;
        if (!cbd || !cbd->value.is_boolean() || !cbd->value.get<bool>()) continue;
        for (const config::Provisioner& p : r.provisioners) {
            if (p.when != "destroy" || !p.origin.file) continue;
            auto range = provisioner_range(ctx, p);
            if (!range) continue;
            Finding f{std::string(rule_id), Severity::warning,
                      fmt::format("{}: the destroy-time provisioner \"{}\" will not run, because the resource sets "
                                  "create_before_destroy = true",
                                  written::block_label(r.mode, r.type, r.name), p.type),
                      ctx.shared_source(p.origin.file), *range, {}, std::nullopt};
            if (cbd->origin && cbd->origin->file) {
                f.related.push_back({ctx.shared_source(cbd->origin->file), Range{cbd->origin->pos, cbd->origin->pos},
                                     "create_before_destroy is set here"});
            }
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule create_before_destroy_provisioner() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A resource with `create_before_destroy = true` has a destroy-time provisioner, which will not run.";
    r.doc.what =
        "Reports each `provisioner` block with `when = destroy` in a resource whose effective lifecycle (after "
        "override files) sets `create_before_destroy = true`.";
    r.doc.why =
        "When a resource is replaced create-before-destroy, Terraform does not run the destroy-time provisioners "
        "of the object it destroys. The clean-up the provisioner was written for (deregistering a node, "
        "draining a service) silently never happens.";
    r.doc.failing_example =
        "resource \"aws_instance\" \"node\" {\n"
        "  lifecycle {\n"
        "    create_before_destroy = true\n"
        "  }\n"
        "  provisioner \"local-exec\" {\n"
        "    when    = destroy\n"
        "    command = \"deregister ${self.id}\"\n"
        "  }\n"
        "}\n";
    r.doc.passing_example =
        "resource \"aws_instance\" \"node\" {\n"
        "  provisioner \"local-exec\" {\n"
        "    when    = destroy\n"
        "    command = \"deregister ${self.id}\"\n"
        "  }\n"
        "}\n";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
