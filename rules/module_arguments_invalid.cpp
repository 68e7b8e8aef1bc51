// module-arguments-invalid: a module call's arguments against the variables
// the called module declares, as Terraform decodes the call's body with one
// attribute per variable (required when it has no default), then converts
// each value to the variable's type and runs its validation rules.
#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/loader_reports.hpp"
#include "support/name_hash.hpp"
#include "support/name_suggestion.hpp"
#include "tfsift/config/type_constraint.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/hcl/references.hpp"

namespace tfsift::lint::rules {

namespace {

constexpr std::string_view rule_id = "module-arguments-invalid";

std::string go_quoted(std::string_view s) { return hcl::render_json_string(s); }

// The opening brace of the module block declared at `origin`, as hcl's
// MissingItemRange; the block's start when it is not native syntax.
Range missing_item_range(const config::LoadedModule& module, const config::Origin& origin) {
    for (const config::ModuleFile& file : module.files) {
        if (file.parsed->source.get() != origin.file || !file.parsed->native) continue;
        for (const hcl::Block& b : file.parsed->native->body->blocks) {
            if (b.type_start.byte == origin.pos.byte) return b.open_brace;
        }
    }
    return Range{origin.pos, origin.pos};
}

// A value written without references or function calls, evaluated; nullopt
// otherwise (Terraform only knows it at plan time).
std::optional<cty::Value> constant_value(const config::Expression& expr) {
    if (expr.native == nullptr) return std::nullopt;
    // The common argument, a reference (var.x, module.y.z), asks for no walk.
    if (expr.native->kind == hcl::ExprKind::scope_traversal) return std::nullopt;
    if (hcl::refers_or_calls(*expr.native)) return std::nullopt;
    hcl::EvalResult r = hcl::evaluate(*expr.native, nullptr);
    if (has_errors(r.diagnostics) || !r.value.is_wholly_known()) return std::nullopt;
    return r.value;
}

// Where a validation rule is written, as Terraform prints a range:
// "FILE:LINE,COLUMN-COLUMN" of the `validation` keyword.
std::string rule_location(const config::Check& check) {
    if (check.origin.file == nullptr) return check.origin.to_string();
    const ResolvedPos at = check.origin.file->resolve(check.origin.pos);
    return fmt::format("{}:{},{}-{}", check.origin.file->path(), at.line, at.column, at.column + 10);
}

class ArgumentChecker {
public:
    ArgumentChecker(const LintContext& ctx, FindingSink& sink) : ctx_(ctx), sink_(sink) {}

    void call(const config::ModuleCall& call, const config::LoadedModule& child) {
        const auto& variables = child.module->variables;
        // The names the call sets, hashed: every variable of the called
        // module is looked up.
        NameSet given;
        given.reserve(call.config.arguments.size() + call.config.undecided.size());
        for (const config::Argument& a : call.config.arguments) given.insert(a.name);
        for (const config::JsonProperty& p : call.config.undecided) given.insert(p.name);
        auto is_given = [&given](std::string_view name) { return given.contains(name); };

        // Missing required arguments first, as hcl's PartialContent reports them.
        for (const auto& [name, v] : variables) {
            if (v.default_expr || is_given(name)) continue;
            report(call.origin.file, missing_item_range(ctx_.module(), call.origin), "Missing required argument",
                   fmt::format("The argument {} is required, but no definition was found.", go_quoted(name)));
        }
        auto unsupported = [&](const std::string& name, const SourceFile* file, Range range) {
            // The suggestions: the variables the call leaves unset.
            std::vector<std::string_view> unset;
            for (const auto& [declared, v] : variables) {
                if (!is_given(declared)) unset.push_back(declared);
            }
            std::string hint = name_suggestion(name, unset);
            report(file, range, "Unsupported argument",
                   fmt::format("An argument named {} is not expected here.{}", go_quoted(name),
                               hint.empty() ? std::string() : fmt::format(" Did you mean {}?", go_quoted(hint))));
        };
        for (const config::Argument& a : call.config.arguments) {
            auto v = variables.find(a.name);
            if (v == variables.end()) {
                unsupported(a.name, a.expr.file, a.name_range);
                continue;
            }
            value(call, a, v->second);
        }
        for (const config::JsonProperty& p : call.config.undecided) {
            if (variables.count(p.name) == 0) unsupported(p.name, p.file, p.name_range);
        }
    }

private:
    void report(const SourceFile* file, Range range, std::string_view summary, std::string_view detail) {
        if (loader_reported_within(ctx_, file, Range{range.start, Pos{range.end.byte + 1}})) return;
        Finding f;
        f.rule_id = std::string(rule_id);
        f.severity = Severity::error;
        f.message = fmt::format("{}: {}", summary, detail);
        f.file = ctx_.shared_source(file);
        f.range = range;
        if (f.file) sink_.report(std::move(f));
    }

    // A constant value must convert to the variable's type and pass its
    // validation rules that look at nothing but the variable.
    void value(const config::ModuleCall& call, const config::Argument& a, const config::Variable& v) {
        std::optional<cty::Value> given = constant_value(a.expr);
        if (!given) return;
        cty::Value val = *given;
        if (v.type_defaults && !val.is_null()) val = config::apply_type_defaults(*v.type_defaults, val);
        cty::Converted converted = cty::convert(val, v.constraint_type);
        if (!converted.ok()) {
            report(a.expr.file, a.expr.range, "Invalid value for input variable",
                   fmt::format("The given value is not suitable for module.{}.var.{} declared at {}: {}.", call.name,
                               v.name, v.origin.to_string(), converted.error));
            return;
        }
        if (converted.value.is_null()) return;  // null: the default applies, or nullable
        for (const config::Check& rule : v.validations) validation(a, v, rule, converted.value);
    }

    void validation(const config::Argument& a, const config::Variable& v, const config::Check& rule,
                    const cty::Value& value) {
        if (!rule.condition || rule.condition->native == nullptr) return;
        if (!hcl::called_functions(*rule.condition->native).empty()) return;
        for (const hcl::ScopeTraversalExpr* t : hcl::referenced_traversals(*rule.condition->native)) {
            if (t->root != "var" || t->steps.empty() || t->steps[0].name != v.name) return;
        }
        hcl::EvalContext scope;
        scope.variables.emplace();
        (*scope.variables)["var"] = cty::Value::object({{v.name, value}});
        hcl::EvalResult r = hcl::evaluate(*rule.condition->native, &scope);
        if (has_errors(r.diagnostics) || !r.value.is_known() || r.value.is_null() ||
            r.value.type() != cty::Type::boolean() || r.value.as_bool()) {
            return;
        }
        std::string message = "(no error message)";
        if (rule.error_message) {
            if (auto m = constant_value(*rule.error_message); m && m->type() == cty::Type::string()) {
                message = m->as_string();
            }
        }
        report(a.expr.file, a.expr.range, "Invalid value for variable",
               fmt::format("{}\n\nThis was checked by the validation rule at {}.", message, rule_location(rule)));
    }

    const LintContext& ctx_;
    FindingSink& sink_;
};

}  // namespace

Rule module_arguments_invalid() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.doc.summary =
        "A module call sets an argument the called module does not declare, misses a required one, or "
        "passes a value its variable rejects.";
    r.doc.what =
        "Compares each `module` block with the `variable` blocks of the module it calls (a local directory, or a "
        "remote module installed in `.terraform/modules` or cached; a call whose module is not loaded is "
        "reported by `module-not-loaded` instead): an argument that is not a declared variable is an "
        "\"Unsupported argument\" (with a suggestion of a close name not set yet), a variable without a `default` "
        "that the call does not set is a \"Missing required argument\" (reported at the block's opening brace, as "
        "Terraform does). A value written as a constant (no references, no function calls) must convert to the "
        "variable's type constraint, and must pass the variable's `validation` rules whose condition refers to "
        "nothing but the variable. Meta-arguments (`source`, `version`, `count`, `for_each`, `providers`, "
        "`depends_on`) are not variables. The messages are Terraform's.";
    r.doc.why =
        "Terraform refuses the whole configuration (`validate` and `plan` stop while building the graph). A "
        "renamed variable in a shared module breaks every caller, and this shows each one without running "
        "Terraform.";
    r.doc.failing_example = R"hcl(# modules/web/variables.tf declares `variable "name" {}` and
# `variable "port" { type = number }`, both without a default.
module "web" {
  source = "./modules/web"
  nmae   = "web"
}
)hcl";
    r.doc.passing_example = R"hcl(module "web" {
  source = "./modules/web"
  name   = "web"
  port   = 8080
}
)hcl";
    r.doc.fix_safety = "Not fixable: the intended argument or value is the author's decision.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.tree == nullptr || ctx.tree->root == nullptr) return;
        ArgumentChecker checker(ctx, sink);
        const config::LoadedModule& module = ctx.module();
        for (const auto& [name, call] : module.module->module_calls) {
            auto child = module.children.find(name);
            if (child == module.children.end() || child->second.files.empty()) continue;
            checker.call(call, child->second);
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
