// create-before-destroy-provisioner: destroy-time provisioners do not run
// for a resource that is created before it is destroyed.
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "support/dependency_graph.hpp"
#include "support/factories.hpp"
#include "support/written_resources.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "create-before-destroy-provisioner";

// Where a provisioner of the effective resource was written: its `when`
// argument, else its header.
std::optional<Range> provisioner_range(const LintContext& ctx, const config::Provisioner& p) {
    for (const config::ModuleFile& mf : ctx.files()) {
        if (mf.parsed->source.get() != p.origin.file) continue;
        const auto blocks = written::resource_blocks(*mf.parsed);
        for (const auto& r : *blocks) {
            for (const auto& wp : r.provisioners) {
                if (wp.origin.byte == p.origin.pos.byte && wp.type == p.type) return wp.when.value_or(wp.def_range);
            }
        }
    }
    return std::nullopt;
}

// The resources replaced create-before-destroy: those that set it, and
// everything they depend on (Terraform propagates the setting), each with
// the resources that force it on them.
std::map<std::string, std::vector<std::string>> create_before_destroy_resources(const config::Module& m) {
    std::map<std::string, std::vector<std::string>> out;
    const DependencyGraph graph = dependency_graph(m);
    for (const auto& [key, r] : m.resources) {
        if (written_create_before_destroy(r) != true) continue;
        out[key];
        for (const auto& dep : dependencies_of(graph, key)) {
            if (m.resources.count(dep) && written_create_before_destroy(m.resources.at(dep)) != true)
                out[dep].push_back(key);
        }
    }
    return out;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::Module& m = *ctx.module().module;
    bool any_destroy_provisioner = false;
    for (const auto& [key, r] : m.resources) {
        for (const auto& p : r.provisioners) any_destroy_provisioner = any_destroy_provisioner || p.when == "destroy";
    }
    if (!any_destroy_provisioner) return;
    for (const auto& [key, forced_by] : create_before_destroy_resources(m)) {
        const config::Resource& r = m.resources.at(key);
        for (const config::Provisioner& p : r.provisioners) {
            if (p.when != "destroy" || !p.origin.file) continue;
            auto range = provisioner_range(ctx, p);
            if (!range) continue;
            std::string reason = "the resource sets create_before_destroy = true";
            if (!forced_by.empty()) {
                std::string names;
                for (const auto& d : forced_by) names += (names.empty() ? "" : ", ") + d;
                reason = fmt::format(
                    "{} {} on the resource with create_before_destroy = true, which Terraform "
                    "propagates to it",
                    names, forced_by.size() == 1 ? "depends" : "depend");
            }
            Finding f{std::string(rule_id),
                      Severity::warning,
                      fmt::format("{}: the destroy-time provisioner \"{}\" will not run, because {}",
                                  written::block_label(r.mode, r.type, r.name), p.type, reason),
                      ctx.shared_source(p.origin.file),
                      *range,
                      {},
                      std::nullopt};
            const auto& cbd = r.lifecycle->create_before_destroy;
            if (forced_by.empty() && cbd && cbd->origin && cbd->origin->file) {
                f.related.push_back({ctx.shared_source(cbd->origin->file), Range{cbd->origin->pos, cbd->origin->pos},
                                     "create_before_destroy is set here"});
            }
            for (const auto& d : forced_by) {
                const config::Resource& on = m.resources.at(d);
                f.related.push_back({ctx.shared_source(on.origin.file), Range{on.origin.pos, on.origin.pos},
                                     fmt::format("{} sets create_before_destroy = true", d)});
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
    r.doc.summary =
        "A resource with `create_before_destroy = true` has a destroy-time provisioner, which will not run.";
    r.doc.what =
        "Reports each `provisioner` block with `when = destroy` in a resource that is replaced "
        "create-before-destroy: one whose effective lifecycle (after override files) sets "
        "`create_before_destroy = true`, or one that such a resource depends on (by reference or `depends_on`, "
        "directly or through local values, data sources, module calls and other resources), since Terraform "
        "propagates the setting to dependencies.";
    r.doc.why =
        "When a resource is replaced create-before-destroy, Terraform does not run the destroy-time provisioners "
        "of the object it destroys. The clean-up the provisioner was written for (deregistering a node, "
        "draining a service) silently never happens.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "node" {
  lifecycle {
    create_before_destroy = true
  }
  provisioner "local-exec" {
    when    = destroy
    command = "deregister ${self.id}"
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "node" {
  provisioner "local-exec" {
    when    = destroy
    command = "deregister ${self.id}"
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
