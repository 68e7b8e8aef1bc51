// The checks of [[policy]] tables. They read the raw syntax trees of the
// module's files: names, attributes and literal values are all visible there.
// When the merged module tree (include/tfsift/config/) is available these can
// read it instead, to see through override files.
#include "tfsift/lint/policy.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "tfsift/lint/context.hpp"

namespace tfsift::lint {
namespace {

// The text of an expression that is a literal: a number, a bool, or a quoted
// string without interpolation. nullopt for anything computed.
std::optional<std::string> literal_text(const hcl::Expr* e) {
    if (e == nullptr) return std::nullopt;
    switch (e->kind) {
        case hcl::ExprKind::literal: {
            const auto& lit = hcl::as<hcl::LiteralExpr>(*e);
            if (lit.literal == hcl::LiteralKind::null) return std::nullopt;
            return std::string(lit.text);
        }
        case hcl::ExprKind::template_: {
            std::string out;
            for (const hcl::Expr* part : hcl::as<hcl::TemplateExpr>(*e).parts) {
                if (part->kind != hcl::ExprKind::literal) return std::nullopt;
                out += hcl::as<hcl::LiteralExpr>(*part).text;
            }
            return out;
        }
        case hcl::ExprKind::parentheses: return literal_text(hcl::as<hcl::ParenthesesExpr>(*e).inner);
        default: return std::nullopt;
    }
}

// The key of an object item: a bare identifier or a literal string.
std::optional<std::string> object_key(const hcl::Expr* key) {
    if (key == nullptr) return std::nullopt;
    if (key->kind == hcl::ExprKind::object_key) {
        const auto& k = hcl::as<hcl::ObjectKeyExpr>(*key);
        if (!k.force_non_literal && k.wrapped->kind == hcl::ExprKind::scope_traversal) {
            const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*k.wrapped);
            if (t.steps.empty()) return std::string(t.root);
        }
        return literal_text(k.wrapped);
    }
    return literal_text(key);
}

bool is_override_file(const SourceFile& src) {
    std::string name = std::filesystem::path(src.path()).filename().string();
    for (std::string_view ext : {".tf.json", ".tofu.json", ".tf", ".tofu"}) {
        if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
            std::string stem = name.substr(0, name.size() - ext.size());
            return stem == "override" || (stem.size() > 9 && stem.compare(stem.size() - 9, 9, "_override") == 0);
        }
    }
    return false;
}

const hcl::Attribute* find_attribute(const hcl::Body& body, std::string_view name) {
    for (const hcl::Attribute& a : body.attributes) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

bool has_block(const hcl::Body& body, std::string_view name) {
    for (const hcl::Block& b : body.blocks) {
        if (b.type == name) return true;
        if (b.type == "dynamic" && !b.labels.empty() && b.labels[0].value == name) return true;
    }
    return false;
}

bool targets(const Policy& p, NameTarget t) {
    for (NameTarget x : p.targets) {
        if (x == t) return true;
    }
    return false;
}

class PolicyChecker {
public:
    PolicyChecker(const Policy& p, FindingSink& sink) : p_(p), sink_(sink) {}

    void check_file(const hcl::File& file) {
        if (file.body == nullptr) return;
        file_ = &file;
        bool override_file = is_override_file(*file.source);
        for (const hcl::Block& b : file.body->blocks) {
            switch (p_.kind) {
                case PolicyKind::naming:
                    if (!override_file) check_names(b);
                    break;
                case PolicyKind::required_attributes:
                    if (!override_file) check_required(b);
                    break;
                case PolicyKind::forbidden_attribute: check_forbidden(b); break;
                case PolicyKind::provider_source: check_provider_sources(b); break;
                case PolicyKind::module_source: check_module_source(b); break;
            }
        }
    }

private:
    void report(Range range, std::string detail) {
        Finding f;
        f.rule_id = p_.id;
        f.severity = p_.severity;
        f.message = p_.message.empty() ? std::move(detail) : p_.message + ": " + detail;
        f.file = file_->source;
        f.range = range;
        sink_.report(std::move(f));
    }

    void check_name(NameTarget target, std::string_view name, Range range) {
        if (!targets(p_, target) || !p_.pattern) return;
        if (!p_.pattern->search(name)) {
            report(range,
                   fmt::format("{} name \"{}\" does not match /{}/", to_string(target), name, p_.pattern->text()));
        }
    }

    void check_names(const hcl::Block& b) {
        auto label = [&](std::size_t i) -> const hcl::Label* { return i < b.labels.size() ? &b.labels[i] : nullptr; };
        if ((b.type == "resource" || b.type == "data") && b.labels.size() == 2) {
            if (p_.resource_types && !p_.resource_types->search(b.labels[0].value)) return;
            check_name(b.type == "resource" ? NameTarget::resource : NameTarget::data, b.labels[1].value,
                       b.labels[1].range);
        } else if (b.type == "variable" && label(0)) {
            check_name(NameTarget::variable, b.labels[0].value, b.labels[0].range);
        } else if (b.type == "output" && label(0)) {
            check_name(NameTarget::output, b.labels[0].value, b.labels[0].range);
        } else if (b.type == "module" && label(0)) {
            check_name(NameTarget::module, b.labels[0].value, b.labels[0].range);
        } else if (b.type == "locals") {
            for (const hcl::Attribute& a : b.body.attributes) check_name(NameTarget::local, a.name, a.name_range());
        }
    }

    [[nodiscard]] bool applies_to(const hcl::Block& b) const {
        if (b.type != "resource" || b.labels.size() != 2) return false;
        return !p_.resource_types || p_.resource_types->search(b.labels[0].value);
    }

    void check_required(const hcl::Block& b) {
        if (!applies_to(b)) return;
        for (const std::string& name : p_.attributes) {
            if (find_attribute(b.body, name) == nullptr && !has_block(b.body, name)) {
                report(b.def_range(),
                       fmt::format("{}.{} does not set \"{}\"", b.labels[0].value, b.labels[1].value, name));
            }
        }
    }

    void check_forbidden(const hcl::Block& b) {
        if (!applies_to(b)) return;
        for (const std::string& name : p_.attributes) {
            const hcl::Attribute* a = find_attribute(b.body, name);
            if (a == nullptr) continue;
            if (!p_.value) {
                report(a->name_range(), fmt::format("{}.{} sets \"{}\"", b.labels[0].value, b.labels[1].value, name));
                continue;
            }
            auto value = literal_text(a->expr);
            if (value && p_.value->search(*value)) {
                report(a->expr->range,
                       fmt::format("{}.{} sets \"{}\" to \"{}\"", b.labels[0].value, b.labels[1].value, name, *value));
            }
        }
    }

    [[nodiscard]] bool allowed(std::string_view source) const {
        for (const PolicyPattern& pat : p_.allowed) {
            if (pat.search(source)) return true;
        }
        return false;
    }

    void check_provider_sources(const hcl::Block& b) {
        if (b.type != "terraform") return;
        for (const hcl::Block& rp : b.body.blocks) {
            if (rp.type != "required_providers") continue;
            for (const hcl::Attribute& req : rp.body.attributes) {
                if (req.expr->kind != hcl::ExprKind::object) continue;  // legacy "version" string: no source
                for (const hcl::ObjectItem& item : hcl::as<hcl::ObjectExpr>(*req.expr).items) {
                    if (object_key(item.key) != "source") continue;
                    auto source = literal_text(item.value);
                    if (source && !allowed(*source)) {
                        report(item.value->range,
                               fmt::format("provider \"{}\" has source \"{}\", which no allowed pattern matches",
                                           req.name, *source));
                    }
                }
            }
        }
    }

    void check_module_source(const hcl::Block& b) {
        if (b.type != "module" || b.labels.empty()) return;
        const hcl::Attribute* a = find_attribute(b.body, "source");
        if (a == nullptr) return;
        auto source = literal_text(a->expr);
        if (source && !allowed(*source)) {
            report(a->expr->range, fmt::format("module \"{}\" has source \"{}\", which no allowed pattern matches",
                                               b.labels[0].value, *source));
        }
    }

    const Policy& p_;
    FindingSink& sink_;
    const hcl::File* file_ = nullptr;
};

std::string kind_description(const Policy& p) {
    auto patterns = [](const std::vector<PolicyPattern>& list) {
        std::string out;
        for (const auto& pat : list) out += (out.empty() ? "" : ", ") + fmt::format("`{}`", pat.text());
        return out;
    };
    std::string types = p.resource_types ? fmt::format("resources whose type matches `{}`", p.resource_types->text())
                                         : std::string("every resource");
    std::string attrs;
    for (const auto& a : p.attributes) attrs += (attrs.empty() ? "" : ", ") + fmt::format("`{}`", a);
    switch (p.kind) {
        case PolicyKind::naming: {
            std::string what;
            for (NameTarget t : p.targets) what += (what.empty() ? "" : ", ") + std::string(to_string(t));
            return fmt::format("The names of {} blocks must match the RE2 pattern `{}`.", what,
                               p.pattern ? p.pattern->text() : std::string());
        }
        case PolicyKind::required_attributes: return fmt::format("{} must set {}.", types, attrs);
        case PolicyKind::forbidden_attribute:
            if (p.value)
                return fmt::format("{} must not set {} to a literal value matching `{}`.", types, attrs,
                                   p.value->text());
            return fmt::format("{} must not set {}.", types, attrs);
        case PolicyKind::provider_source:
            return fmt::format("Every provider source in `required_providers` must match one of {}.",
                               patterns(p.allowed));
        case PolicyKind::module_source:
            return fmt::format("Every module call's `source` must match one of {}.", patterns(p.allowed));
    }
    return {};
}

}  // namespace

std::string_view to_string(PolicyKind k) {
    switch (k) {
        case PolicyKind::naming: return "naming";
        case PolicyKind::required_attributes: return "required-attributes";
        case PolicyKind::forbidden_attribute: return "forbidden-attribute";
        case PolicyKind::provider_source: return "provider-source";
        case PolicyKind::module_source: return "module-source";
    }
    return "naming";
}

std::string_view to_string(NameTarget t) {
    switch (t) {
        case NameTarget::resource: return "resource";
        case NameTarget::data: return "data";
        case NameTarget::variable: return "variable";
        case NameTarget::output: return "output";
        case NameTarget::module: return "module";
        case NameTarget::local: return "local";
    }
    return "resource";
}

Rule policy_rule(const Policy& policy) {
    Rule r;
    r.id = policy.id;
    r.default_severity = policy.severity;
    r.enabled_by_default = true;
    r.fixable = false;
    r.is_policy = true;
    r.category = RuleCategory::policy;
    r.doc.summary = policy.message.empty() ? fmt::format("Project policy {} ({}).", policy.id, to_string(policy.kind))
                                           : policy.message;
    if (r.doc.summary.back() != '.') r.doc.summary += '.';
    r.doc.what = kind_description(policy);
    r.doc.why = policy.description.empty()
                    ? fmt::format("A project policy, declared in {} line {}.",
                                  std::filesystem::path(policy.defined_in).filename().string(), policy.line)
                    : policy.description;
    r.doc.failing_example = "# see the policy's definition in .tfsift.toml\n";
    r.doc.passing_example = "# see the policy's definition in .tfsift.toml\n";
    r.doc.fix_safety = "Not fixable.";
    r.check = [policy](const LintContext& ctx, FindingSink& sink) {
        PolicyChecker checker(policy, sink);
        for (const auto& f : ctx.files()) {
            if (const hcl::File* native = LintContext::native(f)) checker.check_file(*native);
        }
    };
    return r;
}

}  // namespace tfsift::lint
