// create-before-destroy-conflict: create_before_destroy propagates from a
// resource to everything it depends on, so a dependency cannot turn it off.
#include <fmt/format.h>

#include <map>
#include <set>

#include "support/loader_reports.hpp"
#include "support/reference_names.hpp"
#include "support/written_resources.hpp"
#include "tfsift/config/effective_document.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/registry.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "create-before-destroy-conflict";

// The objects of the module that dependencies pass through, by address:
// `aws_instance.web`, `data.aws_ami.app`, `local.name`, `module.net`.
using Graph = std::map<std::string, std::set<std::string>>;

std::optional<std::string> node_of(const config::Module& m, const ReferenceName& ref) {
    if (ref.size() < 2) return std::nullopt;
    const std::string& root = ref[0];
    if (root == "local") return m.locals.count(ref[1]) ? std::optional("local." + ref[1]) : std::nullopt;
    if (root == "module") return m.module_calls.count(ref[1]) ? std::optional("module." + ref[1]) : std::nullopt;
    if (root == "data") {
        if (ref.size() < 3) return std::nullopt;
        std::string key = ref[1] + "." + ref[2];
        return m.data.count(key) ? std::optional("data." + key) : std::nullopt;
    }
    std::string key = root + "." + ref[1];
    return m.resources.count(key) ? std::optional(key) : std::nullopt;
}

void add_edges(const config::Module& m, std::set<std::string>& to, const std::vector<ReferenceName>& refs) {
    for (const auto& ref : refs) {
        if (auto n = node_of(m, ref)) to.insert(*n);
    }
}

void add_expression(const config::Module& m, std::set<std::string>& to, const std::optional<config::Expression>& e) {
    if (e) add_edges(m, to, expression_references(*e));
}

std::set<std::string> resource_dependencies(const config::Module& m, const config::Resource& r) {
    std::set<std::string> to;
    add_edges(m, to, body_references(r.config));
    add_expression(m, to, r.count);
    add_expression(m, to, r.for_each);
    for (const auto& t : r.depends_on) add_edges(m, to, {traversal_reference(t)});
    for (const auto& p : r.provisioners) {
        if (p.when == "destroy") continue;  // may refer only to self
        add_edges(m, to, body_references(p.config));
        if (p.connection) add_edges(m, to, body_references(p.connection->config));
    }
    if (r.connection) add_edges(m, to, body_references(r.connection->config));
    for (const auto& e : r.lifecycle.replace_triggered_by) add_edges(m, to, expression_references(e));
    for (const auto* checks : {&r.lifecycle.preconditions, &r.lifecycle.postconditions}) {
        for (const auto& c : *checks) {
            add_expression(m, to, c.condition);
            add_expression(m, to, c.error_message);
        }
    }
    return to;
}

Graph dependency_graph(const config::Module& m) {
    Graph g;
    for (const auto& [key, r] : m.resources) g[key] = resource_dependencies(m, r);
    for (const auto& [key, r] : m.data) g["data." + key] = resource_dependencies(m, r);
    for (const auto& [name, l] : m.locals) {
        std::set<std::string> to;
        add_edges(m, to, expression_references(l.expr));
        g["local." + name] = std::move(to);
    }
    for (const auto& [name, call] : m.module_calls) {
        std::set<std::string> to;
        add_edges(m, to, body_references(call.config));
        add_expression(m, to, call.count);
        add_expression(m, to, call.for_each);
        for (const auto& t : call.depends_on) add_edges(m, to, {traversal_reference(t)});
        g["module." + name] = std::move(to);
    }
    return g;
}

std::optional<bool> create_before_destroy(const config::Resource& r) {
    const auto& cbd = r.lifecycle.create_before_destroy;
    if (!cbd || !cbd->origin || !cbd->value.is_boolean()) return std::nullopt;
    return cbd->value.get<bool>();
}

// Where `create_before_destroy` of a resource was written (the argument that
// won after override files).
std::optional<std::pair<const SourceFile*, Range>> setting_range(const LintContext& ctx, const config::Resource& r) {
    const auto& origin = *r.lifecycle.create_before_destroy->origin;
    for (const config::ModuleFile& mf : ctx.files()) {
        if (mf.parsed->source.get() != origin.file) continue;
        for (const auto& w : written::resource_blocks(*mf.parsed)) {
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
    const config::Module& m = ctx.module().module;
    const Graph graph = dependency_graph(m);
    // For each resource that turns create_before_destroy off, the resources
    // that turn it on and depend on it, directly or through other objects.
    std::map<std::string, std::vector<std::string>> conflicts;
    for (const auto& [key, r] : m.resources) {
        if (create_before_destroy(r) != true) continue;
        std::set<std::string> seen{key};
        std::vector<std::string> todo{key};
        while (!todo.empty()) {
            std::string n = todo.back();
            todo.pop_back();
            auto it = graph.find(n);
            if (it == graph.end()) continue;
            for (const auto& dep : it->second) {
                if (!seen.insert(dep).second) continue;
                todo.push_back(dep);
                auto res = m.resources.find(dep);
                if (res != m.resources.end() && create_before_destroy(res->second) == false) conflicts[dep].push_back(key);
            }
        }
    }
    for (const auto& [off_key, dependents] : conflicts) {
        const config::Resource& off = m.resources.at(off_key);
        auto where = setting_range(ctx, off);
        // A value the loader rejected (`= var.x`) reads as false, but was not written as false.
        if (!where || loader_reported_within(ctx, where->first, where->second)) continue;
        std::string names;
        for (const auto& d : dependents) names += (names.empty() ? "" : ", ") + d;
        Finding f{std::string(rule_id), Severity::error,
                  fmt::format("{}: create_before_destroy = false cannot hold, because {} {} on it with "
                              "create_before_destroy = true; Terraform propagates the setting to dependencies",
                              written::block_label(off.mode, off.type, off.name), names,
                              dependents.size() == 1 ? "depends" : "depend"),
                  ctx.shared_source(where->first), where->second, {}, std::nullopt};
        for (const auto& d : dependents) {
            const config::Resource& on = m.resources.at(d);
            if (auto w = setting_range(ctx, on)) {
                f.related.push_back({ctx.shared_source(w->first), w->second,
                                     fmt::format("{} sets create_before_destroy = true", d)});
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
    r.doc.failing_example =
        "resource \"aws_launch_template\" \"app\" {\n"
        "  lifecycle {\n"
        "    create_before_destroy = false\n"
        "  }\n"
        "}\n"
        "\n"
        "resource \"aws_autoscaling_group\" \"app\" {\n"
        "  launch_template {\n"
        "    id = aws_launch_template.app.id\n"
        "  }\n"
        "  lifecycle {\n"
        "    create_before_destroy = true\n"
        "  }\n"
        "}\n";
    r.doc.passing_example =
        "resource \"aws_launch_template\" \"app\" {\n"
        "  lifecycle {\n"
        "    create_before_destroy = true\n"
        "  }\n"
        "}\n"
        "\n"
        "resource \"aws_autoscaling_group\" \"app\" {\n"
        "  launch_template {\n"
        "    id = aws_launch_template.app.id\n"
        "  }\n"
        "  lifecycle {\n"
        "    create_before_destroy = true\n"
        "  }\n"
        "}\n";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
