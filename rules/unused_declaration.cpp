// unused-declaration: a variable, local value or data source that nothing in
// its module refers to.
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/name_hash.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

// The names as written in the module's expressions (views into its
// sources, which outlive the check).
struct Used {
    NameSet variables;
    NameSet locals;
    std::set<std::pair<std::string_view, std::string_view>> data;  // TYPE, NAME
};

// The name of the attribute step `i` of a traversal, or empty.
std::string_view attr_step(const hcl::ScopeTraversalExpr& t, std::size_t i) {
    if (i >= t.steps.size() || t.steps[i].kind != hcl::StepKind::attr) return {};
    return t.steps[i].name;
}

Used used_in(const LintContext& ctx) {
    Used used;
    const auto index = written::expression_index(ctx);
    // Mostly the declared names are what is used.
    if (ctx.tree != nullptr && ctx.tree->root != nullptr) {
        used.variables.reserve(ctx.module().module->variables.size());
        used.locals.reserve(ctx.module().module->locals.size());
    }
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::scope_traversal)) {
        const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*node.expr);
        const std::string_view name = attr_step(t, 0);
        if (name.empty()) continue;
        if (t.root == "var") {
            // A variable's own validation refers to it without using it.
            const written::ExpressionSite& site = index->root_of(node).site;
            if (site.block_type == "variable" && site.block_label == name) continue;
            used.variables.insert(name);
        } else if (t.root == "local") {
            used.locals.insert(name);
        } else if (t.root == "data") {
            const std::string_view data_name = attr_step(t, 1);
            if (!data_name.empty()) used.data.insert({name, data_name});
        }
    }
    return used;
}

// The headers of the module's declarations (the block's `variable` keyword,
// or a local's expression), as the files' decoded blocks record them, by
// where they start: built once per check, so that each finding costs a
// lookup rather than a pass over every declaration.
class DeclaredRanges {
public:
    explicit DeclaredRanges(const LintContext& ctx) {
        for (const auto& file : ctx.files()) {
            const SourceFile* source = file.parsed->source.get();
            for (const auto& [l, decl] : file.decoded->locals) {
                locals_.emplace(Key{source, l.expr.range.start.byte}, decl.def_range);
            }
            // A variable wins over a resource at the same place, as it did
            // when they were searched in this order.
            for (const auto& [v, decl] : file.decoded->variables) {
                blocks_.emplace(Key{source, v.origin.pos.byte}, decl.def_range);
            }
            for (const auto& [r, decl] : file.decoded->resources) {
                blocks_.emplace(Key{source, r.origin.pos.byte}, decl.def_range);
            }
        }
    }

    [[nodiscard]] Range of(const config::Origin& origin, bool local) const {
        const Key key{origin.file, origin.pos.byte};
        if (local) {
            if (auto it = locals_.find(key); it != locals_.end()) return it->second;
        }
        if (auto it = blocks_.find(key); it != blocks_.end()) return it->second;
        return Range{origin.pos, origin.pos};
    }

private:
    using Key = std::pair<const SourceFile*, std::uint32_t>;
    struct KeyHash {
        std::size_t operator()(const Key& k) const noexcept {
            return std::hash<const void*>{}(k.first) ^ (std::hash<std::uint32_t>{}(k.second) * 0x9E3779B97F4A7C15ULL);
        }
    };
    std::unordered_map<Key, Range, KeyHash> locals_;
    std::unordered_map<Key, Range, KeyHash> blocks_;
};

void report(const LintContext& ctx, FindingSink& sink, const DeclaredRanges& ranges, const config::Origin& origin,
            bool local, std::string message) {
    Finding f;
    f.rule_id = "unused-declaration";
    f.severity = Severity::warning;
    f.file = ctx.shared_source(origin.file);
    if (!f.file) return;
    f.range = ranges.of(origin, local);
    f.message = std::move(message);
    sink.report(std::move(f));
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::Module& m = *ctx.module().module;
    const Used used = used_in(ctx);
    std::optional<DeclaredRanges> ranges;  // built at the first finding
    auto declared = [&]() -> const DeclaredRanges& {
        if (!ranges) ranges.emplace(ctx);
        return *ranges;
    };
    for (const auto& [name, v] : m.variables) {
        if (used.variables.contains(name)) continue;
        report(ctx, sink, declared(), v.origin, false, fmt::format("variable \"{}\" is declared but not used", name));
    }
    for (const auto& [name, l] : m.locals) {
        if (used.locals.contains(name)) continue;
        report(ctx, sink, declared(), l.expr.origin(), true,
               fmt::format("local value \"{}\" is defined but not used", name));
    }
    for (const auto& [key, d] : m.data) {
        if (used.data.count({d.type, d.name}) != 0) continue;
        report(ctx, sink, declared(), d.origin, false,
               fmt::format("data \"{}\" \"{}\" is declared but not used", d.type, d.name));
    }
}

}  // namespace

Rule unused_declaration() {
    Rule r;
    r.id = "unused-declaration";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A variable, local value or data source is declared but nothing in its module refers to it.";
    r.doc.what =
        "Reports each `variable`, each local value and each `data` block of a module that no expression in the "
        "module's own files refers to (`var.NAME`, `local.NAME`, `data.TYPE.NAME`), in any block: resources, "
        "outputs, module calls, `check`, `import` and `action` blocks included. A variable's own `validation` "
        "does not count as a use. Files of other modules, `.tftest.hcl` and `.tfquery.hcl` files do not count "
        "either. TFLint calls this `terraform_unused_declarations`.";
    r.doc.why =
        "An unused declaration is dead configuration: readers look for its effect and find none, a variable "
        "asks callers for a value that changes nothing, and an unused data source still reads from the "
        "provider on every plan.";
    r.doc.failing_example = R"hcl(variable "region" {
  type = string
}

locals {
  name = "web"
}
)hcl";
    r.doc.passing_example = R"hcl(variable "region" {
  type = string
}

output "region" {
  value = var.region
}
)hcl";
    r.doc.fix_safety = "Not fixable: remove the declaration, or use it, yourself.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
