#include "expression_sites.hpp"

#include "tfsift/config/decode.hpp"

namespace tfsift::lint {

namespace {

const hcl::Attribute* attribute(const hcl::Body& body, std::string_view name) {
    for (const hcl::Attribute& a : body.attributes) {
        if (a.name == name) return &a;
    }
    return nullptr;
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
            scope.count = attribute(b.body, "count") != nullptr;
            scope.for_each = attribute(b.body, "for_each") != nullptr;
            repetition_after_merge(b, scope);
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
    // overrides (and may replace them): the merged module knows.
    void repetition_after_merge(const hcl::Block& b, ExpressionScope& scope) const {
        const std::string_view type = b.type;
        auto label = [&b](std::size_t i) { return std::string(std::string_view(b.labels[i].value)); };
        if ((type == "resource" || type == "data") && b.labels.size() == 2) {
            const auto& map = type == "resource" ? module_.module->resources : module_.module->data;
            auto it = map.find(label(0) + "." + label(1));
            if (it != map.end()) {
                scope.count = it->second.count.has_value();
                scope.for_each = it->second.for_each.has_value();
            }
        } else if (type == "module" && b.labels.size() == 1) {
            auto it = module_.module->module_calls.find(label(0));
            if (it != module_.module->module_calls.end()) {
                scope.count = it->second.count.has_value();
                scope.for_each = it->second.for_each.has_value();
            }
        }
    }

    void site(const hcl::Attribute& a, const ExpressionScope& scope, SiteRole role) {
        ExpressionSite s;
        s.expr = a.expr.get();
        s.file = &file_;
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
};

}  // namespace

void for_each_expression(const config::LoadedModule& module, const SiteVisitor& visit) {
    for (const config::ModuleFile& file : module.files) {
        if (!file.parsed->native) continue;
        Walker walker(module, file, visit);
        for (const hcl::Block& b : file.parsed->native->body->blocks) walker.top_level(b);
    }
}

std::vector<const hcl::FunctionCallExpr*> function_calls(const hcl::Expr& expr) {
    std::vector<const hcl::FunctionCallExpr*> out;
    std::vector<const hcl::Expr*> todo{&expr};
    std::vector<const hcl::Expr*> children;
    while (!todo.empty()) {
        const hcl::Expr* e = todo.back();
        todo.pop_back();
        if (e->kind == hcl::ExprKind::function_call) {
            const auto& call = hcl::as<hcl::FunctionCallExpr>(*e);
            out.push_back(&call);
            const bool is_convert = call.name == "convert" || call.name == "core::convert";
            for (std::size_t i = call.args.size(); i-- > 0;) {
                if (is_convert && i == 1) continue;
                todo.push_back(call.args[i].get());
            }
            continue;
        }
        children.clear();
        hcl::for_each_child(*e, [&children](const hcl::Expr& c) { children.push_back(&c); });
        for (auto it = children.rbegin(); it != children.rend(); ++it) todo.push_back(*it);
    }
    return out;
}

}  // namespace tfsift::lint
