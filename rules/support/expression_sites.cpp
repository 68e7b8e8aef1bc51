#include "expression_sites.hpp"

#include <deque>
#include <functional>
#include <string>

#include "reference_names.hpp"
#include "tfsift/config/decode.hpp"

namespace tfsift::lint {

namespace {

const hcl::Attribute* attribute(const hcl::Body& body, std::string_view name) {
    for (const hcl::Attribute& a : body.attributes) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

// A literal, or a string of literal parts only: it refers to nothing and
// calls nothing. Most arguments are such; they are not visited.
bool constant(const hcl::Expr& e) {
    if (e.kind == hcl::ExprKind::literal) return true;
    if (e.kind != hcl::ExprKind::template_) return false;
    for (const hcl::Expr* part : hcl::as<hcl::TemplateExpr>(e).parts) {
        if (part->kind != hcl::ExprKind::literal) return false;
    }
    return true;
}

class Walker {
public:
    Walker(const config::LoadedModule& module, const config::ModuleFile& file, const SiteVisitor& visit)
        : module_(module), file_(file), visit_(visit) {}

    void top_level(const hcl::Block& b) {
        ExpressionScope scope;
        scope.block_type = b.type;
        scope.block = &b;
        const std::string_view type = b.type;
        if (type == "resource" || type == "data" || type == "ephemeral" || type == "module" || type == "action") {
            if (!repetition_after_merge(b, scope)) {
                scope.count = attribute(b.body, "count") != nullptr;
                scope.for_each = attribute(b.body, "for_each") != nullptr;
            }
            resource_body(b.body, scope, type == "module");
        } else if (type == "locals") {
            for (const hcl::Attribute& a : b.body.attributes) value(a, scope);
        } else if (type == "output") {
            for (const hcl::Attribute& a : b.body.attributes) {
                if (a.name == "type") continue;
                if (a.name == "depends_on") {
                    site(a, scope, SiteRole::depends_on);
                } else {
                    value(a, scope);
                }
            }
            conditions(b.body, scope, "precondition");
        } else if (type == "variable") {
            // The type and default are not evaluated with references; the
            // loader reports references there.
            conditions(b.body, scope, "validation");
        } else if (type == "provider") {
            scope.for_each = attribute(b.body, "for_each") != nullptr;
            for (const hcl::Attribute& a : b.body.attributes) {
                if (a.name != "alias") value(a, scope);
            }
            nested(b.body, scope);
        } else if (type == "check") {
            scope.check = &b;
            for (const hcl::Block& inner : b.body.blocks) {
                if (inner.type == "data") {
                    ExpressionScope data = scope;
                    data.block = &inner;
                    data.block_type = "data";
                    resource_body(inner.body, data, false);
                } else if (inner.type == "assert") {
                    for (const hcl::Attribute& a : inner.body.attributes) value(a, scope);
                }
            }
        } else if (type == "import") {
            scope.for_each = attribute(b.body, "for_each") != nullptr;
            for (const hcl::Attribute& a : b.body.attributes) {
                if (a.name == "id" || a.name == "for_each" || a.name == "identity") value(a, scope);
            }
        }
        // terraform, moved, removed and blocks unknown to the language hold
        // no expressions evaluated in the module's scope.
    }

private:
    // An override file's block takes count and for_each from the block it
    // overrides (and may replace them): the merged module knows. Whether it
    // knows the block (else the block's own arguments tell).
    bool repetition_after_merge(const hcl::Block& b, ExpressionScope& scope) {
        const std::string_view type = b.type;
        // The key is made in one string kept across blocks.
        std::string& key = key_;
        if ((type == "resource" || type == "data") && b.labels.size() == 2) {
            const auto& map = type == "resource" ? module_.module->resources : module_.module->data;
            key.assign(std::string_view(b.labels[0].value)).append(1, '.').append(std::string_view(b.labels[1].value));
            auto it = map.find(key);
            if (it == map.end()) return false;
            scope.count = it->second.count.has_value();
            scope.for_each = it->second.for_each.has_value();
            return true;
        }
        if (type == "module" && b.labels.size() == 1) {
            key.assign(std::string_view(b.labels[0].value));
            auto it = module_.module->module_calls.find(key);
            if (it == module_.module->module_calls.end()) return false;
            scope.count = it->second.count.has_value();
            scope.for_each = it->second.for_each.has_value();
            return true;
        }
        return false;
    }

    void site(const hcl::Attribute& a, const ExpressionScope& scope, SiteRole role) {
        if (constant(*a.expr)) return;
        ExpressionSite s;
        s.expr = a.expr.get();
        s.file = &file_;
        s.text = file_.parsed->source.get();
        s.role = role;
        s.argument = a.name;
        visit_(s, scope);
    }
    void value(const hcl::Attribute& a, const ExpressionScope& scope) { site(a, scope, SiteRole::value); }

    void conditions(const hcl::Body& body, const ExpressionScope& scope, std::string_view type) {
        for (const hcl::Block& c : body.blocks) {
            if (c.type != type) continue;
            for (const hcl::Attribute& a : c.body.attributes) value(a, scope);
        }
    }

    // The body of a resource, data source, ephemeral resource or module call.
    void resource_body(const hcl::Body& body, const ExpressionScope& scope, bool is_module) {
        for (const hcl::Attribute& a : body.attributes) {
            const std::string_view name = a.name;
            if (name == "provider" || (is_module && name == "providers")) continue;
            if (name == "depends_on") {
                site(a, scope, SiteRole::depends_on);
            } else {
                value(a, scope);
            }
        }
        for (const hcl::Block& inner : body.blocks) {
            const std::string_view type = inner.type;
            if (type == "lifecycle") {
                lifecycle(inner.body, scope);
            } else if (type == "provisioner") {
                ExpressionScope p = scope;
                p.self = true;
                for (const hcl::Attribute& a : inner.body.attributes) {
                    if (a.name != "when" && a.name != "on_failure") value(a, p);
                }
                nested(inner.body, p);
            } else if (type == "connection") {
                ExpressionScope c = scope;
                c.self = true;
                for (const hcl::Attribute& a : inner.body.attributes) value(a, c);
                nested(inner.body, c);
            } else {
                nested_block(inner, scope);
            }
        }
    }

    void lifecycle(const hcl::Body& body, const ExpressionScope& scope) {
        // ignore_changes names attributes, replace_triggered_by has rules of
        // its own (replace-triggered-by-invalid); the rest are literals.
        for (const hcl::Block& c : body.blocks) {
            if (c.type != "precondition" && c.type != "postcondition") continue;
            ExpressionScope s = scope;
            s.self = c.type == "postcondition";
            for (const hcl::Attribute& a : c.body.attributes) value(a, s);
        }
    }

    void nested(const hcl::Body& body, const ExpressionScope& scope) {
        for (const hcl::Block& inner : body.blocks) nested_block(inner, scope);
    }

    void nested_block(const hcl::Block& b, const ExpressionScope& scope) {
        if (b.type != "dynamic") {
            for (const hcl::Attribute& a : b.body.attributes) value(a, scope);
            nested(b.body, scope);
            return;
        }
        // dynamic "LABEL" { for_each, iterator, labels, content { ... } }
        std::string_view iterator = b.labels.empty() ? std::string_view() : std::string_view(b.labels[0].value);
        if (const hcl::Attribute* it = attribute(b.body, "iterator")) {
            if (it->expr->kind == hcl::ExprKind::scope_traversal) {
                iterator = hcl::as<hcl::ScopeTraversalExpr>(*it->expr).root;
            }
        }
        ExpressionScope inside = scope;
        if (!iterator.empty()) inside.iterators.push_back(iterator);
        for (const hcl::Attribute& a : b.body.attributes) {
            if (a.name == "iterator") continue;
            // for_each is evaluated outside the iterator's scope, labels inside.
            value(a, a.name == "for_each" ? scope : inside);
        }
        for (const hcl::Block& c : b.body.blocks) {
            if (c.type == "content") {
                for (const hcl::Attribute& a : c.body.attributes) value(a, inside);
                nested(c.body, inside);
            }
        }
    }

    const config::LoadedModule& module_;
    const config::ModuleFile& file_;
    const SiteVisitor& visit_;
    std::string key_;  // TYPE.NAME of the block whose repetition is looked up
};

// The same walk over a `.tf.json` file. A block is a JSON object (or an
// array of them, for several blocks of one type); labels are levels of
// object keys; "//" properties are comments.
class JsonWalker {
public:
    JsonWalker(const config::LoadedModule& module, const config::ModuleFile& file, const SiteVisitor& visit)
        : module_(module), file_(file), visit_(visit) {}

    void root(const json::Value& v) {
        if (v.is_array()) {
            for (const json::Value& item : v.items) root(item);
            return;
        }
        if (!v.is_object()) return;
        for (const json::Member& top : v.members) {
            const std::string_view type = top.name;
            if (type == "resource" || type == "data" || type == "ephemeral" || type == "action") {
                labelled(top.value, 2, [&](const std::vector<std::string_view>& labels, const json::Value& body) {
                    resource(type, labels, body);
                });
            } else if (type == "module") {
                labelled(top.value, 1, [&](const std::vector<std::string_view>& labels, const json::Value& body) {
                    resource(type, labels, body);
                });
            } else if (type == "locals") {
                each_body(top.value, [&](const json::Value& body) {
                    ExpressionScope scope;
                    scope.block_type = type;
                    for (const json::Member& m : body.members) {
                        if (m.name != "//") value(m.value, scope, m.name);
                    }
                });
            } else if (type == "output") {
                labelled(top.value, 1, [&](const std::vector<std::string_view>&, const json::Value& body) {
                    ExpressionScope scope;
                    scope.block_type = type;
                    for (const json::Member& m : body.members) {
                        if (m.name == "//" || m.name == "type") continue;
                        if (m.name == "depends_on") {
                            depends_on(m.value, scope);
                        } else if (m.name == "precondition") {
                            conditions(m.value, scope);
                        } else {
                            value(m.value, scope, m.name);
                        }
                    }
                });
            } else if (type == "variable") {
                labelled(top.value, 1, [&](const std::vector<std::string_view>&, const json::Value& body) {
                    ExpressionScope scope;
                    scope.block_type = type;
                    if (const json::Value* v = body.find("validation")) conditions(*v, scope);
                });
            } else if (type == "provider") {
                labelled(top.value, 1, [&](const std::vector<std::string_view>&, const json::Value& body) {
                    ExpressionScope scope;
                    scope.block_type = type;
                    scope.for_each = body.find("for_each") != nullptr;
                    for (const json::Member& m : body.members) {
                        if (m.name != "//" && m.name != "alias") value(m.value, scope, m.name);
                    }
                });
            } else if (type == "check") {
                labelled(top.value, 1, [&](const std::vector<std::string_view>&, const json::Value& body) {
                    ExpressionScope scope;
                    scope.block_type = type;
                    if (const json::Value* data = body.find("data")) {
                        labelled(*data, 2, [&](const std::vector<std::string_view>&, const json::Value& inner) {
                            ExpressionScope d = scope;
                            d.block_type = "data";
                            resource_body(inner, d, false);
                        });
                    }
                    if (const json::Value* asserts = body.find("assert")) {
                        each_body(*asserts, [&](const json::Value& a) {
                            for (const json::Member& m : a.members) {
                                if (m.name != "//") value(m.value, scope, m.name);
                            }
                        });
                    }
                });
            } else if (type == "import") {
                each_body(top.value, [&](const json::Value& body) {
                    ExpressionScope scope;
                    scope.block_type = type;
                    scope.for_each = body.find("for_each") != nullptr;
                    for (const json::Member& m : body.members) {
                        if (m.name == "id" || m.name == "for_each" || m.name == "identity") {
                            value(m.value, scope, m.name);
                        }
                    }
                });
            }
        }
    }

private:
    using LabelledVisitor = std::function<void(const std::vector<std::string_view>&, const json::Value&)>;

    // One object, or an array of objects.
    static void each_body(const json::Value& v, const std::function<void(const json::Value&)>& f) {
        if (v.is_object()) {
            f(v);
        } else if (v.is_array()) {
            for (const json::Value& item : v.items) {
                if (item.is_object()) f(item);
            }
        }
    }

    // `depth` levels of labels, then a body (or an array of bodies).
    static void labelled(const json::Value& v, std::size_t depth, const LabelledVisitor& f,
                         std::vector<std::string_view> labels = {}) {
        if (labels.size() == depth) {
            each_body(v, [&](const json::Value& body) { f(labels, body); });
            return;
        }
        each_body(v, [&](const json::Value& level) {
            for (const json::Member& m : level.members) {
                if (m.name == "//") continue;
                labels.push_back(m.name);
                labelled(m.value, depth, f, labels);
                labels.pop_back();
            }
        });
    }

    void resource(std::string_view type, const std::vector<std::string_view>& labels, const json::Value& body) {
        ExpressionScope scope;
        scope.block_type = type;
        scope.count = body.find("count") != nullptr;
        scope.for_each = body.find("for_each") != nullptr;
        // An override file's block takes count and for_each from the block
        // it overrides: the merged module knows.
        const config::Module& m = *module_.module;
        if ((type == "resource" || type == "data") && labels.size() == 2) {
            const auto& map = type == "resource" ? m.resources : m.data;
            auto it = map.find(std::string(labels[0]) + "." + std::string(labels[1]));
            if (it != map.end()) {
                scope.count = it->second.count.has_value();
                scope.for_each = it->second.for_each.has_value();
            }
        } else if (type == "module" && labels.size() == 1) {
            auto it = m.module_calls.find(std::string(labels[0]));
            if (it != m.module_calls.end()) {
                scope.count = it->second.count.has_value();
                scope.for_each = it->second.for_each.has_value();
            }
        }
        resource_body(body, scope, type == "module");
    }

    void resource_body(const json::Value& body, const ExpressionScope& scope, bool is_module) {
        for (const json::Member& m : body.members) {
            const std::string_view name = m.name;
            if (name == "//" || name == "provider" || (is_module && name == "providers")) continue;
            if (name == "depends_on") {
                depends_on(m.value, scope);
            } else if (name == "lifecycle") {
                each_body(m.value, [&](const json::Value& lc) {
                    for (const json::Member& c : lc.members) {
                        if (c.name != "precondition" && c.name != "postcondition") continue;
                        ExpressionScope s = scope;
                        s.self = c.name == "postcondition";
                        conditions(c.value, s);
                    }
                });
            } else if (name == "provisioner") {
                ExpressionScope p = scope;
                p.self = true;
                labelled(m.value, 1, [&](const std::vector<std::string_view>&, const json::Value& prov) {
                    for (const json::Member& a : prov.members) {
                        if (a.name != "//" && a.name != "when" && a.name != "on_failure") nested(a, p);
                    }
                });
            } else if (name == "connection") {
                ExpressionScope c = scope;
                c.self = true;
                value(m.value, c, name);
            } else {
                nested(m, scope);
            }
        }
    }

    // A property of a body: an argument, or nested blocks (`dynamic` ones
    // bring an iterator into scope).
    void nested(const json::Member& m, const ExpressionScope& scope) {
        if (m.name == "//") return;
        if (m.name != "dynamic") {
            value(m.value, scope, m.name);
            return;
        }
        labelled(m.value, 1, [&](const std::vector<std::string_view>& labels, const json::Value& body) {
            std::string iterator(labels[0]);
            if (const json::Value* it = body.find("iterator"); it != nullptr && it->is_string()) iterator = it->text;
            ExpressionScope inside = scope;
            iterators_.push_back(std::move(iterator));
            inside.iterators.emplace_back(iterators_.back());
            for (const json::Member& a : body.members) {
                if (a.name == "//" || a.name == "iterator") continue;
                if (a.name == "content") {
                    each_body(a.value, [&](const json::Value& content) {
                        for (const json::Member& c : content.members) nested(c, inside);
                    });
                } else {
                    value(a.value, a.name == "for_each" ? scope : inside, a.name);
                }
            }
        });
    }

    void conditions(const json::Value& v, const ExpressionScope& scope) {
        each_body(v, [&](const json::Value& c) {
            for (const json::Member& m : c.members) {
                if (m.name != "//") value(m.value, scope, m.name);
            }
        });
    }

    void depends_on(const json::Value& v, const ExpressionScope& scope) {
        if (!v.is_array()) return;
        for (const json::Value& item : v.items) {
            if (item.is_string()) string(item, scope, "depends_on", SiteRole::depends_on);
        }
    }

    // Every string of a value, as a template.
    void value(const json::Value& v, const ExpressionScope& scope, std::string_view argument) {
        if (v.is_string()) {
            string(v, scope, argument, SiteRole::value);
        } else if (v.is_array()) {
            for (const json::Value& item : v.items) value(item, scope, argument);
        } else if (v.is_object()) {
            for (const json::Member& m : v.members) value(m.value, scope, argument);
        }
    }

    void string(const json::Value& v, const ExpressionScope& scope, std::string_view argument, SiteRole role) {
        const bool as_template = role == SiteRole::value;
        // A string without an interpolation or directive refers to nothing.
        if (as_template && v.text.find("${") == std::string::npos && v.text.find("%{") == std::string::npos) return;
        const auto parsed = shared_json_string(v, as_template);
        if (parsed->expr == nullptr) return;
        ExpressionSite s;
        s.expr = parsed->expr;
        s.file = &file_;
        s.role = role;
        s.argument = argument;
        s.text = parsed->source.get();
        s.json_string = &v;
        visit_(s, scope);
    }

    const config::LoadedModule& module_;
    const config::ModuleFile& file_;
    const SiteVisitor& visit_;
    std::deque<std::string> iterators_;  // names the scopes point into
};

}  // namespace

Range ExpressionSite::file_range(Range range) const {
    if (json_string == nullptr) return range;
    return json_string_file_range(*json_string, text, range);
}

void for_each_expression(const config::LoadedModule& module, const SiteVisitor& visit) {
    for (const config::ModuleFile& file : module.files) {
        if (file.parsed->json) {
            JsonWalker(module, file, visit).root(file.parsed->json->root);
            continue;
        }
        if (!file.parsed->native) continue;
        Walker walker(module, file, visit);
        for (const hcl::Block& b : file.parsed->native->body->blocks) walker.top_level(b);
    }
}

namespace {

// Puts the children of `e` that may hold a call on `todo`, last first, so
// that they are taken in source order (for_each_child's), without a list
// of them in between. Literals, traversals and splat placeholders hold
// none: most arguments and template parts are such and are not listed.
void push_children(const hcl::Expr& e, std::vector<const hcl::Expr*>& todo) {
    using hcl::ExprKind;
    if (e.kind == ExprKind::function_call) return;  // the caller takes a call's arguments
    hcl::for_each_child_reversed(e, [&todo](const hcl::Expr& c) {
        if (c.kind != ExprKind::literal && c.kind != ExprKind::scope_traversal && c.kind != ExprKind::anon_symbol)
            todo.push_back(&c);
    });
}

}  // namespace

std::vector<const hcl::FunctionCallExpr*> function_calls(const hcl::Expr& expr) {
    std::vector<const hcl::FunctionCallExpr*> out;
    append_function_calls(expr, out);
    return out;
}

void append_function_calls(const hcl::Expr& expr, std::vector<const hcl::FunctionCallExpr*>& out) {
    // The rules ask this of most expressions they visit: the work list is
    // the thread's own and kept between walks, which run to their end
    // without calling out.
    thread_local std::vector<const hcl::Expr*> todo;
    todo.clear();
    todo.push_back(&expr);
    while (!todo.empty()) {
        const hcl::Expr* e = todo.back();
        todo.pop_back();
        if (e->kind != hcl::ExprKind::function_call) {
            push_children(*e, todo);
            continue;
        }
        const auto& call = hcl::as<hcl::FunctionCallExpr>(*e);
        out.push_back(&call);
        const bool is_convert = call.name == "convert" || call.name == "core::convert";
        for (std::size_t i = call.args.size(); i-- > 0;) {
            if (is_convert && i == 1) continue;
            const hcl::Expr* arg = call.args[i];
            if (arg->kind != hcl::ExprKind::literal && arg->kind != hcl::ExprKind::scope_traversal) todo.push_back(arg);
        }
    }
}

}  // namespace tfsift::lint
