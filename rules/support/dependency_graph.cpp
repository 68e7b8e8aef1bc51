#include "dependency_graph.hpp"

#include <vector>

#include "reference_names.hpp"

namespace tfsift::lint {
namespace {

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
    for (const auto& e : r.lifecycle->replace_triggered_by) add_edges(m, to, expression_references(e));
    for (const auto* checks : {&r.lifecycle->preconditions, &r.lifecycle->postconditions}) {
        for (const auto& c : *checks) {
            add_expression(m, to, c.condition);
            add_expression(m, to, c.error_message);
        }
    }
    return to;
}

}  // namespace

DependencyGraph dependency_graph(const config::Module& m) {
    DependencyGraph g;
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

std::set<std::string> dependencies_of(const DependencyGraph& graph, const std::string& from) {
    std::set<std::string> seen;
    std::vector<std::string> todo{from};
    while (!todo.empty()) {
        std::string n = todo.back();
        todo.pop_back();
        auto it = graph.find(n);
        if (it == graph.end()) continue;
        for (const auto& dep : it->second) {
            if (dep != from && seen.insert(dep).second) todo.push_back(dep);
        }
    }
    return seen;
}

std::optional<bool> written_create_before_destroy(const config::Resource& r) {
    const auto& cbd = r.lifecycle->create_before_destroy;
    if (!cbd || !cbd->origin || !cbd->value.is_boolean()) return std::nullopt;
    return cbd->value.get<bool>();
}

}  // namespace tfsift::lint
