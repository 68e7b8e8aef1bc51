// create-before-destroy-conflict: create_before_destroy propagates from a
// resource to everything it depends on, so a dependency cannot turn it off.
#include <fmt/format.h>

#include <map>

#include "support/dependency_graph.hpp"
#include "support/factories.hpp"
#include "support/loader_reports.hpp"
#include "support/written_resources.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "create-before-destroy-conflict";

// Where `create_before_destroy` of a resource was written (the argument that
// won after override files).
std::optional<std::pair<const SourceFile*, Range>> setting_range(const LintContext& ctx, const config::Resource& r) {
    const auto& origin = *r.lifecycle->create_before_destroy->origin;
    for (const config::ModuleFile& mf : ctx.files()) {
        if (mf.parsed->source.get() != origin.file) continue;
        const auto blocks = written::resource_blocks(*mf.parsed);
        for (const auto& w : *blocks) {
            for (const auto& lc : w.lifecycles) {
                const auto* a = lc.argument("create_before_destroy");
                if (a && a->expr && a->expr->range.start.byte == origin.pos.byte) {
                    return std::pair{origin.file, a->range};
                }
            }
        }
    }
    return std::nullopt;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::Module& m = *ctx.module().module;
    // A conflict needs a resource that turns the setting on and one that
    // turns it off; most modules have neither, and the graph is costly.
    bool any_on = false;
    bool any_off = false;
    for (const auto& [key, r] : m.resources) {
        const auto written = written_create_before_destroy(r);
        any_on = any_on || written == true;
        any_off = any_off || written == false;
    }
    if (!any_on || !any_off) return;
    const DependencyGraph graph = dependency_graph(m);
    // For each resource that turns create_before_destroy off, the resources
    // that turn it on and depend on it, directly or through other objects.
    std::map<std::string, std::vector<std::string>> conflicts;
    for (const auto& [key, r] : m.resources) {
        if (written_create_before_destroy(r) != true) continue;
        for (const auto& dep : dependencies_of(graph, key)) {
            auto res = m.resources.find(dep);
            if (res != m.resources.end() && written_create_before_destroy(res->second) == false)
                conflicts[dep].push_back(key);
        }
    }
    for (const auto& [off_key, dependents] : conflicts) {
        const config::Resource& off = m.resources.at(off_key);
        auto where = setting_range(ctx, off);
        // A value the loader rejected (`= var.x`) reads as false, but was not written as false.
        if (!where || loader_reported_within(ctx, where->first, where->second)) continue;
        std::string names;
        for (const auto& d : dependents) names += (names.empty() ? "" : ", ") + d;
        Finding f{std::string(rule_id),
                  Severity::error,
                  fmt::format("{}: create_before_destroy = false cannot hold, because {} {} on it with "
                              "create_before_destroy = true; Terraform propagates the setting to dependencies",
                              written::block_label(off.mode, off.type, off.name), names,
                              dependents.size() == 1 ? "depends" : "depend"),
                  ctx.shared_source(where->first),
                  where->second,
                  {},
                  std::nullopt};
        for (const auto& d : dependents) {
            const config::Resource& on = m.resources.at(d);
            if (auto w = setting_range(ctx, on)) {
                f.related.push_back(
                    {ctx.shared_source(w->first), w->second, fmt::format("{} sets create_before_destroy = true", d)});
            }
        }
        sink.report(std::move(f));
    }
}

}  // namespace

Rule create_before_destroy_conflict() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary =
        "A resource sets `create_before_destroy = false` although a resource that depends on it sets it to `true`.";
    r.doc.what =
        "Follows the dependencies inside the module (references in arguments, `count`, `for_each`, conditions, "
        "`replace_triggered_by`, provisioners and connections, and `depends_on`, through local values, data "
        "sources, module calls and other resources) from every resource whose effective lifecycle sets "
        "`create_before_destroy = true`. Reports each resource reached that explicitly sets "
        "`create_before_destroy = false`, at that setting, with the resources that depend on it as related "
        "locations.";
    r.doc.why =
        "Terraform applies `create_before_destroy` to everything a create-before-destroy resource depends on, "
        "and stores the propagated setting in the state. A dependency cannot opt out: replacing it destroy-first "
        "while its dependent is replaced create-first would be a cycle in the dependency graph. The explicit "
        "`false` does not do what it says.";
    r.doc.failing_example = R"hcl(resource "aws_launch_template" "app" {
  lifecycle {
    create_before_destroy = false
  }
}

resource "aws_autoscaling_group" "app" {
  launch_template {
    id = aws_launch_template.app.id
  }
  lifecycle {
    create_before_destroy = true
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_launch_template" "app" {
  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_autoscaling_group" "app" {
  launch_template {
    id = aws_launch_template.app.id
  }
  lifecycle {
    create_before_destroy = true
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
