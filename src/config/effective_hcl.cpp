#include "tfsift/config/effective_hcl.hpp"

#include <fmt/core.h>

#include "tfsift/config/type_constraint.hpp"
#include "tfsift/config/version_constraints.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::config {

namespace {

void append_quoted(std::string& out, std::string_view s) {
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '$':
            case '%':
                // A literal "${" or "%{" must not start a template sequence.
                out += c;
                if (i + 1 < s.size() && s[i + 1] == '{') out += c;
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

std::string hcl_quoted(std::string_view s) {
    std::string out;
    append_quoted(out, s);
    return out;
}

bool is_identifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    }
    return true;
}

// The end (one past the closing brace) of the template sequence `${...}` or
// `%{...}` starting at `start`, skipping braces inside quoted strings of the
// expression; the end of `s` when it is not closed.
std::size_t template_sequence_end(std::string_view s, std::size_t start) {
    int depth = 0;
    for (std::size_t i = start + 1; i < s.size(); ++i) {
        char c = s[i];
        if (c == '"') {
            for (++i; i < s.size() && s[i] != '"'; ++i) {
                if (s[i] == '\\') ++i;
            }
        } else if (c == '{') {
            ++depth;
        } else if (c == '}' && --depth == 0) {
            return i + 1;
        }
    }
    return s.size();
}

// A JSON string is a template once its JSON escapes are decoded. Its source
// text cannot simply be copied: inside `${...}` native syntax reads
// expressions, where JSON's `\"` is not allowed, and `\/`, `\b`, `\f` are
// not native escapes at all. So the decoded template is quoted again, the
// literal parts with native escapes and the template sequences as they are.
std::string quoted_template(std::string_view decoded) {
    std::string out = "\"";
    for (std::size_t i = 0; i < decoded.size();) {
        const char c = decoded[i];
        if ((c == '$' || c == '%') && i + 2 < decoded.size() && decoded[i + 1] == c && decoded[i + 2] == '{') {
            // `$${` and `%%{` are literal text in a template already.
            out.append(decoded.substr(i, 3));
            i += 3;
        } else if ((c == '$' || c == '%') && i + 1 < decoded.size() && decoded[i + 1] == '{') {
            const std::size_t end = template_sequence_end(decoded, i);
            out.append(decoded.substr(i, end - i));
            i = end;
        } else {
            switch (c) {
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    } else {
                        out += c;
                    }
            }
            ++i;
        }
    }
    return out + "\"";
}

// An expression as native syntax: its source text, except for a JSON string
// with escapes, which is quoted again as a native template.
std::string expression_hcl(const Expression& e) {
    std::string_view raw = e.source_text();
    if (e.json != nullptr && e.json->is_string() && raw.find('\\') != std::string_view::npos) {
        return quoted_template(e.json->text);
    }
    return std::string(raw);
}

class Writer {
public:
    std::string out;

    void line(int depth, std::string_view text) {
        out.append(static_cast<std::size_t>(depth) * 2, ' ');
        out += text;
        out += '\n';
    }

    // An expression keeps its source text; its origin goes on a comment line
    // before it, since the text may span lines or end in a comment.
    void argument(int depth, std::string_view name, const Expression& e) {
        line(depth, fmt::format("# from {}", e.origin().to_string()));
        line(depth, fmt::format("{} = {}", name, expression_hcl(e)));
    }

    void value_argument(int depth, std::string_view name, const DecodedValue& v) {
        if (v.origin) line(depth, fmt::format("# from {}", v.origin->to_string()));
        line(depth, fmt::format("{} = {}", name, hcl_literal(v.value)));
    }

    void body(int depth, const Body& b) {
        for (const auto& a : b.arguments) argument(depth, a.name, a.expr);
        for (const auto& nb : b.blocks) {
            std::string header = nb.type;
            for (const auto& l : nb.labels) header += " " + hcl_quoted(l);
            line(depth, fmt::format("# from {}", nb.origin.to_string()));
            line(depth, header + " {");
            body(depth + 1, nb.body);
            line(depth, "}");
        }
    }

    void open(int depth, const std::string& header, const Origin& origin) {
        line(depth, fmt::format("# from {}", origin.to_string()));
        line(depth, header + " {");
    }

    void checks(int depth, std::string_view type, const std::vector<Check>& cs) {
        for (const auto& c : cs) {
            open(depth, std::string(type), c.origin);
            if (c.condition) argument(depth + 1, "condition", *c.condition);
            if (c.error_message) argument(depth + 1, "error_message", *c.error_message);
            line(depth, "}");
        }
    }

    static std::string traversal_list(const std::vector<Traversal>& ts) {
        std::string out = "[";
        for (std::size_t i = 0; i < ts.size(); ++i) {
            if (i > 0) out += ", ";
            out += ts[i].text;
        }
        return out + "]";
    }

    static std::string constraints(const std::vector<std::string>& cs) {
        std::string joined;
        for (std::size_t i = 0; i < cs.size(); ++i) {
            if (i > 0) joined += ", ";
            joined += cs[i];
        }
        return hcl_quoted(joined);
    }

    void terraform(const TerraformSettings& tf) {
        const bool any = !tf.required_version.empty() || !tf.required_providers.empty() || tf.backend || tf.cloud ||
                         !tf.provider_meta.empty() || !tf.experiments.empty();
        if (!any) return;
        line(0, "terraform {");
        // One `required_version` per entry of the document's list (one per
        // argument of the merged files): the first here, the others each in
        // a `terraform` block of its own after this one.
        if (!tf.required_version.empty()) required_version(tf.required_version.front());
        if (!tf.required_providers.empty()) {
            line(1, "required_providers {");
            for (const auto& [name, rp] : tf.required_providers) {
                line(2, fmt::format("# from {}", rp.origin.to_string()));
                std::string obj = "{";
                bool first = true;
                auto add = [&](const std::string& kv) {
                    obj += first ? " " : ", ";
                    obj += kv;
                    first = false;
                };
                if (rp.source_as_written) add("source = " + hcl_quoted(*rp.source_as_written));
                if (!rp.version_constraints.empty()) add("version = " + constraints(rp.version_constraints));
                if (!rp.configuration_aliases.empty()) {
                    std::string list = "[";
                    for (std::size_t i = 0; i < rp.configuration_aliases.size(); ++i) {
                        if (i > 0) list += ", ";
                        list += rp.configuration_aliases[i];
                    }
                    add("configuration_aliases = " + list + "]");
                }
                obj += first ? "}" : " }";
                line(2, fmt::format("{} = {}", name, obj));
            }
            line(1, "}");
        }
        if (tf.backend) {
            open(1, "backend " + hcl_quoted(tf.backend->type), tf.backend->origin);
            body(2, tf.backend->config);
            line(1, "}");
        }
        if (tf.cloud) {
            open(1, "cloud", tf.cloud->origin);
            body(2, tf.cloud->config);
            line(1, "}");
        }
        for (const auto& [name, pm] : tf.provider_meta) {
            open(1, "provider_meta " + hcl_quoted(name), pm.origin);
            body(2, pm.config);
            line(1, "}");
        }
        if (!tf.experiments.empty()) {
            std::string list = "[";
            for (std::size_t i = 0; i < tf.experiments.size(); ++i) list += (i > 0 ? ", " : "") + tf.experiments[i];
            line(1, "experiments = " + list + "]");
        }
        line(0, "}");
        out += '\n';
        for (std::size_t i = 1; i < tf.required_version.size(); ++i) {
            line(0, "terraform {");
            required_version(tf.required_version[i]);
            line(0, "}");
            out += '\n';
        }
    }

    void required_version(const RequiredVersion& rv) {
        line(1, fmt::format("# from {}", rv.origin.to_string()));
        line(1, "required_version = " + constraints(rv.constraints));
    }

    // The body's arguments whose names are meta-arguments of the block go
    // into a `_` escaping block, so they read back as the body's own.
    void escaped_body(int depth, const Body& b, std::initializer_list<std::string_view> meta) {
        Body plain;
        Body escaped;
        for (const auto& a : b.arguments) {
            bool is_meta = false;
            for (auto m : meta) is_meta = is_meta || a.name == m;
            (is_meta ? escaped : plain).arguments.push_back(a);
        }
        plain.blocks = b.blocks;
        body(depth, plain);
        if (!escaped.arguments.empty()) {
            line(depth, "_ {");
            body(depth + 1, escaped);
            line(depth, "}");
        }
    }

    void resource(const Resource& r) {
        const bool managed = r.mode == ResourceMode::managed;
        open(0, fmt::format("{} {} {}", managed ? "resource" : "data", hcl_quoted(r.type), hcl_quoted(r.name)),
             r.origin);
        if (r.count) argument(1, "count", *r.count);
        if (r.for_each) argument(1, "for_each", *r.for_each);
        if (r.provider->explicit_) {
            if (r.provider->origin) line(1, fmt::format("# from {}", r.provider->origin->to_string()));
            line(1, "provider = " + r.provider->value);
        }
        if (!r.depends_on.empty()) line(1, "depends_on = " + traversal_list(r.depends_on));
        escaped_body(1, r.config,
                     {"count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner"});
        const Lifecycle& lc = *r.lifecycle;
        const bool has_lc = lc.create_before_destroy || lc.prevent_destroy || lc.ignore_changes ||
                            lc.ignore_all_changes || !lc.replace_triggered_by.empty() || !lc.preconditions.empty() ||
                            !lc.postconditions.empty();
        if (has_lc) {
            line(1, "lifecycle {");
            if (lc.create_before_destroy) value_argument(2, "create_before_destroy", *lc.create_before_destroy);
            if (lc.prevent_destroy) value_argument(2, "prevent_destroy", *lc.prevent_destroy);
            if (lc.ignore_all_changes) {
                line(2, fmt::format("# from {}", lc.ignore_all_changes->to_string()));
                line(2, "ignore_changes = all");
            } else if (lc.ignore_changes) {
                line(2, "ignore_changes = " + traversal_list(*lc.ignore_changes));
            }
            if (!lc.replace_triggered_by.empty()) {
                line(2, "replace_triggered_by = [");
                for (const auto& e : lc.replace_triggered_by) {
                    line(3, fmt::format("# from {}", e.origin().to_string()));
                    line(3, expression_hcl(e) + ",");
                }
                line(2, "]");
            }
            checks(2, "precondition", lc.preconditions);
            checks(2, "postcondition", lc.postconditions);
            line(1, "}");
        }
        if (r.connection) {
            open(1, "connection", r.connection->origin);
            body(2, r.connection->config);
            line(1, "}");
        }
        for (const auto& p : r.provisioners) {
            open(1, "provisioner " + hcl_quoted(p.type), p.origin);
            if (p.when != "create") line(2, "when = " + p.when);
            if (p.on_failure != "fail") line(2, "on_failure = " + p.on_failure);
            escaped_body(2, p.config, {"when", "on_failure", "connection"});
            if (p.connection) {
                open(2, "connection", p.connection->origin);
                body(3, p.connection->config);
                line(2, "}");
            }
            line(1, "}");
        }
        line(0, "}");
        out += '\n';
    }

    void module(const LoadedModule& lm) {
        const Module& m = *lm.module;
        terraform(m.terraform);
        for (const auto& [key, p] : m.providers) {
            open(0, "provider " + hcl_quoted(p.name), p.origin);
            if (p.alias) line(1, "alias = " + hcl_quoted(*p.alias));
            if (p.version_constraints && p.version_constraints->value.is_array()) {
                std::vector<std::string> cs;
                for (const auto& c : p.version_constraints->value) cs.push_back(c.get<std::string>());
                line(1, "version = " + constraints(cs));
            }
            escaped_body(1, p.config, {"alias", "version", "count", "depends_on", "for_each", "source"});
            line(0, "}");
            out += '\n';
        }
        for (const auto& [name, v] : m.variables) {
            open(0, "variable " + hcl_quoted(name), v.origin);
            if (v.type_expr) {
                line(1, fmt::format("# from {}", v.type_expr->origin().to_string()));
                std::string text(v.type_expr->source_text());
                // A JSON type is a string holding the type expression.
                if (v.type_expr->json) text = type_constraint_text(v.constraint_type);
                line(1, "type = " + text);
            }
            if (auto d = v.default_value()) value_argument(1, "default", *d);
            if (v.description) value_argument(1, "description", *v.description);
            if (v.sensitive.origin) value_argument(1, "sensitive", v.sensitive);
            if (v.nullable.origin) value_argument(1, "nullable", v.nullable);
            checks(1, "validation", v.validations);
            line(0, "}");
            out += '\n';
        }
        if (!m.locals.empty()) {
            line(0, "locals {");
            for (const auto& [name, l] : m.locals) argument(1, name, l.expr);
            line(0, "}");
            out += '\n';
        }
        for (const auto& [name, o] : m.outputs) {
            open(0, "output " + hcl_quoted(name), o.origin);
            if (o.value) argument(1, "value", *o.value);
            if (o.description) value_argument(1, "description", *o.description);
            if (o.sensitive.origin) value_argument(1, "sensitive", o.sensitive);
            if (!o.depends_on.empty()) line(1, "depends_on = " + traversal_list(o.depends_on));
            checks(1, "precondition", o.preconditions);
            line(0, "}");
            out += '\n';
        }
        for (const auto& [name, c] : m.module_calls) {
            open(0, "module " + hcl_quoted(name), c.origin);
            if (c.source) {
                line(1, fmt::format("# from {}", c.source->origin.to_string()));
                line(1, "source = " + hcl_quoted(c.source->as_written));
            }
            if (c.version_constraints && c.version_constraints->value.is_array()) {
                std::vector<std::string> cs;
                for (const auto& x : c.version_constraints->value) cs.push_back(x.get<std::string>());
                line(1, "version = " + constraints(cs));
            }
            if (c.count) argument(1, "count", *c.count);
            if (c.for_each) argument(1, "for_each", *c.for_each);
            if (!c.providers.empty()) {
                line(1, "providers = {");
                for (const auto& p : c.providers) {
                    line(2, fmt::format("# from {}", p.origin.to_string()));
                    line(2, fmt::format("{} = {}", p.child_key, p.parent_key));
                }
                line(1, "}");
            }
            if (!c.depends_on.empty()) line(1, "depends_on = " + traversal_list(c.depends_on));
            escaped_body(1, c.config, {"source", "version", "count", "for_each", "depends_on", "providers"});
            line(0, "}");
            out += '\n';
        }
        for (const auto& [key, r] : m.resources) resource(r);
        for (const auto& [key, r] : m.data) resource(r);
        for (const auto& mv : m.moved) {
            open(0, "moved", mv.origin);
            line(1, "from = " + mv.from.text);
            line(1, "to   = " + mv.to.text);
            line(0, "}");
            out += '\n';
        }
    }
};

void all_modules(const LoadedModule& m, std::string& out) {
    out += fmt::format("# ==== module {} (directory {}) ====\n", m.address.empty() ? std::string("(root)") : m.address,
                       m.dir);
    out += "# files:";
    for (const auto& f : m.primary_files) out += " " + f;
    for (const auto& f : m.override_files) out += " " + f + " (override)";
    out += "\n\n";
    out += module_hcl(m);
    for (const auto& [name, child] : m.children) all_modules(child, out);
}

}  // namespace

std::string hcl_literal(const nlohmann::json& v) {
    switch (v.type()) {
        case nlohmann::json::value_t::null: return "null";
        case nlohmann::json::value_t::boolean: return v.get<bool>() ? "true" : "false";
        case nlohmann::json::value_t::string: return hcl_quoted(v.get<std::string>());
        case nlohmann::json::value_t::array: {
            std::string out = "[";
            bool first = true;
            for (const auto& e : v) {
                if (!first) out += ", ";
                first = false;
                out += hcl_literal(e);
            }
            return out + "]";
        }
        case nlohmann::json::value_t::object: {
            if (v.empty()) return "{}";
            std::string out = "{ ";
            bool first = true;
            for (const auto& [k, e] : v.items()) {
                if (!first) out += ", ";
                first = false;
                out += is_identifier(k) ? k : hcl_quoted(k);
                out += " = ";
                out += hcl_literal(e);
            }
            return out + " }";
        }
        default: return v.dump();
    }
}

std::string module_hcl(const LoadedModule& module) {
    Writer w;
    w.module(module);
    return w.out;
}

std::string effective_hcl(const LoadedModule& root, const std::vector<LoadDiagnostic>& diagnostics) {
    std::string out;
    all_modules(root, out);
    if (!diagnostics.empty()) {
        out += "# ==== diagnostics ====\n";
        for (const auto& d : diagnostics) {
            std::string where = d.diagnostic.filename.empty() ? std::string("-") : d.diagnostic.filename;
            if (d.diagnostic.subject && d.source)
                where += fmt::format(":{}", d.source->line(d.diagnostic.subject->start));
            std::string summary = d.diagnostic.summary;
            for (char& c : summary) {
                if (c == '\n' || c == '\r') c = ' ';
            }
            out += fmt::format("# {} [{}] {}: {}\n", d.diagnostic.severity == Severity::error ? "error" : "warning",
                               to_string(d.phase), where, summary);
        }
    }
    return out;
}

}  // namespace tfsift::config
