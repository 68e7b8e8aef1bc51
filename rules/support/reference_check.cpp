// Reference checks in the order Terraform makes them: the reference's shape
// (addrs.ParseRef), then the static validation of what it names
// (evaluate_valid.go), then the lookups of the evaluation (evaluate.go) and
// hcl's attribute access on the value's type.
#include "reference_check.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "expression_sites.hpp"
#include "name_hash.hpp"
#include "name_suggestion.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/providers/core_version.hpp"

namespace tfsift::lint {

namespace {

using hcl::ScopeTraversalExpr;
using hcl::StepKind;
using hcl::TraversalStep;

std::string go_quoted(std::string_view s) { return hcl::render_json_string(s); }

// A resource the module declares, in any mode.
struct Declared {
    bool repeated = false;              // count or for_each
    const hcl::Block* check = nullptr;  // a data source nested in this check block
};

const hcl::Attribute* attribute(const hcl::Body& body, std::string_view name) {
    for (const hcl::Attribute& a : body.attributes) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

std::string_view step_name(const TraversalStep& s) { return s.name; }
bool is_attr(const TraversalStep& s) { return s.kind == StepKind::attr; }

constexpr std::size_t not_found = static_cast<std::size_t>(-1);

// Where each of a list's names is, found by hashing: every reference's name
// is looked up, and a module may declare thousands of variables (a binary
// search compared a dozen names with long common prefixes for each).
class NameIndex {
public:
    // `names` are distinct, and outlive the index.
    void build(const std::vector<std::string_view>& names) {
        names_ = &names;
        std::size_t size = 8;
        while (size < names.size() * 2) size *= 2;
        slots_.assign(size, empty);
        for (std::size_t i = 0; i < names.size(); ++i) {
            std::size_t at = hash(names[i]) & (size - 1);
            while (slots_[at] != empty) at = (at + 1) & (size - 1);
            slots_[at] = static_cast<std::uint32_t>(i);
        }
    }

    // Where `name` is in the list, or not_found.
    [[nodiscard]] std::size_t find(std::string_view name) const {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t at = hash(name) & mask;; at = (at + 1) & mask) {
            const std::uint32_t i = slots_[at];
            if (i == empty) return not_found;
            if ((*names_)[i] == name) return i;
        }
    }

private:
    static constexpr std::uint32_t empty = static_cast<std::uint32_t>(-1);
    static std::size_t hash(std::string_view s) { return NameHash{}(s); }

    const std::vector<std::string_view>* names_ = nullptr;
    std::vector<std::uint32_t> slots_;  // indices into *names_, `empty` where none
};

class ReferenceChecker {
public:
    explicit ReferenceChecker(const LintContext& ctx) : ctx_(ctx), m_(*ctx.module().module) {
        engine_ = ctx.engine;
        module_name_ = ctx.role == ModuleRole::root ? "the root module" : "this module";
        for (const auto& [key, r] : m_.resources) managed_[key] = {r.count || r.for_each, nullptr};
        for (const auto& [key, r] : m_.data) data_[key] = {r.count || r.for_each, nullptr};
        // Ephemeral resources and data sources nested in check blocks are not
        // part of the model: read them off the files.
        for (const config::ModuleFile& file : ctx.module().files) {
            if (!file.parsed->native) {
                json_files_ = true;
                continue;
            }
            for (const hcl::Block& b : file.parsed->native->body->blocks) {
                if (b.type == "ephemeral" && b.labels.size() == 2) {
                    ephemeral_[own(fmt::format("{}.{}", std::string_view(b.labels[0].value),
                                               std::string_view(b.labels[1].value)))] = {
                        attribute(b.body, "count") || attribute(b.body, "for_each"), nullptr};
                } else if (b.type == "check") {
                    for (const hcl::Block& inner : b.body.blocks) {
                        if (inner.type != "data" || inner.labels.size() != 2) continue;
                        auto key = fmt::format("{}.{}", std::string_view(inner.labels[0].value),
                                               std::string_view(inner.labels[1].value));
                        data_.try_emplace(
                            own(std::move(key)),
                            Declared{attribute(inner.body, "count") || attribute(inner.body, "for_each"), &b});
                    }
                }
            }
        }
        // In the maps' order (name suggestions go through them in it), and
        // looked up through a hash index, with no key to build.
        for (const auto& [name, v] : m_.variables) {
            variable_names_.push_back(name);
            variables_.push_back(&v);
        }
        for (const auto& [name, l] : m_.locals) local_names_.push_back(name);
        for (const auto& [name, c] : m_.module_calls) {
            module_names_.push_back(name);
            module_calls_.push_back(&c);
        }
        variable_index_.build(variable_names_);
        local_index_.build(local_names_);
        module_index_.build(module_names_);
        remote_backend_ = workspace_warning_applies();
    }

    // A key kept as long as the checker, for the maps of declared resources.
    std::string_view own(std::string key) { return owned_keys_.emplace_back(std::move(key)); }

    std::vector<ReferenceProblem> run() {
        for_each_expression(ctx_.module(), [this](const ExpressionSite& site, const ExpressionScope& scope) {
            file_ = site.file->parsed->source.get();
            site_ = &site;
            current_check_ = scope.check;
            // OpenTofu evaluates a module's source and version statically.
            static_ = engine_ == Engine::opentofu && scope.block_type == "module" &&
                      (site.argument == "source" || site.argument == "version");
            if (site.role == SiteRole::depends_on) {
                depends_on(*site.expr, scope);
                return;
            }
            // Most arguments are constants: nothing to look for.
            if (constant(*site.expr)) return;
            guarded_.clear();
            if (mentions_try_or_can(*site.expr)) {
                guard(*site.expr);
            }
            refs_.clear();
            hcl::append_referenced_traversals(*site.expr, refs_);
            for (const ScopeTraversalExpr* t : refs_) check(*t, scope);
        });
        return std::move(problems_);
    }

private:
    // A literal, or a string of literal parts only: it refers to nothing.
    static bool constant(const hcl::Expr& e) {
        if (e.kind == hcl::ExprKind::literal) return true;
        if (e.kind != hcl::ExprKind::template_) return false;
        for (const hcl::Expr* part : hcl::as<hcl::TemplateExpr>(e).parts) {
            if (part->kind != hcl::ExprKind::literal) return false;
        }
        return true;
    }

    // Whether the expression's text may call try() or can(); most do not,
    // and looking for the calls costs a walk of the expression.
    bool mentions_try_or_can(const hcl::Expr& e) const {
        const std::string_view text = site_->text->text();
        if (e.range.end.byte > text.size() || e.range.start.byte >= e.range.end.byte) return false;
        const std::string_view source = text.substr(e.range.start.byte, e.range.end.byte - e.range.start.byte);
        // A call is its name, then its parenthesis, with spaces or tabs
        // between at most: each parenthesis is looked behind. A line break
        // or the end of a comment before one leaves the name to the two
        // searches of the whole text.
        for (std::size_t open = source.find('('); open != std::string_view::npos; open = source.find('(', open + 1)) {
            std::size_t end = open;
            while (end > 0 && (source[end - 1] == ' ' || source[end - 1] == '\t')) --end;
            if (end >= 3) {
                const std::string_view name = source.substr(end - 3, 3);
                if (name == "try" || name == "can") return true;
            }
            if (end > 0 && (source[end - 1] == '\n' || source[end - 1] == '\r' || source[end - 1] == '/')) {
                return source.find("try") != std::string_view::npos || source.find("can") != std::string_view::npos;
            }
        }
        return false;
    }

    // Remembers the traversals inside try() and can() calls of `e`.
    void guard(const hcl::Expr& e) {
        calls_.clear();
        append_function_calls(e, calls_);
        for (const hcl::FunctionCallExpr* call : calls_) {
            const std::string_view fn = call->name;
            if (fn != "try" && fn != "can" && fn != "core::try" && fn != "core::can") continue;
            for (const hcl::Expr* arg : call->args) hcl::append_referenced_traversals(*arg, guarded_);
        }
        // Looked up by binary search. Nested calls list a traversal once for
        // each call around it: kept once.
        std::sort(guarded_.begin(), guarded_.end(), std::less<>());
        guarded_.erase(std::unique(guarded_.begin(), guarded_.end()), guarded_.end());
    }

    [[nodiscard]] bool guarded(const ScopeTraversalExpr& t) const {
        return std::binary_search(guarded_.begin(), guarded_.end(), &t, std::less<>());
    }

    void report(ReferenceProblemKind kind, std::string summary, std::string detail, Range range,
                Severity severity = Severity::error) {
        problems_.push_back({kind, severity, std::move(summary), std::move(detail), file_, site_->file_range(range)});
    }
    void invalid(std::string summary, std::string detail, Range range) {
        report(ReferenceProblemKind::invalid, std::move(summary), std::move(detail), range);
    }
    void undeclared(std::string summary, std::string detail, Range range) {
        report(ReferenceProblemKind::undeclared, std::move(summary), std::move(detail), range);
    }

    static Range through(const ScopeTraversalExpr& t, std::size_t steps) {
        if (steps == 0 || t.steps.empty()) return t.root_range();
        return Range{t.range.start, t.steps[std::min(steps, t.steps.size()) - 1].range.end};
    }

    // Terraform's `depends_on`: each item names a whole object; the object
    // must be declared.
    // A native `depends_on` list, or one item of a JSON file's list.
    void depends_on(const hcl::Expr& list, const ExpressionScope& scope) {
        std::vector<const hcl::Expr*> items;
        if (list.kind == hcl::ExprKind::tuple) {
            for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(list).items) items.push_back(item);
        } else if (list.kind == hcl::ExprKind::scope_traversal && site_->json_string != nullptr) {
            items.push_back(&list);
        } else {
            return;  // the loader reports it
        }
        for (const hcl::Expr* item : items) {
            if (item->kind != hcl::ExprKind::scope_traversal) continue;  // the loader reports it
            const auto& t = hcl::as<ScopeTraversalExpr>(*item);
            // Terraform's loader refuses an action here ("Invalid depends_on
            // Action Reference"), and stops.
            if (t.root == "action" && engine_ == Engine::terraform) continue;
            std::size_t whole = object_length(t);
            if (whole == 0 || whole > t.steps.size()) {
                check(t, scope);
                continue;
            }
            if (whole < t.steps.size()) {
                invalid("Invalid depends_on reference",
                        "References in depends_on must be to a whole object (resource, etc), not to an attribute "
                        "of an object.",
                        Range{t.steps[whole].range.start, t.range.end});
                continue;
            }
            check(t, scope);
        }
    }

    // How many steps after the root name the object a depends_on item names
    // takes (`module.x[0]` 2, `aws_instance.web[0]` 2, `data.a.b` 2), or 0
    // when the root names no object.
    static std::size_t object_length(const ScopeTraversalExpr& t) {
        const std::string_view root = t.root;
        std::size_t n = 0;
        if (root == "module") {
            // module.NAME, an instance key, and an output: a whole object.
            n = 1;
            if (n < t.steps.size() && !is_attr(t.steps[n])) ++n;
            if (n < t.steps.size() && is_attr(t.steps[n])) ++n;
            return n;
        } else if (root == "data" || root == "ephemeral" || root == "resource") {
            n = 2;
        } else if (root == "var" || root == "local") {
            n = 1;
            return n;
        } else if (root == "count" || root == "each" || root == "self" || root == "path" || root == "terraform") {
            return 0;
        } else {
            n = 1;
        }
        if (n < t.steps.size() && !is_attr(t.steps[n])) ++n;  // an instance key
        return n;
    }

    void check(const ScopeTraversalExpr& t, const ExpressionScope& scope) {
        const std::string_view root = t.root;
        for (std::string_view it : scope.iterators) {
            if (it == root) return;
        }
        if (root == "var") return variable(t);
        if (root == "local") return local(t);
        if (root == "module") return module(t);
        if (root == "count") return count(t, scope);
        if (root == "each") return each(t, scope);
        if (root == "self") return self(t, scope);
        if (root == "path") return path(t);
        if (root == "terraform" || (root == "tofu" && engine_ == Engine::opentofu)) return terraform(t);
        if (root == "data") return resource(t, 1, data_, "data", "a data source");
        if (root == "ephemeral") return resource(t, 1, ephemeral_, "ephemeral", "an ephemeral resource");
        if (root == "resource") return resource(t, 1, managed_, "managed", "a resource type");
        if (root == "template" || root == "lazy" || root == "arg") {
            invalid("Reserved symbol name",
                    fmt::format("The symbol name {} is reserved for use in a future {} version. If you are using a "
                                "provider that already uses this as a resource type name, add the prefix "
                                "\"resource.\" to force interpretation as a resource type name.",
                                go_quoted(root), product_name(engine_)),
                    t.root_range());
            return;
        }
        // Type keywords are not references (convert's type argument, ...).
        if (root == "string" || root == "number" || root == "bool" || root == "any") return;
        resource(t, 0, managed_, "managed", "a resource type");
    }

    // var, local: `NAME.` followed by an attribute.
    // Whether the traversal's first step is an attribute (nearly every
    // one's is: told inline), else reported.
    bool single_attr(const ScopeTraversalExpr& t) {
        if (!t.steps.empty() && is_attr(t.steps[0])) return true;
        return not_single_attr(t);
    }

    [[gnu::noinline]] bool not_single_attr(const ScopeTraversalExpr& t) {
        if (t.steps.empty()) {
            invalid("Invalid reference",
                    fmt::format("The {} object cannot be accessed directly. Instead, access one of its attributes.",
                                go_quoted(t.root)),
                    t.root_range());
            return false;
        }
        if (!is_attr(t.steps[0])) {
            invalid("Invalid reference",
                    fmt::format("The {} object does not support this operation.", go_quoted(t.root)), t.steps[0].range);
            return false;
        }
        return true;
    }

    void variable(const ScopeTraversalExpr& t) {
        if (!single_attr(t)) return;
        const std::string_view name = step_name(t.steps[0]);
        const std::size_t at = variable_index_.find(name);
        if (at == not_found && static_) {
            undeclared("Undefined variable", fmt::format("Undefined variable var.{}", name), through(t, 1));
            return;
        }
        if (at == not_found) {
            std::string hint = name_suggestion(name, variable_names_);
            undeclared("Reference to undeclared input variable",
                       fmt::format("An input variable with the name {} has not been declared.{}", go_quoted(name),
                                   hint.empty() ? fmt::format(" This variable can be declared with a variable {} {{}} "
                                                              "block.",
                                                              go_quoted(name))
                                                : fmt::format(" Did you mean {}?", go_quoted(hint))),
                       through(t, 1));
            return;
        }
        // During validate a variable is an unknown value of its declared
        // type: hcl still refuses attributes the type cannot have.
        type_access(t, 1, variables_[at]->constraint_type);
    }

    void type_access(const ScopeTraversalExpr& t, std::size_t from, const cty::Type& declared) {
        // try() and can() catch what evaluation finds wrong with a value.
        if (guarded(t)) return;
        // Followed by pointer: the types belong to the declaration, and a
        // copy of one at each step would update its shared count twice.
        const cty::Type* type = &declared;
        for (std::size_t i = from; i < t.steps.size(); ++i) {
            const TraversalStep& s = t.steps[i];
            if (type->is_dynamic()) return;
            if (is_attr(s)) {
                if (type->is_primitive()) {
                    invalid(
                        "Unsupported attribute",
                        fmt::format("Can't access attributes on a primitive-typed value ({}).", type->friendly_name()),
                        s.range);
                    return;
                }
                if (type->is_object()) {
                    const auto& attributes = type->attributes();
                    const auto it = attributes.find(step_name(s));
                    if (it == attributes.end()) {
                        invalid(
                            "Unsupported attribute",
                            fmt::format("This object does not have an attribute named {}.", go_quoted(step_name(s))),
                            s.range);
                        return;
                    }
                    type = &it->second;
                    continue;
                }
                if (type->is_map()) {
                    type = &type->element();
                    continue;
                }
                return;  // lists, sets and tuples: left to hcl's finer messages
            }
            // An index.
            if (type->is_list() || type->is_map()) {
                type = &type->element();
                continue;
            }
            return;
        }
    }

    void local(const ScopeTraversalExpr& t) {
        if (!single_attr(t)) return;
        const std::string_view name = step_name(t.steps[0]);
        if (local_index_.find(name) != not_found) return;
        std::string hint = name_suggestion(name, local_names_);
        undeclared("Reference to undeclared local value",
                   fmt::format("A local value with the name {} has not been declared.{}", go_quoted(name),
                               hint.empty() ? std::string() : fmt::format(" Did you mean {}?", go_quoted(hint))),
                   through(t, 1));
    }

    void module(const ScopeTraversalExpr& t) {
        if (!single_attr(t)) return;
        const std::string_view name = step_name(t.steps[0]);
        const std::size_t found = module_index_.find(name);
        if (found == not_found) {
            std::string hint = name_suggestion(name, module_names_);
            undeclared("Reference to undeclared module",
                       fmt::format("No module call named {} is declared in {}.{}", go_quoted(name), module_name_,
                                   hint.empty() ? std::string() : fmt::format(" Did you mean {}?", go_quoted(hint))),
                       through(t, 1));
            return;
        }
        // module.NAME is an object of the called module's outputs (a list or
        // map of them with count or for_each).
        std::size_t at = 1;
        const config::ModuleCall& call = *module_calls_[found];
        if (call.count || call.for_each) {
            if (at >= t.steps.size() || is_attr(t.steps[at])) return;
            ++at;
        }
        if (at >= t.steps.size() || !is_attr(t.steps[at])) return;
        if (guarded(t)) return;  // try() and can() catch it
        const auto& children = ctx_.module().children;
        auto child = children.find(std::string(name));
        if (child == children.end() || child->second.files.empty()) return;  // not loaded: nothing to compare with
        const std::string_view output = step_name(t.steps[at]);
        if (child->second.module->outputs.count(std::string(output)) != 0) return;
        undeclared("Unsupported attribute",
                   fmt::format("This object does not have an attribute named {}.", go_quoted(output)),
                   t.steps[at].range);
    }

    void count(const ScopeTraversalExpr& t, const ExpressionScope& scope) {
        if (t.steps.empty() || !is_attr(t.steps[0])) {
            single_attr(t);
            return;
        }
        if (step_name(t.steps[0]) != "index") {
            invalid("Invalid \"count\" attribute",
                    fmt::format("The \"count\" object does not have an attribute named {}. The only supported "
                                "attribute is count.index, which is the index of each instance of a resource block "
                                "that has the \"count\" argument set.",
                                go_quoted(step_name(t.steps[0]))),
                    through(t, 1));
            return;
        }
        if (scope.count) return;
        invalid("Reference to \"count\" in non-counted context",
                "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only "
                "when the \"count\" argument is set.",
                through(t, 1));
    }

    void each(const ScopeTraversalExpr& t, const ExpressionScope& scope) {
        if (t.steps.empty() || !is_attr(t.steps[0])) {
            single_attr(t);
            return;
        }
        const std::string_view name = step_name(t.steps[0]);
        if (name != "key" && name != "value") {
            invalid("Invalid \"each\" attribute",
                    fmt::format("The \"each\" object does not have an attribute named {}. The supported attributes "
                                "are each.key and each.value, the current key and value pair of the \"for_each\" "
                                "attribute set.",
                                go_quoted(name)),
                    through(t, 1));
            return;
        }
        if (scope.for_each) return;
        if (name == "value") {
            invalid("each.value cannot be used in this context",
                    "A reference to \"each.value\" has been used in a context in which it is unavailable, such as "
                    "when the configuration no longer contains the value in its \"for_each\" expression. Remove this "
                    "reference to each.value in your configuration to work around this error.",
                    through(t, 1));
            return;
        }
        invalid("Reference to \"each\" in context without for_each",
                "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the "
                "\"for_each\" argument is set.",
                through(t, 1));
    }

    void self(const ScopeTraversalExpr& t, const ExpressionScope& scope) {
        if (scope.self) return;
        invalid("Invalid \"self\" reference",
                "The \"self\" object is not available in this context. This object can be used only in resource "
                "provisioner, connection, and postcondition blocks.",
                t.root_range());
    }

    void path(const ScopeTraversalExpr& t) {
        if (!single_attr(t)) return;
        const std::string_view name = step_name(t.steps[0]);
        if (name == "module" || name == "root" || name == "cwd") return;
        std::string hint = name_suggestion(name, {"cwd", "module", "root"});
        invalid("Invalid \"path\" attribute",
                fmt::format("The \"path\" object does not have an attribute named {}.{}", go_quoted(name),
                            hint.empty() ? std::string() : fmt::format(" Did you mean {}?", go_quoted(hint))),
                through(t, 1));
    }

    void terraform(const ScopeTraversalExpr& t) {
        if (!single_attr(t)) return;
        const std::string_view root = t.root;
        const std::string_view name = step_name(t.steps[0]);
        if (name == "workspace") {
            if (remote_backend_) {
                report(ReferenceProblemKind::workspace_remote, "terraform.workspace with a remote backend",
                       "With the \"remote\" backend and remote operations, Terraform releases before v1.1 evaluate "
                       "terraform.workspace as \"default\" on the remote side, whatever workspace is selected; use a "
                       "variable set per workspace instead.",
                       through(t, 1), Severity::warning);
            }
            return;
        }
        if (name == "applying") return;
        if (name == "env") {
            invalid(
                fmt::format("Invalid {} attribute", go_quoted(root)),
                fmt::format("The {0}.env attribute was deprecated in v0.10 and removed in v0.12. The \"state "
                            "environment\" concept was renamed to \"workspace\" in v0.12, and so the workspace name "
                            "can now be accessed using the {0}.workspace attribute.",
                            root),
                through(t, 1));
            return;
        }
        invalid(fmt::format("Invalid {} attribute", go_quoted(root)),
                fmt::format("The {} object does not have an attribute named {}. The only supported attributes are "
                            "{}.workspace and {}.applying",
                            go_quoted(root), go_quoted(name), root, root),
                through(t, 1));
    }

    // TYPE.NAME after `skip` leading names (`data.`, `ephemeral.`, `resource.`).
    void resource(const ScopeTraversalExpr& t, std::size_t skip, const std::map<std::string_view, Declared>& declared,
                  std::string_view mode, std::string_view article) {
        std::string_view type;
        std::size_t name_at = skip;
        if (skip == 0) {
            type = t.root;
            if (t.steps.empty()) {
                invalid("Invalid reference",
                        fmt::format("A reference to {} must be followed by at least one attribute access, specifying "
                                    "the resource name.",
                                    article),
                        t.root_range());
                return;
            }
        } else {
            const std::string_view root = t.root;
            if (t.steps.size() < 2 || !is_attr(t.steps[0])) {
                if (root == "data") {
                    invalid("Invalid reference",
                            "The \"data\" object must be followed by two attribute names: the data source type and "
                            "the resource name.",
                            t.range);
                } else if (root == "ephemeral") {
                    invalid("Invalid reference",
                            "The \"ephemeral\" object must be followed by two attribute names: the ephemeral resource "
                            "type and its name.",
                            t.range);
                } else {
                    invalid("Invalid reference",
                            "The \"resource\" object must be followed by two attribute names: the resource type and "
                            "the resource name.",
                            t.range);
                }
                return;
            }
            type = step_name(t.steps[0]);
            name_at = 1;
        }
        if (!is_attr(t.steps[name_at])) {
            invalid("Invalid reference",
                    fmt::format("A reference to {} must be followed by at least one attribute access, specifying the "
                                "resource name.",
                                article),
                    t.steps[name_at].range);
            return;
        }
        const std::string_view name = step_name(t.steps[name_at]);
        std::string& key = key_;
        key.assign(type).append(1, '.').append(name);
        const Range subject = through(t, name_at + 1);
        auto found = declared.find(key);
        if (found == declared.end()) {
            if (mode == "ephemeral" && json_files_) return;  // JSON files' ephemeral blocks are not read
            undeclared_resource(mode, type, name, key, subject);
            return;
        }
        const Declared& d = found->second;
        if (d.check != nullptr && d.check != current_check_) {
            // A data source of a check block is visible inside it only.
            undeclared("Reference to scoped resource",
                       fmt::format("The referenced {} resource {} {} is not available from this context.", mode,
                                   go_quoted(type), go_quoted(name)),
                       subject);
            return;
        }
        const std::size_t next = name_at + 1;
        if (next >= t.steps.size()) return;
        const std::string address = mode == "data" ? "data." + key : mode == "ephemeral" ? "ephemeral." + key : key;
        if (d.repeated && is_attr(t.steps[next])) {
            invalid(
                "Missing resource instance key",
                fmt::format("Because {0} has \"{1}\" set, its attributes must be accessed on specific instances.\n\n"
                            "For example, to correlate with indices of a referring resource, use:\n    {0}[{2}]",
                            address, count_of(mode, key) ? "count" : "for_each",
                            count_of(mode, key) ? "count.index" : "each.key"),
                Range{t.range.start, t.steps[next].range.end});
            return;
        }
        if (!d.repeated && !is_attr(t.steps[next])) {
            invalid("Unexpected resource instance key",
                    fmt::format("Because {} does not have \"count\" or \"for_each\" set, references to it must not "
                                "include an index key. Remove the bracketed index to refer to the single instance of "
                                "this resource.",
                                address),
                    t.steps[next].range);
            return;
        }
        if (!d.repeated && step_name(t.steps[next]) == "count" && mode != "ephemeral") {
            invalid("Invalid resource count attribute",
                    fmt::format("The special \"count\" attribute is no longer supported after {} v0.12. Instead, use "
                                "length({}) to count resource instances.",
                                product_name(engine_), address),
                    Range{t.range.start, t.steps[next].range.end});
        }
    }

    // Whether a repeated resource uses count (rather than for_each).
    bool count_of(std::string_view mode, const std::string& key) const {
        const auto& map = mode == "data" ? m_.data : m_.resources;
        auto it = map.find(key);
        return it != map.end() && it->second.count.has_value();
    }

    void undeclared_resource(std::string_view mode, std::string_view type, std::string_view name,
                             const std::string& key, Range subject) {
        // Suggest the same type and name in another mode.
        std::string hint;
        auto suggest = [&](const std::map<std::string_view, Declared>& other, std::string_view other_mode,
                           std::string_view prefix) {
            if (hint.empty() && other.count(key) != 0) {
                hint = fmt::format("\n\nDid you mean the {} resource {}{}?", other_mode, prefix, key);
            }
        };
        if (mode == "managed") {
            suggest(data_, "data", "data.");
            suggest(ephemeral_, "ephemeral", "ephemeral.");
        } else if (mode == "data") {
            suggest(managed_, "managed", "");
            suggest(ephemeral_, "ephemeral", "ephemeral.");
        } else {
            suggest(managed_, "managed", "");
            suggest(data_, "data", "data.");
        }
        std::string detail = engine_ == Engine::opentofu
                                 ? fmt::format("There is no {} resource {} {} definition in {}.{}", mode,
                                               go_quoted(type), go_quoted(name), module_name_, hint)
                                 : fmt::format("A {} resource {} {} has not been declared in {}.{}", mode,
                                               go_quoted(type), go_quoted(name), module_name_, hint);
        undeclared("Reference to undeclared resource", std::move(detail), subject);
    }

    // terraform.workspace misbehaves with the `remote` backend in Terraform
    // releases before v1.1 (TFLint's terraform_workspace_remote): the rule
    // applies when the release in use, or one that required_version allows,
    // is older.
    bool workspace_warning_applies() const {
        if (engine_ != Engine::terraform) return false;
        if (!m_.terraform.backend || m_.terraform.backend->type != "remote") return false;
        if (ctx_.settings != nullptr && ctx_.settings->engine_version) {
            auto v = providers::parse_core_version(*ctx_.settings->engine_version);
            return v && (v->segments[0] < 1 || (v->segments[0] == 1 && v->segments[1] < 1));
        }
        if (m_.terraform.required_version.empty()) return false;  // assumed recent, as TFLint does
        for (const char* old : {"1.0.11", "0.15.5", "0.14.11", "0.13.7", "0.12.31"}) {
            auto v = providers::parse_core_version(old);
            bool allowed = true;
            for (const config::RequiredVersion& rv : m_.terraform.required_version) {
                for (const std::string& c : rv.constraints) {
                    auto parsed = providers::parse_core_constraints(c);
                    if (parsed && !providers::core_constraints_allow(*parsed, *v)) allowed = false;
                }
            }
            if (allowed) return true;
        }
        return false;
    }

    const LintContext& ctx_;
    const config::Module& m_;
    Engine engine_ = Engine::terraform;
    std::string module_name_;
    std::map<std::string_view, Declared> managed_, data_, ephemeral_;
    std::deque<std::string> owned_keys_;  // the keys of ephemeral_ and data_ not in the model
    std::string key_;                     // TYPE.NAME of the resource reference being checked
    std::vector<std::string_view> variable_names_, local_names_, module_names_;  // in the maps' order
    NameIndex variable_index_, local_index_, module_index_;
    std::vector<const config::Variable*> variables_;       // in the order of variable_names_
    std::vector<const config::ModuleCall*> module_calls_;  // in the order of module_names_
    bool json_files_ = false;
    bool remote_backend_ = false;
    const SourceFile* file_ = nullptr;
    const ExpressionSite* site_ = nullptr;             // the expression being checked
    const hcl::Block* current_check_ = nullptr;        // the check block of the expression being checked
    bool static_ = false;                              // the expression is evaluated statically (OpenTofu)
    std::vector<const ScopeTraversalExpr*> guarded_;   // traversals inside try() or can(), sorted
    std::vector<const ScopeTraversalExpr*> refs_;      // those of the expression being checked
    std::vector<const hcl::FunctionCallExpr*> calls_;  // the calls of the expression being guarded
    std::vector<ReferenceProblem> problems_;
};

}  // namespace

std::vector<ReferenceProblem> reference_problems(const LintContext& ctx) {
    if (ctx.tree == nullptr || ctx.tree->root == nullptr) return {};
    // Three rules report these problems, one after the other on the same
    // module: the walk is made once. The module is recognised by its first
    // source file, held weakly so that a freed tree is never mistaken for a
    // new one at the same address.
    struct Cache {
        std::weak_ptr<const SourceFile> first;
        const config::LoadedTree* tree = nullptr;
        ModuleRole role = ModuleRole::root;
        Engine engine = Engine::terraform;
        const Settings* settings = nullptr;
        std::vector<ReferenceProblem> problems;
    };
    thread_local Cache cache;
    const auto& files = ctx.module().files;
    std::shared_ptr<const SourceFile> first = files.empty() ? nullptr : files.front().parsed->source;
    if (first != nullptr && cache.first.lock() == first && cache.tree == ctx.tree && cache.role == ctx.role &&
        cache.engine == ctx.engine && cache.settings == ctx.settings) {
        return cache.problems;
    }
    std::vector<ReferenceProblem> problems = ReferenceChecker(ctx).run();
    if (first != nullptr) cache = Cache{first, ctx.tree, ctx.role, ctx.engine, ctx.settings, problems};
    return problems;
}

}  // namespace tfsift::lint
