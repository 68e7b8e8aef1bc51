// count-for-each-invalid: a `count` or `for_each` written as a constant that
// Terraform cannot expand: a negative, fractional, too large or null count,
// or a for_each that is not a map, an object or a set of strings.
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/loader_reports.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/hcl/references.hpp"

namespace tfsift::lint::rules {

namespace {

constexpr std::string_view rule_id = "count-for-each-invalid";

// The type conversion functions, evaluated here: a constant `for_each` is
// often written `toset([...])`, and what toset makes of its list (a set of
// numbers from `[1, 2]`) is what Terraform checks.
const hcl::EvalContext& conversion_functions() {
    static const hcl::EvalContext context = [] {
        hcl::EvalContext c;
        c.functions.emplace();
        auto add = [&c](std::string_view name, cty::Type to) {
            hcl::Function fn;
            fn.call = [to](std::span<const cty::Value> args) -> hcl::Function::Result {
                if (args.size() != 1) return {cty::Value::dynamic_unknown(), "takes one argument"};
                cty::Converted converted = cty::convert(args[0], to);
                if (!converted.ok()) return {cty::Value::dynamic_unknown(), converted.error};
                return {converted.value, {}};
            };
            (*c.functions)[std::string(name)] = fn;
        };
        add("toset", cty::Type::set(cty::Type::dynamic()));
        add("tolist", cty::Type::list(cty::Type::dynamic()));
        add("tomap", cty::Type::map(cty::Type::dynamic()));
        add("tostring", cty::Type::string());
        add("tonumber", cty::Type::number());
        add("tobool", cty::Type::boolean());
        return c;
    }();
    return context;
}

// The value of an expression without references, calling only the type
// conversion functions; nullopt when it has references or other calls (known
// only at plan time) or does not evaluate.
std::optional<cty::Value> constant(const config::Expression& expr) {
    if (expr.native == nullptr) return std::nullopt;
    if (!hcl::referenced_traversals(*expr.native).empty()) return std::nullopt;
    const hcl::EvalContext& functions = conversion_functions();
    for (std::string_view name : hcl::called_functions(*expr.native)) {
        if (functions.functions->count(name) == 0) return std::nullopt;
    }
    hcl::EvalResult r = hcl::evaluate(*expr.native, &functions);
    if (has_errors(r.diagnostics) || !r.value.is_wholly_known()) return std::nullopt;
    return r.value;
}

// Why a count value is unsuitable (evalchecks/eval_count.go), or "".
std::string count_problem(const cty::Value& v) {
    if (v.is_null()) return "The given \"count\" argument value is null. An integer is required.";
    cty::Converted n = cty::convert(v, cty::Type::number());
    if (!n.ok()) return fmt::format("The given \"count\" argument value is unsuitable: {}.", n.error);
    const cty::Number& number = n.value.as_number();
    if (number.compare(cty::Number::from_int(2147483647LL)) > 0) {
        return "The given \"count\" argument value is unsuitable: must be less than or equal to 2147483647.";
    }
    if (!number.is_integer() || number.compare(cty::Number::from_int(-2147483648LL)) < 0) {
        return "The given \"count\" argument value is unsuitable: value must be a whole number, between "
               "-2147483648 and 2147483647.";
    }
    if (number.is_negative() && !number.is_zero()) {
        return "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.";
    }
    return {};
}

struct Problem {
    std::string_view summary;
    std::string detail;
};

// Why a for_each value is unsuitable (evalchecks/eval_for_each.go), or
// nullopt. A set of something else than strings, or holding a null, has a
// summary of its own; the wording of the first differs between the engines.
std::optional<Problem> for_each_problem(const cty::Value& v, Engine engine) {
    constexpr std::string_view summary = "Invalid for_each argument";
    constexpr std::string_view set_summary = "Invalid for_each set argument";
    constexpr std::string_view allowed = "map, or set of strings";
    if (v.is_null()) {
        return Problem{summary, fmt::format("The given \"for_each\" argument value is unsuitable: the given "
                                            "\"for_each\" argument value is null. A {} is allowed.",
                                            allowed)};
    }
    const cty::Type& t = v.type();
    if (t.is_map() || t.is_object()) return std::nullopt;
    if (t.is_set()) {
        if (t.element().is_dynamic()) return std::nullopt;
        if (!(t.element() == cty::Type::string())) {
            return Problem{set_summary,
                           fmt::format("The given \"for_each\" argument value is unsuitable: \"for_each\" supports "
                                       "{}sets of strings, but you have provided a set containing type {}.",
                                       engine == Engine::terraform ? "maps and " : "", t.element().friendly_name())};
        }
        for (const cty::Value& e : v.elements()) {
            if (e.is_null()) {
                return Problem{set_summary,
                               "The given \"for_each\" argument value is unsuitable: \"for_each\" sets must not "
                               "contain null values."};
            }
        }
        return std::nullopt;
    }
    return Problem{summary, fmt::format("The given \"for_each\" argument value is unsuitable: the \"for_each\" "
                                        "argument must be a {}, and you have provided a value of type {}.",
                                        allowed, t.friendly_name())};
}

void check(const LintContext& ctx, FindingSink& sink) {
    if (ctx.tree == nullptr || ctx.tree->root == nullptr) return;
    auto report = [&](const config::Expression& expr, std::string_view summary, std::string detail) {
        if (loader_reported_within(ctx, expr.file, expr.range)) return;
        Finding f;
        f.rule_id = std::string(rule_id);
        f.severity = Severity::error;
        f.message = fmt::format("{}: {}", summary, detail);
        f.file = ctx.shared_source(expr.file);
        f.range = expr.range;
        if (f.file) sink.report(std::move(f));
    };
    auto object = [&](const std::optional<config::Expression>& count, const std::optional<config::Expression>& each) {
        if (count) {
            if (auto v = constant(*count)) {
                if (std::string p = count_problem(*v); !p.empty()) report(*count, "Invalid count argument", p);
            }
        }
        if (each) {
            if (auto v = constant(*each)) {
                if (auto p = for_each_problem(*v, ctx.engine)) report(*each, p->summary, std::move(p->detail));
            }
        }
    };
    const config::Module& m = *ctx.module().module;
    for (const auto& [key, r] : m.resources) object(r.count, r.for_each);
    for (const auto& [key, r] : m.data) object(r.count, r.for_each);
    for (const auto& [name, call] : m.module_calls) object(call.count, call.for_each);
}

}  // namespace

Rule count_for_each_invalid() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.doc.summary = "A constant `count` or `for_each` cannot be expanded.";
    r.doc.what =
        "Evaluates the `count` and `for_each` arguments of resources, data sources and module calls that are "
        "written as constants (no references, and no function calls but the type conversions `toset`, `tolist`, "
        "`tomap`, `tostring`, `tonumber` and `tobool`) and reports, with Terraform's messages, a count "
        "that is null, not a number, fractional, negative or larger than 2147483647, and a for_each that is null "
        "or not a map, an object or a set of strings (a list or tuple such as `[\"a\", \"b\"]` needs `toset()`, and "
        "`toset([1, 2])` is a set of numbers), or a set holding a null. "
        "Values that depend on references are known only at plan time and are not checked.";
    r.doc.why =
        "Terraform and OpenTofu reject these in `validate` and `plan`. The limit of 2147483647 is OpenTofu's: "
        "Terraform takes any count up to its 64-bit integer range, so there a larger constant count is only "
        "implausible, not an error.";
    r.doc.failing_example = R"hcl(module "web" {
  source   = "./web"
  for_each = ["a", "b"]
}
)hcl";
    r.doc.passing_example = R"hcl(module "web" {
  source   = "./web"
  for_each = toset(["a", "b"])
}
)hcl";
    r.doc.fix_safety = "Not fixable: wrapping a list in `toset()` changes the instance keys the author chose.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
