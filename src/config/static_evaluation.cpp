#include "tfsift/config/static_evaluation.hpp"

#include <fmt/core.h>

#include <set>
#include <span>
#include <utility>

#include "tfsift/config/functions.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/hcl/references.hpp"

namespace tfsift::config {

namespace {

using cty::Value;

// The pure functions tfsift evaluates statically: those a module path or
// version is built with. Every other built-in function leaves the result
// unknown (the evaluator notes the first).
using Args = std::span<const Value>;
using Result = hcl::Function::Result;

bool all_strings(Args args) {
    for (const auto& a : args) {
        if (!a.is_known() || a.is_null() || a.type() != cty::Type::string()) return false;
    }
    return true;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
    if (from.empty()) return s;
    std::string out;
    std::size_t at = 0;
    for (std::size_t hit = s.find(from); hit != std::string::npos; hit = s.find(from, at)) {
        out.append(s, at, hit - at);
        out.append(to);
        at = hit + from.size();
    }
    out.append(s, at);
    return out;
}

std::string ascii_case(std::string s, bool upper) {
    for (char& c : s) {
        if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
}

bool is_ascii(std::string_view s) {
    for (char c : s) {
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    }
    return true;
}

using Implementation = std::function<std::optional<Value>(Args)>;

// nullopt: the arguments are of a kind this small evaluator leaves unknown.
const std::map<std::string, Implementation, std::less<>>& implementations() {
    static const std::map<std::string, Implementation, std::less<>> table = {
        {"lower",
         [](Args a) -> std::optional<Value> {
             if (a.size() != 1 || !all_strings(a) || !is_ascii(a[0].as_string())) return std::nullopt;
             return Value::string(ascii_case(a[0].as_string(), false));
         }},
        {"upper",
         [](Args a) -> std::optional<Value> {
             if (a.size() != 1 || !all_strings(a) || !is_ascii(a[0].as_string())) return std::nullopt;
             return Value::string(ascii_case(a[0].as_string(), true));
         }},
        {"trimspace",
         [](Args a) -> std::optional<Value> {
             if (a.size() != 1 || !all_strings(a) || !is_ascii(a[0].as_string())) return std::nullopt;
             const std::string& s = a[0].as_string();
             const auto first = s.find_first_not_of(" \t\n\r\v\f");
             if (first == std::string::npos) return Value::string("");
             return Value::string(s.substr(first, s.find_last_not_of(" \t\n\r\v\f") - first + 1));
         }},
        {"trimprefix",
         [](Args a) -> std::optional<Value> {
             if (a.size() != 2 || !all_strings(a)) return std::nullopt;
             std::string_view s = a[0].as_string();
             if (s.starts_with(a[1].as_string())) s.remove_prefix(a[1].as_string().size());
             return Value::string(s);
         }},
        {"trimsuffix",
         [](Args a) -> std::optional<Value> {
             if (a.size() != 2 || !all_strings(a)) return std::nullopt;
             std::string_view s = a[0].as_string();
             if (s.ends_with(a[1].as_string())) s.remove_suffix(a[1].as_string().size());
             return Value::string(s);
         }},
        {"replace",
         [](Args a) -> std::optional<Value> {
             if (a.size() != 3 || !all_strings(a)) return std::nullopt;
             const std::string& from = a[1].as_string();
             // A substring written between slashes is a regular expression.
             if (from.size() >= 2 && from.front() == '/' && from.back() == '/') return std::nullopt;
             return Value::string(replace_all(a[0].as_string(), from, a[2].as_string()));
         }},
        {"join",
         [](Args a) -> std::optional<Value> {
             if (a.size() < 2 || !a[0].is_known() || a[0].is_null() || a[0].type() != cty::Type::string())
                 return std::nullopt;
             std::string out;
             bool first = true;
             for (const auto& list : a.subspan(1)) {
                 if (!list.is_wholly_known() || list.is_null()) return std::nullopt;
                 if (!(list.type().is_list() || list.type().is_tuple() || list.type().is_set())) return std::nullopt;
                 for (const auto& e : list.elements()) {
                     auto s = cty::convert(e, cty::Type::string());
                     if (!s.ok() || s.value.is_null()) return std::nullopt;
                     if (!first) out += a[0].as_string();
                     out += s.value.as_string();
                     first = false;
                 }
             }
             return Value::string(out);
         }},
        {"format",
         [](Args a) -> std::optional<Value> {
             // Only the verbs a path is built with: %s, %d of whole numbers, %%.
             if (a.empty() || !a[0].is_known() || a[0].is_null() || a[0].type() != cty::Type::string())
                 return std::nullopt;
             const std::string& f = a[0].as_string();
             std::string out;
             std::size_t next = 1;
             for (std::size_t i = 0; i < f.size(); ++i) {
                 if (f[i] != '%') {
                     out += f[i];
                     continue;
                 }
                 if (i + 1 >= f.size()) return std::nullopt;
                 const char verb = f[++i];
                 if (verb == '%') {
                     out += '%';
                     continue;
                 }
                 if ((verb != 's' && verb != 'd') || next >= a.size()) return std::nullopt;
                 auto s = cty::convert(a[next++], cty::Type::string());
                 if (!s.ok() || !s.value.is_known() || s.value.is_null()) return std::nullopt;
                 if (verb == 'd' && s.value.as_string().find_first_not_of("-0123456789") != std::string::npos)
                     return std::nullopt;
                 out += s.value.as_string();
             }
             if (next != a.size()) return std::nullopt;
             return Value::string(out);
         }},
        {"coalesce",
         [](Args a) -> std::optional<Value> {
             for (const auto& v : a) {
                 if (!v.is_known()) return std::nullopt;
                 if (v.is_null()) continue;
                 if (v.type() != cty::Type::string()) return std::nullopt;
                 if (!v.as_string().empty()) return v;
             }
             return std::nullopt;
         }},
        {"lookup",
         [](Args a) -> std::optional<Value> {
             if (a.size() < 2 || a.size() > 3 || !a[0].is_wholly_known() || a[0].is_null()) return std::nullopt;
             if (!(a[0].type().is_map() || a[0].type().is_object())) return std::nullopt;
             if (!a[1].is_known() || a[1].is_null() || a[1].type() != cty::Type::string()) return std::nullopt;
             const auto& attrs = a[0].attributes();
             const auto it = attrs.find(a[1].as_string());
             if (it != attrs.end()) return it->second;
             if (a.size() == 3 && a[2].is_wholly_known()) return a[2];
             return std::nullopt;
         }},
        {"tostring",
         [](Args a) -> std::optional<Value> {
             if (a.size() != 1) return std::nullopt;
             auto s = cty::convert(a[0], cty::Type::string());
             if (!s.ok()) return std::nullopt;
             return s.value;
         }},
    };
    return table;
}

// The evaluation of one expression: the values of the variables and local
// values it reaches, worked out once each.
class StaticEvaluator {
public:
    explicit StaticEvaluator(const StaticScope& scope) : scope_(scope) {}

    StaticResult evaluate(const Expression& expr) {
        // A local value's evaluation must not lose what the outer one saw.
        const std::string outer = std::exchange(unknown_function_, std::string());
        StaticResult r = evaluate_here(expr);
        if (unknown_function_.empty()) unknown_function_ = outer;
        return r;
    }

private:
    StaticResult evaluate_here(const Expression& expr) {
        if (expr.native == nullptr) {
            return {std::nullopt, "it is written in JSON, which tfsift does not evaluate statically"};
        }
        std::string because;
        bool refused = false;
        hcl::EvalContext ctx;
        ctx.variables.emplace();
        Value::Attributes vars;
        Value::Attributes locals;
        std::set<std::string_view> others;
        for (const auto* t : hcl::referenced_traversals(*expr.native)) {
            const std::string_view root = t->root;
            const bool named = !t->steps.empty() && t->steps[0].kind == hcl::StepKind::attr;
            if ((root == "var" || root == "local") && named) {
                const std::string name(t->steps[0].name);
                StaticResult r = root == "var" ? variable(name) : local(name);
                if (!r.value && because.empty()) {
                    because = r.unknown_because;
                    refused = r.refused;
                }
                (root == "var" ? vars : locals)[name] = r.value ? *r.value : Value::dynamic_unknown();
            } else if (root == "path" && named) {
                // path.cwd depends on where the command runs; unknown.
                const std::string_view attr = t->steps[0].name;
                if (attr == "cwd" && because.empty()) because = "path.cwd depends on where the command runs";
            } else if (root != "var" && root != "local" && root != "path") {
                // Known only when planning; unknown here, so that the
                // evaluation says nothing of its own about it. OpenTofu
                // knows terraform.workspace, Terraform refuses it.
                others.emplace(root);
                if (because.empty()) {
                    because =
                        root == "terraform"
                            ? fmt::format("{} depends on the workspace the command runs in", hcl::render_traversal(*t))
                            : fmt::format("{} is known only when planning", hcl::render_traversal(*t));
                    refused = root != "terraform" || scope_.engine == Engine::terraform;
                }
            }
        }
        for (std::string_view root : others) (*ctx.variables)[std::string(root)] = Value::dynamic_unknown();
        (*ctx.variables)["var"] = Value::object(std::move(vars));
        (*ctx.variables)["local"] = Value::object(std::move(locals));
        (*ctx.variables)["path"] = Value::object({{"module", Value::string(scope_.module_path)},
                                                  {"root", Value::string(".")},
                                                  {"cwd", Value::unknown(cty::Type::string())}});
        ctx.parent = &functions();
        hcl::EvalResult r = hcl::evaluate(*expr.native, &ctx);
        if (!has_errors(r.diagnostics) && r.value.is_wholly_known()) return {std::move(r.value), {}};
        if (!because.empty()) return {std::nullopt, because, refused};
        if (has_errors(r.diagnostics)) {
            for (const auto& d : r.diagnostics) {
                if (d.severity == Severity::error) {
                    std::string_view detail = d.detail;
                    while (detail.ends_with('.')) detail.remove_suffix(1);
                    return {std::nullopt, fmt::format("evaluating it fails ({}: {})", d.summary, detail)};
                }
            }
        }
        if (!unknown_function_.empty()) {
            return {std::nullopt,
                    fmt::format("tfsift does not evaluate {}() with these arguments statically", unknown_function_)};
        }
        return {std::nullopt, "its value is not known before planning"};
    }

    // Every built-in function: the few evaluated here, the rest unknown.
    const hcl::EvalContext& functions() {
        if (functions_.functions) return functions_;
        functions_.functions.emplace();
        for (const auto& fn : builtin_functions()) {
            const std::string name(fn.name);
            const auto& table = implementations();
            const auto it = table.find(name);
            const Implementation* impl = it == table.end() ? nullptr : &it->second;
            hcl::Function f;
            f.call = [this, impl, name](Args args) -> Result {
                if (impl != nullptr) {
                    if (auto v = (*impl)(args)) return {std::move(*v), {}};
                }
                if (unknown_function_.empty()) unknown_function_ = name;
                return {Value::dynamic_unknown(), {}};
            };
            (*functions_.functions)["core::" + name] = f;
            (*functions_.functions)[name] = std::move(f);
        }
        return functions_;
    }

    StaticResult variable(const std::string& name) {
        if (auto it = variables_.find(name); it != variables_.end()) return it->second;
        StaticResult r = variable_value(name);
        variables_.emplace(name, r);
        return r;
    }

    StaticResult variable_value(const std::string& name) const {
        const auto& declared = scope_.module->variables;
        const auto v = declared.find(name);
        if (v == declared.end()) return {std::nullopt, fmt::format("var.{} is not declared", name), true};
        const Variable& var = v->second;
        if (scope_.engine == Engine::terraform && !var.is_const) {
            return {std::nullopt, fmt::format("var.{} is not declared with const = true", name), true};
        }
        if (scope_.engine == Engine::opentofu && var.const_written && !var.is_const) {
            return {std::nullopt, fmt::format("var.{} is declared with const = false", name), true};
        }
        if (var.sensitive.value.is_boolean() && var.sensitive.value.get<bool>()) {
            return {std::nullopt, fmt::format("var.{} is sensitive", name), true};
        }
        if (var.ephemeral) return {std::nullopt, fmt::format("var.{} is ephemeral", name), true};
        std::optional<Value> value;
        if (auto g = scope_.given.find(name); g != scope_.given.end()) {
            if (!g->second.value) {
                return {std::nullopt,
                        fmt::format("the value given for var.{} is not known: {}", name, g->second.unknown_because)};
            }
            value = *g->second.value;
            if (!value->is_null()) {
                auto converted = cty::convert(*value, var.constraint_type);
                if (!converted.ok()) {
                    return {std::nullopt, fmt::format("the value given for var.{} does not suit its type: {}", name,
                                                      converted.error)};
                }
                value = converted.value;
            }
            const bool nullable = !var.nullable.value.is_boolean() || var.nullable.value.get<bool>();
            if (value->is_null() && !nullable) value.reset();
        }
        if (!value && var.default_cty) value = *var.default_cty;
        if (!value) {
            return {std::nullopt,
                    scope_.is_root ? fmt::format("var.{} has no default, and nothing sets it: no variable file, "
                                                 "--var or TF_VAR_{} environment variable",
                                                 name, name)
                                   : fmt::format("var.{} has no default, and the module call gives it no value", name)};
        }
        if (!value->is_wholly_known()) return {std::nullopt, fmt::format("var.{} is not wholly known", name)};
        return {value, {}};
    }

    StaticResult local(const std::string& name) {
        if (auto it = locals_.find(name); it != locals_.end()) return it->second;
        const auto l = scope_.module->locals.find(name);
        if (l == scope_.module->locals.end())
            return {std::nullopt, fmt::format("local.{} is not declared", name), true};
        if (!in_progress_.insert(name).second) {
            return {std::nullopt, fmt::format("local.{} refers to itself", name)};
        }
        StaticResult r = evaluate(l->second.expr);
        in_progress_.erase(name);
        if (!r.value) r.unknown_because = fmt::format("local.{} is not known: {}", name, r.unknown_because);
        locals_.emplace(name, r);
        return r;
    }

    const StaticScope& scope_;
    std::map<std::string, StaticResult, std::less<>> variables_;
    std::map<std::string, StaticResult, std::less<>> locals_;
    std::set<std::string, std::less<>> in_progress_;
    hcl::EvalContext functions_;
    std::string unknown_function_;  // the first function left unknown
};

// The problems of one expression, following local values once each.
class ReferenceChecker {
public:
    ReferenceChecker(const Module& module, std::string call_name, Engine engine, bool is_version,
                     const Expression& setting)
        : module_(module),
          engine_(engine),
          is_version_(is_version),
          setting_(setting),
          call_name_(std::move(call_name)) {}

    void check(const Expression& expr, bool direct) {
        if (expr.native == nullptr) return;
        if (engine_ == Engine::opentofu) {
            for (std::string_view fn : hcl::called_functions(*expr.native)) {
                if (!fn.starts_with("provider::")) continue;
                add(code::provider_function_in_static_context, "Provider function in static context",
                    fmt::format("{}() is a provider function, which OpenTofu cannot call while it installs "
                                "modules, where the {} of module.{} is evaluated.",
                                fn, setting_name(), call_name_),
                    expr.origin());
            }
        }
        for (const auto* t : hcl::referenced_traversals(*expr.native)) {
            const std::string_view root = t->root;
            const bool named = !t->steps.empty() && t->steps[0].kind == hcl::StepKind::attr;
            const Origin at{expr.file, t->range.start};
            if (root == "local" && named) {
                const std::string name(t->steps[0].name);
                const auto l = module_.locals.find(name);
                if (l != module_.locals.end() && seen_locals_.insert(name).second) check(l->second.expr, false);
                continue;
            }
            if (root == "var" && named) {
                const auto v = module_.variables.find(std::string(t->steps[0].name));
                if (v == module_.variables.end()) continue;  // reported as an undeclared reference
                variable(v->second, at);
                continue;
            }
            if (engine_ == Engine::opentofu) {
                if (root == "path" || root == "terraform") continue;
                if (root == "module") {
                    add(code::module_output_in_static_context, "Module output not supported in static context",
                        fmt::format("{} is an output of another module, known only when planning; OpenTofu "
                                    "needs the {} of module.{} while it installs modules.",
                                    hcl::render_traversal(*t), setting_name(), call_name_),
                        at);
                } else {
                    add(code::dynamic_value_in_static_context, "Dynamic value in static context",
                        fmt::format("{} is known only when planning; OpenTofu needs the {} of module.{} while it "
                                    "installs modules.",
                                    hcl::render_traversal(*t), setting_name(), call_name_),
                        at);
                }
                continue;
            }
            // Terraform: a reference other than a variable, a local value or
            // (in `source`) a path, written in the setting itself, is
            // refused; reached through a local value, it leaves the value
            // unknown while modules are installed.
            if (root == "path" && !is_version_) continue;
            if (direct) {
                add(code::invalid_module_source_reference,
                    is_version_ ? "Invalid module version" : "Invalid module source",
                    fmt::format("{} is not a variable or a local value: a module's {} may only use literal "
                                "values, local values and variables declared with const = true.",
                                hcl::render_traversal(*t), setting_name()),
                    at);
            } else {
                unknown(fmt::format("it uses {}, which is known only when planning", hcl::render_traversal(*t)));
            }
        }
    }

    std::vector<StaticReferenceProblem> take() { return std::move(out_); }

private:
    void variable(const Variable& v, const Origin& at) {
        if (engine_ == Engine::terraform) {
            if (!v.is_const) {
                unknown(
                    fmt::format("var.{} is not declared with const = true, so Terraform does not know its value "
                                "while it installs modules",
                                v.name));
            }
            return;
        }
        if (v.const_written && !v.is_const) {
            add(code::unable_to_use_variable_in_static_context, "Unable to use variable in static context",
                fmt::format("var.{} is declared with const = false, which keeps it out of what OpenTofu evaluates "
                            "before planning, such as the {} of module.{}.",
                            v.name, setting_name(), call_name_),
                at);
            return;
        }
        if (v.sensitive.value.is_boolean() && v.sensitive.value.get<bool>()) {
            add(code::sensitive_value_not_allowed, "Sensitive value not allowed",
                fmt::format("var.{} is sensitive, and a value derived from it cannot be used as the {} of module.{}.",
                            v.name, setting_name(), call_name_),
                at);
        }
        if (v.ephemeral) {
            add(code::ephemeral_value_not_allowed, "Ephemeral value not allowed",
                fmt::format("var.{} is ephemeral, and a value derived from it cannot be used as the {} of module.{}.",
                            v.name, setting_name(), call_name_),
                at);
        }
    }

    // Terraform: one error on the whole setting, as its evaluation gives one.
    void unknown(std::string why) {
        if (reported_unknown_) return;
        reported_unknown_ = true;
        add(code::unknown_module_source, is_version_ ? "Unknown module version" : "Unknown module source",
            fmt::format("The {} of a module call is evaluated while modules are installed, when only literal values, "
                        "local values built from them and variables declared with const = true are known; {}.",
                        setting_name(), why),
            setting_.origin());
    }

    void add(std::string_view code, std::string summary, std::string detail, const Origin& at) {
        out_.push_back({code, std::move(summary), std::move(detail), at});
    }

    [[nodiscard]] std::string_view setting_name() const { return is_version_ ? "version" : "source"; }

    const Module& module_;
    Engine engine_;
    bool is_version_;
    const Expression& setting_;
    std::string call_name_;
    std::set<std::string, std::less<>> seen_locals_;
    bool reported_unknown_ = false;
    std::vector<StaticReferenceProblem> out_;
};

}  // namespace

StaticResult evaluate_static(const Expression& expr, const StaticScope& scope) {
    StaticEvaluator evaluator(scope);
    return evaluator.evaluate(expr);
}

StaticInputs static_arguments(const ModuleCall& call, const StaticScope& caller) {
    StaticInputs out;
    StaticEvaluator evaluator(caller);
    for (const auto& a : call.config.arguments) out.emplace(a.name, evaluator.evaluate(a.expr));
    return out;
}

std::vector<StaticReferenceProblem> static_reference_problems(const Module& module, const std::string& call_name,
                                                              const Expression& expr, Engine engine, bool is_version) {
    ReferenceChecker checker(module, call_name, engine, is_version, expr);
    checker.check(expr, true);
    return checker.take();
}

}  // namespace tfsift::config
