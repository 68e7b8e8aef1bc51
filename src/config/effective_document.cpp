#include "tfsift/config/effective_document.hpp"

#include <algorithm>
#include <tuple>

namespace tfsift::config {

using nlohmann::json;

namespace {

json expr_json(const Expression& e) { return json{{"expr", e.text()}, {"origin", e.origin().to_string()}}; }

json value_json(const DecodedValue& v) {
    json out{{"value", v.value}};
    if (v.origin) out["origin"] = v.origin->to_string();
    return out;
}

json origins_json(const std::vector<Origin>& origins) {
    json out = json::array();
    for (const auto& o : origins) out.push_back(o.to_string());
    return out;
}

json body_json(const Body& body);

json block_json(const NestedBlock& b) {
    json out = body_json(b.body);
    out["type"] = b.type;
    out["labels"] = b.labels;
    out["origin"] = b.origin.to_string();
    return out;
}

json body_json(const Body& body) {
    json args = json::object();
    for (const auto& a : body.arguments) args[a.name] = expr_json(a.expr);
    json blocks = json::array();
    for (const auto& b : body.blocks) blocks.push_back(block_json(b));
    return json{{"arguments", std::move(args)}, {"blocks", std::move(blocks)}};
}

json checks_json(const std::vector<Check>& checks) {
    json out = json::array();
    for (const auto& c : checks) {
        json j{{"origin", c.origin.to_string()}};
        if (c.condition) j["condition"] = expr_json(*c.condition);
        if (c.error_message) j["error_message"] = expr_json(*c.error_message);
        out.push_back(std::move(j));
    }
    return out;
}

json traversals_json(const std::vector<Traversal>& ts) {
    json out = json::array();
    for (const auto& t : ts) out.push_back(t.text);
    return out;
}

json terraform_json(const TerraformSettings& tf) {
    json rv = json::array();
    for (const auto& r : tf.required_version)
        rv.push_back({{"constraints", r.constraints}, {"origin", r.origin.to_string()}});
    json rp = json::object();
    for (const auto& [name, e] : tf.required_providers) {
        json j{{"source", e.source ? json(*e.source) : json(nullptr)},
               {"version_constraints", e.version_constraints},
               {"configuration_aliases", e.configuration_aliases},
               {"origin", e.origin.to_string()}};
        if (e.source_as_written) j["source_as_written"] = *e.source_as_written;
        rp[name] = std::move(j);
    }
    json pm = json::object();
    for (const auto& [name, m] : tf.provider_meta)
        pm[name] = {{"config", body_json(m.config)}, {"origin", m.origin.to_string()}};
    json backend = nullptr;
    if (tf.backend)
        backend = {{"type", tf.backend->type},
                   {"config", body_json(tf.backend->config)},
                   {"origin", tf.backend->origin.to_string()}};
    json cloud = nullptr;
    if (tf.cloud) cloud = {{"config", body_json(tf.cloud->config)}, {"origin", tf.cloud->origin.to_string()}};
    return json{{"required_version", std::move(rv)}, {"required_providers", std::move(rp)},
                {"backend", std::move(backend)},     {"cloud", std::move(cloud)},
                {"provider_meta", std::move(pm)},    {"experiments", tf.experiments}};
}

json connection_json(const Connection& c) {
    return {{"config", body_json(c.config)}, {"origin", c.origin.to_string()}};
}

json resource_json(const Resource& r) {
    json provider{{"value", r.provider->value}, {"explicit", r.provider->explicit_}};
    if (r.provider->source) provider["source"] = *r.provider->source;
    if (r.provider->origin) provider["origin"] = r.provider->origin->to_string();
    const bool managed = r.mode == ResourceMode::managed;
    json lc{{"preconditions", checks_json(r.lifecycle->preconditions)},
            {"postconditions", checks_json(r.lifecycle->postconditions)}};
    if (managed) {
        const auto& l = *r.lifecycle;
        if (l.create_before_destroy) lc["create_before_destroy"] = value_json(*l.create_before_destroy);
        if (l.prevent_destroy) lc["prevent_destroy"] = value_json(*l.prevent_destroy);
        if (l.ignore_changes) {
            json v{{"value", traversals_json(*l.ignore_changes)}};
            if (!l.ignore_changes->empty()) v["origin"] = l.ignore_changes->front().origin().to_string();
            lc["ignore_changes"] = std::move(v);
        }
        if (l.ignore_all_changes)
            lc["ignore_all_changes"] = {{"value", true}, {"origin", l.ignore_all_changes->to_string()}};
        json rtb = json::array();
        for (const auto& e : l.replace_triggered_by) rtb.push_back(expr_json(e));
        lc["replace_triggered_by"] = std::move(rtb);
    }
    json out{{"type", r.type},
             {"name", r.name},
             {"provider", std::move(provider)},
             {"depends_on", traversals_json(r.depends_on)},
             {"config", body_json(r.config)},
             {"lifecycle", std::move(lc)},
             {"origin", r.origin.to_string()}};
    if (r.count) out["count"] = expr_json(*r.count);
    if (r.for_each) out["for_each"] = expr_json(*r.for_each);
    if (managed) {
        json provs = json::array();
        for (const auto& p : r.provisioners) {
            json j{{"type", p.type},
                   {"when", p.when},
                   {"on_failure", p.on_failure},
                   {"config", body_json(p.config)},
                   {"origin", p.origin.to_string()}};
            if (p.connection) j["connection"] = connection_json(*p.connection);
            provs.push_back(std::move(j));
        }
        out["provisioners"] = std::move(provs);
        if (r.connection) out["connection"] = connection_json(*r.connection);
    }
    if (!r.overridden_by.empty()) out["overridden_by"] = origins_json(r.overridden_by);
    return out;
}

}  // namespace

json module_to_json(const LoadedModule& lm) {
    const Module& m = *lm.module;
    json providers = json::object();
    for (const auto& [key, p] : m.providers) {
        json j{{"name", p.name}, {"config", body_json(p.config)}, {"origin", p.origin.to_string()}};
        if (p.alias) j["alias"] = *p.alias;
        if (p.version_constraints) j["version_constraints"] = value_json(*p.version_constraints);
        if (!p.overridden_by.empty()) j["overridden_by"] = origins_json(p.overridden_by);
        providers[key] = std::move(j);
    }
    json variables = json::object();
    for (const auto& [name, v] : m.variables) {
        json j{{"sensitive", value_json(v.sensitive)},
               {"nullable", value_json(v.nullable)},
               {"validations", checks_json(v.validations)},
               {"origin", v.origin.to_string()}};
        if (auto type = v.type()) {
            j["type"] = value_json(*type);
            if (auto defaults = v.optional_defaults()) j["type"]["optional_defaults"] = std::move(*defaults);
        }
        if (v.default_cty) {
            // A default that is not wholly known has no value to show.
            if (!v.default_cty->is_wholly_known()) {
                j["default"] = json::object();
            } else {
                j["default"] = value_json(*v.default_value());
            }
        }
        if (v.description) j["description"] = value_json(*v.description);
        if (!v.overridden_by.empty()) j["overridden_by"] = origins_json(v.overridden_by);
        variables[name] = std::move(j);
    }
    json locals = json::object();
    for (const auto& [name, l] : m.locals) locals[name] = expr_json(l.expr);
    json outputs = json::object();
    for (const auto& [name, o] : m.outputs) {
        json j{{"sensitive", value_json(o.sensitive)},
               {"depends_on", traversals_json(o.depends_on)},
               {"preconditions", checks_json(o.preconditions)},
               {"origin", o.origin.to_string()}};
        if (o.value) j["value"] = expr_json(*o.value);
        if (o.description) j["description"] = value_json(*o.description);
        if (!o.overridden_by.empty()) j["overridden_by"] = origins_json(o.overridden_by);
        outputs[name] = std::move(j);
    }
    json calls = json::object();
    for (const auto& [name, c] : m.module_calls) {
        json passing = json::object();
        for (const auto& p : c.providers)
            passing[p.child_key] = {{"value", p.parent_key}, {"origin", p.origin.to_string()}};
        json j{{"providers", std::move(passing)},
               {"depends_on", traversals_json(c.depends_on)},
               {"config", body_json(c.config)},
               {"origin", c.origin.to_string()}};
        if (c.source) {
            j["source"] = {{"value", c.source->value ? json(*c.source->value) : json(nullptr)},
                           {"as_written", c.source->as_written},
                           {"origin", c.source->origin.to_string()}};
        }
        if (c.version_constraints) j["version_constraints"] = value_json(*c.version_constraints);
        if (c.count) j["count"] = expr_json(*c.count);
        if (c.for_each) j["for_each"] = expr_json(*c.for_each);
        if (!c.overridden_by.empty()) j["overridden_by"] = origins_json(c.overridden_by);
        calls[name] = std::move(j);
    }
    json resources = json::object();
    for (const auto& [key, r] : m.resources) resources[key] = resource_json(r);
    json data = json::object();
    for (const auto& [key, r] : m.data) data[key] = resource_json(r);
    json moved = json::array();
    for (const auto& mv : m.moved)
        moved.push_back({{"from", mv.from.text}, {"to", mv.to.text}, {"origin", mv.origin.to_string()}});
    json children = json::object();
    for (const auto& [name, child] : lm.children) children[name] = module_to_json(child);

    return json{{"address", lm.address},
                {"dir", lm.dir},
                {"files", {{"primary", lm.primary_files}, {"override", lm.override_files}}},
                {"terraform", terraform_json(m.terraform)},
                {"providers", std::move(providers)},
                {"variables", std::move(variables)},
                {"locals", std::move(locals)},
                {"outputs", std::move(outputs)},
                {"module_calls", std::move(calls)},
                {"resources", std::move(resources)},
                {"data", std::move(data)},
                {"moved", std::move(moved)},
                {"children", std::move(children)}};
}

json effective_document(const LoadedModule* root, const std::vector<LoadDiagnostic>& diagnostics) {
    struct Row {
        json j;
        std::tuple<bool, std::string, std::uint32_t, std::uint32_t, int, std::string, std::string> key;
    };
    std::vector<Row> rows;
    for (const auto& ld : diagnostics) {
        const Diagnostic& d = ld.diagnostic;
        json j{{"severity", d.severity == Severity::error ? "error" : "warning"},
               {"summary", d.summary},
               {"detail", d.detail},
               {"phase", to_string(ld.phase)},
               {"file", nullptr},
               {"line", nullptr},
               {"column", nullptr},
               {"end_line", nullptr},
               {"end_column", nullptr}};
        bool has_file = !d.filename.empty();
        std::uint32_t line = 0;
        std::uint32_t column = 0;
        if (has_file) j["file"] = d.filename;
        if (d.subject && ld.source) {
            auto s = ld.source->resolve(d.subject->start);
            auto e = ld.source->resolve(d.subject->end);
            line = s.line;
            column = s.column;
            j["line"] = s.line;
            j["column"] = s.column;
            j["end_line"] = e.line;
            j["end_column"] = e.column;
        }
        rows.push_back(
            Row{std::move(j),
                {has_file, d.filename, line, column, d.severity == Severity::error ? 0 : 1, d.summary, d.detail}});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
    json diags = json::array();
    for (auto& r : rows) diags.push_back(std::move(r.j));
    return json{{"format_version", "1"},
                {"diagnostics", std::move(diags)},
                {"root", root ? module_to_json(*root) : json(nullptr)}};
}

std::string dump_document(const json& document) {
    return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace tfsift::config
