// function-call-invalid: a call of a function the engine does not have, with
// too few or too many arguments, or of a provider-defined function whose
// provider the module does not require.
#include <optional>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "support/expression_sites.hpp"
#include "support/factories.hpp"
#include "support/loader_reports.hpp"
#include "support/name_hash.hpp"
#include "support/name_suggestion.hpp"
#include "tfsift/config/functions.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint::rules {

namespace {

constexpr std::string_view rule_id = "function-call-invalid";

std::string go_quoted(std::string_view s) { return hcl::render_json_string(s); }

std::vector<std::string_view> split_namespaces(std::string_view name) {
    std::vector<std::string_view> parts;
    for (;;) {
        auto at = name.find("::");
        if (at == std::string_view::npos) {
            parts.push_back(name);
            return parts;
        }
        parts.push_back(name.substr(0, at));
        name.remove_prefix(at + 2);
    }
}

// Functions whose HCL signature accepts fewer (or more) arguments than their
// implementation does: the call passes HCL's arity check and fails when the
// function runs ("Error in function call"). From the function table of the
// validate reference data, read in go-cty's stdlib and Terraform's funcs.
struct CallTimeArity {
    std::string_view name;
    std::size_t min;
    std::size_t max;  // SIZE_MAX: no limit
    std::string_view error;
};

constexpr std::size_t unlimited = static_cast<std::size_t>(-1);
constexpr CallTimeArity call_time_arities[] = {
    {"join", 2, unlimited, "at least one list is required"},
    {"coalescelist", 1, unlimited, "at least one argument is required"},
    {"concat", 1, unlimited, "at least one argument is required"},
    {"max", 1, unlimited, "must pass at least one number"},
    {"min", 1, unlimited, "must pass at least one number"},
    {"range", 1, 3, "must have one, two, or three arguments"},
    {"setproduct", 2, unlimited, "at least two arguments are required"},
    {"try", 1, unlimited, "at least one argument is required"},
};

const CallTimeArity* call_time_arity(std::string_view name) {
    for (const CallTimeArity& a : call_time_arities) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

// The built-in functions by name, each name looked up once per module:
// most modules call a few functions many times. The names are views into
// the module's expressions, which outlive the checker.
class FunctionLookups {
public:
    const config::BuiltinFunction* find(std::string_view name) {
        if ((size_ + 1) * 2 > slots_.size()) grow();
        Slot& slot = slot_of(name);
        if (!slot.used) {
            slot = Slot{name, config::find_builtin_function(name), true};
            ++size_;
        }
        return slot.fn;
    }

private:
    struct Slot {
        std::string_view name;
        const config::BuiltinFunction* fn = nullptr;
        bool used = false;
    };

    Slot& slot_of(std::string_view name) {
        const std::size_t mask = slots_.size() - 1;
        const std::size_t hash = NameHash{}(name);
        for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
            Slot& slot = slots_[at];
            if (!slot.used || slot.name == name) return slot;
        }
    }

    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 32 : old.size() * 2, Slot{});
        for (const Slot& slot : old) {
            if (slot.used) slot_of(slot.name) = slot;
        }
    }

    std::vector<Slot> slots_;  // a power of two long, at most half used
    std::size_t size_ = 0;
};

class FunctionChecker {
public:
    FunctionChecker(const LintContext& ctx, FindingSink& sink) : ctx_(ctx), sink_(sink), engine_(ctx.engine) {
        if (ctx.settings != nullptr && ctx.settings->engine_version) version_ = *ctx.settings->engine_version;
    }

    void check(const hcl::FunctionCallExpr& call, const ExpressionSite& site) {
        file_ = site.file->parsed->source.get();
        site_ = &site;
        const std::string_view name = call.name;
        if (name.find("::") == std::string_view::npos) return builtin(call, name, "");
        auto parts = split_namespaces(name);
        if (parts[0] == "core" && parts.size() == 2) return builtin(call, parts[1], "core::");
        if (parts[0] == "provider") return provider_function(call, parts);
        if (engine_ == Engine::opentofu) {
            report("Unknown function namespace",
                   fmt::format("Function {} does not exist within a valid namespace (provider,core)", go_quoted(name)),
                   call.name_range());
        } else {
            report(
                "Call to unknown function",
                fmt::format("There are no functions in namespace {}.", go_quoted(name.substr(0, name.rfind("::") + 2))),
                call.name_range());
        }
    }

private:
    // The names of the functions the engine has, for suggestions: listed at
    // the first unknown name (most modules call none).
    const std::vector<std::string_view>& available() {
        if (!available_) {
            available_.emplace();
            for (const config::BuiltinFunction& fn : config::builtin_functions()) {
                if (config::function_available(fn, engine_, version_)) available_->push_back(fn.name);
            }
        }
        return *available_;
    }

    void report(std::string_view summary, std::string_view detail, Range in_expression) {
        const Range range = site_->file_range(in_expression);
        if (loader_reported_within(ctx_, file_, Range{range.start, Pos{range.end.byte + 1}})) return;
        Finding f;
        f.rule_id = std::string(rule_id);
        f.severity = Severity::error;
        f.message = fmt::format("{}: {}", summary, detail);
        f.file = ctx_.shared_source(file_);
        f.range = range;
        if (f.file) sink_.report(std::move(f));
    }

    void builtin(const hcl::FunctionCallExpr& call, std::string_view name, std::string_view prefix) {
        const config::BuiltinFunction* fn = lookups_.find(name);
        if (fn == nullptr || !config::function_available(*fn, engine_, version_)) {
            std::string detail;
            if (!prefix.empty() && engine_ == Engine::opentofu) {
                detail = fmt::format("There is no builtin (core::) function named {}.", go_quoted(name));
            } else if (!prefix.empty()) {
                detail = fmt::format("There is no function named {} in namespace core::.", go_quoted(name));
            } else {
                std::string hint = name_suggestion(name, available());
                detail = fmt::format("There is no function named {}.{}", go_quoted(name),
                                     hint.empty() ? std::string() : fmt::format(" Did you mean {}?", go_quoted(hint)));
            }
            if (fn != nullptr && fn->where == config::BuiltinFunction::Where::configuration &&
                fn->since(engine_) != nullptr && version_) {
                detail += fmt::format(" {} added it in v{}; engine_version is {}.", product_name(engine_),
                                      fn->since(engine_), *version_);
            }
            report("Call to unknown function", std::move(detail), call.name_range());
            return;
        }
        if (fn->name == "list" || fn->name == "map") {
            const bool list = fn->name == "list";
            report(
                "Error in function call",
                fmt::format("Call to function {} failed: the {} function was deprecated in Terraform v0.12 and is no "
                            "longer available; use {} syntax to write a literal {}.",
                            go_quoted(call.name), go_quoted(fn->name), list ? "tolist([ ... ])" : "tomap({ ... })",
                            list ? "list" : "map"),
                Range{call.range.start, call.open_paren().end});
            return;
        }
        if (call.expand_final) return;  // the expanded list's length is not known here
        const auto params = fn->params_for(engine_);
        const std::size_t given = call.args.size();
        if (given < params.size()) {
            report("Not enough function arguments",
                   fmt::format("Function {} expects{} {} argument(s). Missing value for {}.", go_quoted(call.name),
                               fn->is_variadic() ? " at least" : "", params.size(), go_quoted(params[given])),
                   call.close_paren);
            return;
        }
        if (!fn->is_variadic() && given > params.size()) {
            report("Too many function arguments",
                   fmt::format("Function {} expects only {} argument(s).", go_quoted(call.name), params.size()),
                   call.args[params.size()]->range);
            return;
        }
        if (fn->name == "one" && given == 1) one_argument(*call.args[0]);
        if (const CallTimeArity* arity = call_time_arity(fn->name); arity != nullptr) {
            if (given < arity->min || given > arity->max) {
                report("Error in function call",
                       fmt::format("Call to function {} failed: {}.", go_quoted(call.name), arity->error),
                       Range{call.range.start, call.open_paren().end});
            }
        }
    }

    // A number, bool or string written as such (a string may interpolate).
    static bool is_primitive_literal(const hcl::Expr& e) {
        if (e.kind == hcl::ExprKind::literal) return hcl::as<hcl::LiteralExpr>(e).literal != hcl::LiteralKind::null;
        return e.kind == hcl::ExprKind::template_;
    }

    // one() takes a list, set or tuple; cty checks the argument's type even
    // while its value is unknown, so `one(var.name)` with `type = string`
    // fails in `validate` already. Only a bare input variable's declared
    // type is known here.
    void one_argument(const hcl::Expr& arg) {
        if (is_primitive_literal(arg)) {
            report("Invalid function argument",
                   "Invalid value for \"list\" parameter: must be a list, set, or tuple value with either zero or "
                   "one elements.",
                   arg.range);
            return;
        }
        if (arg.kind != hcl::ExprKind::scope_traversal) return;
        const auto& t = hcl::as<hcl::ScopeTraversalExpr>(arg);
        if (std::string_view(t.root) != "var" || t.steps.size() != 1 || t.steps[0].kind != hcl::StepKind::attr) return;
        const auto& variables = ctx_.module().module->variables;
        const auto it = variables.find(std::string(std::string_view(t.steps[0].name)));
        if (it == variables.end() || !it->second.constraint_type.is_primitive()) return;
        report("Invalid function argument",
               "Invalid value for \"list\" parameter: must be a list, set, or tuple value with either zero or one "
               "elements.",
               arg.range);
    }

    void provider_function(const hcl::FunctionCallExpr& call, const std::vector<std::string_view>& parts) {
        if (parts.size() < 3 || parts.size() > 4) {
            report("Unable to parse provider function",
                   fmt::format("invalid provider function {}: expected provider::<name>::<function> or "
                               "provider::<name>::<alias>::<function>",
                               go_quoted(call.name)),
                   call.name_range());
            return;
        }
        const auto& required = ctx_.module().module->terraform.required_providers;
        if (required.count(std::string(parts[1])) != 0) return;
        report(
            "Unknown function provider",
            fmt::format("Provider {} does not exist within the required_providers of this module", go_quoted(parts[1])),
            call.name_range());
    }

    const LintContext& ctx_;
    FindingSink& sink_;
    Engine engine_;
    std::optional<std::string_view> version_;
    std::optional<std::vector<std::string_view>> available_;
    FunctionLookups lookups_;
    const SourceFile* file_ = nullptr;
    const ExpressionSite* site_ = nullptr;
};

}  // namespace

Rule function_call_invalid() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.doc.summary =
        "A function call names a function the engine does not have, or passes the wrong number of "
        "arguments.";
    r.doc.what =
        "Checks every function call against the engine's function table (`tfsift` carries the built-in functions "
        "of Terraform and OpenTofu with their parameters and the release that added each): an unknown name (with "
        "a suggestion of a close one), a function the release named by `engine_version` does not have yet (without "
        "`engine_version` the newest release is assumed), a function of the other engine (`urldecode` is "
        "OpenTofu's), fewer arguments than the function's parameters or more than a function without a variadic "
        "parameter takes, a call the function itself refuses for its number of arguments although its parameters "
        "allow it (`join(\",\")` with no list, `concat()`, `min()`, `range()` with more than three), `one()` of a string, "
        "number or bool (written as one, or an input variable declared so), an unknown `core::` function, an unknown namespace, and the removed `list()` and `map()`. "
        "A provider-defined function `provider::NAME::FUNCTION` (or `provider::NAME::ALIAS::FUNCTION`) needs "
        "`NAME` in the module's `required_providers`; its arguments are not checked, because only the provider's "
        "schema knows them. A call ending in `...` is not counted. The messages are Terraform's (OpenTofu's where "
        "its differ).";
    r.doc.why =
        "Terraform rejects an unknown function or a wrong argument count when it evaluates the expression, in "
        "`validate`, `plan` and `apply`; a function that only a newer release has breaks the configuration for "
        "everyone still on the older one.";
    r.doc.failing_example = R"hcl(locals {
  name   = uppercase("web")
  joined = join(",")
}
)hcl";
    r.doc.passing_example = R"hcl(locals {
  name   = upper("web")
  joined = join(",", ["a", "b"])
}
)hcl";
    r.doc.fix_safety = "Not fixable: the intended function and arguments are the author's decision.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.tree == nullptr || ctx.tree->root == nullptr) return;
        FunctionChecker checker(ctx, sink);
        std::vector<const hcl::FunctionCallExpr*> calls;  // of one expression, the list kept between them
        for_each_expression(ctx.module(), [&checker, &calls](const ExpressionSite& site, const ExpressionScope&) {
            // Most expressions call nothing; their text has no parenthesis.
            const std::string_view text = site.text->text();
            const Range r = site.expr->range;
            if (r.end.byte <= text.size() && r.start.byte < r.end.byte &&
                text.substr(r.start.byte, r.end.byte - r.start.byte).find('(') == std::string_view::npos) {
                return;
            }
            calls.clear();
            append_function_calls(*site.expr, calls);
            for (const hcl::FunctionCallExpr* call : calls) checker.check(*call, site);
        });
    };
    return r;
}

}  // namespace tfsift::lint::rules
