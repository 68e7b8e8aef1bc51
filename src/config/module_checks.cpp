#include "tfsift/config/module_checks.hpp"

#include <map>
#include <optional>
#include <set>
#include <string_view>

#include <fmt/core.h>

#include "tfsift/config/static_evaluation.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/references.hpp"

namespace tfsift::config {

namespace {

// What an expression refers to, as traversal texts ("local.regions").
std::set<std::string> references_of(const Expression& e) {
    std::set<std::string> out;
    if (e.native == nullptr) return out;
    for (const auto* t : hcl::referenced_traversals(*e.native)) out.insert(hcl::render_traversal(*t));
    return out;
}

// OpenTofu's provider configurations with `for_each`: a resource that picks
// an instance of one (`provider = aws.by_region[each.key]`) needs that
// configuration in its module, and should not iterate over the very same
// collection, or removing an element would remove the provider instance
// that must destroy the resource instance. Expressions that refer to
// nothing are constant and cannot shrink unnoticed; otherwise two for_each
// expressions count as the same collection when they refer to the same
// things (parentheses and spacing do not matter).
//
// `what` is "resource" or "module"; `ref` the provider configuration the
// object refers to with an instance key ("aws.by_region"), written at
// `ref_at`; `for_each` the object's own.
void check_provider_instance(const Module& m, std::string_view what, const std::string& ref, const Origin& ref_at,
                             const std::optional<Expression>& for_each, std::vector<ModuleProblem>& out) {
    auto p = m.providers.find(ref);
    if (p == m.providers.end() || !p->second.for_each) {
        const auto dot = ref.find('.');
        out.push_back({Severity::error, code::invalid_provider_instance_configuration,
                       fmt::format("Invalid {} provider configuration", what),
                       fmt::format("This module has no provider \"{}\" block with alias = \"{}\" and a for_each "
                                   "argument, which an instance key in a provider reference requires.",
                                   ref.substr(0, dot), dot == std::string::npos ? std::string() : ref.substr(dot + 1)),
                       ref_at});
        return;
    }
    if (!for_each) return;
    auto provider_refs = references_of(*p->second.for_each);
    if (provider_refs.empty() || provider_refs != references_of(*for_each)) return;
    out.push_back({Severity::warning, code::provider_for_each_matches_instances,
                   fmt::format("Provider configuration for_each matches {}", what),
                   fmt::format("This provider configuration uses the same for_each expression as a {}, so removing "
                               "an element from the collection would remove the provider instance that has to destroy "
                               "what the matching {} instance manages, and planning would fail. Give the provider "
                               "block a for_each that stays a superset of the {}'s instances.",
                               what, what, what),
                   for_each->origin()});
}

void check_provider_instances(const Module& m, std::vector<ModuleProblem>& out) {
    for (const auto* resources : {&m.resources, &m.data, &m.ephemeral}) {
        for (const auto& [key, r] : *resources) {
            if (r.provider_keyed && r.provider_ref) {
                check_provider_instance(m, "resource", *r.provider_ref, r.provider_origin.value_or(r.origin),
                                        r.for_each, out);
            }
        }
    }
    for (const auto& [name, call] : m.module_calls) {
        for (const auto& passed : call.providers) {
            if (passed.parent_keyed) {
                check_provider_instance(m, "module", passed.parent_key, passed.parent_origin, call.for_each, out);
            }
        }
    }
}

// An import into a resource of this module takes that resource's provider
// configuration. The import block may name one too (it must, to generate
// configuration), but then the resource block has to name the same one:
// otherwise the two blocks disagree about the provider to use.
void check_import_providers(const Module& m, std::vector<ModuleProblem>& out) {
    for (const auto& imp : m.imports) {
        if (!imp.provider_ref || imp.to_resource.empty()) continue;
        auto target = m.resources.find(imp.to_resource);
        if (target == m.resources.end()) continue;
        const Origin at = imp.provider_origin.value_or(imp.origin);
        if (!target->second.provider_ref) {
            out.push_back({Severity::error, code::invalid_import_provider_argument, "Invalid import provider argument",
                           fmt::format("The import block names the provider configuration {}, but the resource {} "
                                       "it imports into has no provider argument. Set the same provider argument in "
                                       "the resource block.",
                                       *imp.provider_ref, imp.to_resource),
                           at});
        } else if (*target->second.provider_ref != *imp.provider_ref) {
            out.push_back({Severity::error, code::invalid_import_provider_argument, "Invalid import provider argument",
                           fmt::format("The import block names the provider configuration {}, but the resource {} "
                                       "it imports into uses {}. Name the provider in the resource block only, or "
                                       "the same one in both.",
                                       *imp.provider_ref, imp.to_resource, *target->second.provider_ref),
                           at});
        }
    }
}

// An import target's instance key must agree with how its resource is
// repeated: a string key needs for_each, a number needs count, and no key
// neither. An expression key (`[each.key]`) is known only when planning.
// The import's own for_each and id may not refer to the resource being
// imported. Terraform's validate checks both.
void check_import_targets(const Module& m, std::vector<ModuleProblem>& out) {
    for (const auto& imp : m.imports) {
        if (imp.to_resource.empty() || !imp.to) continue;
        auto target = m.resources.find(imp.to_resource);
        if (target == m.resources.end()) continue;
        const Resource& r = target->second;
        const char* detail = nullptr;
        switch (imp.to_key) {
            case Import::Key::string:
                if (!r.for_each) detail = "The target resource does not use for_each.";
                break;
            case Import::Key::number:
                if (!r.count) detail = "The target resource does not use count.";
                break;
            case Import::Key::none:
                if (r.for_each) detail = "The target resource is using for_each.";
                if (r.count) detail = "The target resource is using count.";
                break;
            case Import::Key::expression: break;
        }
        if (detail != nullptr)
            out.push_back({Severity::error, code::invalid_import_to_expression, "Invalid import 'to' expression",
                           detail, imp.to->origin()});
        auto refers_to_target = [&](const std::optional<Expression>& e) -> std::optional<Origin> {
            if (!e || e->native == nullptr) return std::nullopt;
            for (const auto* t : hcl::referenced_traversals(*e->native)) {
                if (t->steps.empty() || t->steps[0].kind != hcl::StepKind::attr) continue;
                if (t->root == r.type && t->steps[0].name == r.name) return Origin{e->file, t->range.start};
            }
            return std::nullopt;
        };
        if (auto at = refers_to_target(imp.for_each)) {
            out.push_back({Severity::error, code::invalid_import_for_each_argument, "Invalid for_each argument",
                           "The for_each expression cannot reference the resource being imported.", *at});
        }
        if (auto at = refers_to_target(imp.id)) {
            out.push_back({Severity::error, code::invalid_import_id_argument, "Invalid import id argument",
                           "The import ID cannot reference the resource being imported.", *at});
        }
    }
}

// Two import blocks into one resource instance: the loaders reject the
// second. Targets with an expression key or a for_each are known only when
// planning and are not compared.
void check_duplicate_imports(const Module& m, std::vector<ModuleProblem>& out) {
    std::map<std::string, const Import*> seen;
    for (const auto& imp : m.imports) {
        if (imp.for_each || !imp.to || imp.to_key == Import::Key::expression) continue;
        std::string address;
        for (char c : imp.to_text) {
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') address += c;
        }
        if (address.size() >= 2 && address.front() == '"' && address.back() == '"') {
            address = address.substr(1, address.size() - 2);  // JSON: the string's content
        }
        auto [it, inserted] = seen.emplace(address, &imp);
        if (inserted) continue;
        // Terraform names the earlier block by its `import` keyword's range.
        const Origin& before = it->second->origin;
        std::string where = before.to_string();
        if (before.file != nullptr) {
            const ResolvedPos at = before.file->resolve(before.pos);
            where = fmt::format("{}:{},{}-{}", before.file->path(), at.line, at.column, at.column + 6);
        }
        out.push_back({Severity::error, code::duplicate_import_configuration,
                       fmt::format("Duplicate import configuration for \"{}\"", address),
                       fmt::format("An import block for the resource \"{}\" was already declared at {}. A resource "
                                   "can have only one import block.",
                                   address, where),
                       imp.origin});
    }
}

// A module's `source` and `version` written with references. Releases
// before Terraform v1.15 and OpenTofu v1.8 take them as constants, and
// refuse every reference ("Variables not allowed"); later releases evaluate
// them while installing modules, and refuse only what is not known then
// (config/static_evaluation.hpp). Both answers are given here, under
// different codes; the lint keeps the one of the release in use
// (lint/engine_gate.hpp).
void check_dynamic_module_settings(const Module& m, Engine engine, std::vector<ModuleProblem>& out) {
    const std::string_view since = engine == Engine::terraform ? "Terraform v1.15" : "OpenTofu v1.8";
    const std::string_view what = engine == Engine::terraform ? "local values and variables declared with const = true"
                                                              : "variables and local values";
    for (const auto& [name, call] : m.module_calls) {
        for (const auto* setting : {&call.dynamic_source, &call.dynamic_version}) {
            if (!*setting || (*setting)->expr.native == nullptr) continue;
            const Expression& e = (*setting)->expr;
            for (const auto* t : hcl::referenced_traversals(*e.native)) {
                out.push_back({Severity::error, code::module_source_variables_not_allowed, "Variables not allowed",
                               fmt::format("Variables may not be used here. {} and later evaluate a module's source "
                                           "and version with {}; `required_version` (or the `engine_version` "
                                           "setting) allows an older release here.",
                                           since, what),
                               Origin{e.file, t->range.start}});
            }
            const bool is_version = setting == &call.dynamic_version;
            for (auto& p : static_reference_problems(m, name, e, engine, is_version)) {
                out.push_back({Severity::error, p.code, std::move(p.summary), std::move(p.detail), p.at});
            }
        }
    }
}

}  // namespace

std::vector<ModuleProblem> check_module(const Module& m, Engine engine) {
    std::vector<ModuleProblem> out;
    check_import_providers(m, out);
    check_import_targets(m, out);
    check_duplicate_imports(m, out);
    check_dynamic_module_settings(m, engine, out);
    if (engine == Engine::opentofu) check_provider_instances(m, out);
    return out;
}

std::vector<ModuleProblem> check_called_module(const Module& m, Engine engine) {
    std::vector<ModuleProblem> out;
    if (!m.imports.empty()) {
        // Terraform v1.16 dropped the check; the lint reports it only when
        // the release in use may be older (lint/engine_gate.hpp).
        std::string detail =
            "An import block was detected in this module, which other modules call as a child module. "
            "Import blocks are only allowed in the root module: write it there, with a `to` address inside the "
            "module call.";
        if (engine == Engine::terraform) {
            detail +=
                " Terraform v1.16 and later allow them in child modules; `required_version` (or the "
                "`engine_version` setting) allows an older release here.";
        }
        out.push_back({Severity::error, code::invalid_import_configuration, "Invalid import configuration",
                       std::move(detail), m.imports.front().origin});
    }
    if (m.terraform.backend) {
        out.push_back({Severity::warning, code::backend_configuration_ignored, "Backend configuration ignored",
                       "Any selected backend applies to the entire configuration, so Terraform expects provider "
                       "configurations only in the root module.\n\nThis is a warning rather than an error because "
                       "it's sometimes convenient to temporarily call a root module as a child module for testing "
                       "purposes, but this backend configuration block will have no effect.",
                       m.terraform.backend->origin});
    }
    // Terraform v1.15.9 warns of a `cloud` block in a child module as of a
    // backend; OpenTofu says nothing.
    if (engine == Engine::terraform && m.terraform.cloud) {
        out.push_back({Severity::warning, code::cloud_configuration_ignored, "Cloud configuration ignored",
                       "A `cloud` block configures HCP Terraform for the whole configuration, which only the root "
                       "module decides, so this block has no effect here. Terraform warns rather than fails, since a "
                       "root module is sometimes called as a child module for a while.",
                       m.terraform.cloud->origin});
    }
    return out;
}

LoadDiagnostic tree_diagnostic(ModuleProblem p, std::shared_ptr<const SourceFile> source) {
    Diagnostic d;
    d.severity = p.severity;
    d.code = p.code;
    d.summary = std::move(p.summary);
    d.detail = std::move(p.detail);
    if (p.at.file) {
        d.filename = p.at.file->path();
        d.subject = Range{p.at.pos, p.at.pos};
    }
    return LoadDiagnostic{std::move(d), LoadPhase::tree, std::move(source)};
}

}  // namespace tfsift::config
