// unused-required-provider: a required_providers entry that nothing uses.
#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/provider_local_name_uses.hpp"
#include "support/written_expressions.hpp"
#include "support/written_provider_requirements.hpp"
#include "tfsift/config/query_file.hpp"
#include "tfsift/config/tree_requirements.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

// The local names of provider-defined functions (`provider::NAME::fn`)
// called anywhere in the module's files, and the providers implied by the
// resource types that `moved`, `removed` and `import` blocks name: a
// resource that left the configuration still needs its provider to be
// moved, forgotten or destroyed.
std::set<std::string, std::less<>> providers_named_in_expressions(const LintContext& ctx) {
    std::set<std::string, std::less<>> out;
    const auto index = written::expression_index(ctx);
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::scope_traversal)) {
        const std::string_view block = index->root_of(node).site.block_type;
        if (block != "moved" && block != "removed" && block != "import") continue;
        std::string_view type = hcl::as<hcl::ScopeTraversalExpr>(*node.expr).root;
        if (type != "module" && type != "data" && type != "each" && type != "count" && type != "var" &&
            type != "local") {
            out.emplace(type.substr(0, type.find('_')));
        }
    }
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::function_call)) {
        std::string_view name = hcl::as<hcl::FunctionCallExpr>(*node.expr).name;
        if (!name.starts_with("provider::")) continue;
        name.remove_prefix(10);
        out.emplace(name.substr(0, name.find("::")));
    }
    return out;
}

// The providers the modules below `module` use by their own names: a child
// inherits its caller's default configurations, so an entry of the caller
// may be there only to constrain the version a child uses.
void used_below(const config::LoadedModule& module, Engine engine, std::set<providers::Provider>& out) {
    for (const auto& [name, child] : module.children) {
        // Most uses (one per resource) repeat a few names: each is resolved once.
        std::vector<std::string_view> names;
        auto add = [&names](std::string_view local) {
            if (std::find(names.begin(), names.end(), local) == names.end()) names.push_back(local);
        };
        const auto uses = provider_uses(child);
        for (const auto& use : *uses) add(use.local_name);
        for (const auto& [local, req] : child.module->terraform.required_providers) add(local);
        for (std::string_view local : names) {
            if (auto p = config::resolve_local_name(*child.module, local, engine)) out.insert(*p);
        }
        used_below(child, engine, out);
    }
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    const config::Module& m = *module.module;
    if (m.terraform.required_providers.empty()) return;
    // A call not followed (a remote source not installed, a dynamic source)
    // may use any of them.
    for (const auto& [name, call] : m.module_calls) {
        if (module.children.count(name) == 0) return;
    }
    std::set<std::string, std::less<>> used;
    const auto uses = provider_uses(module);
    for (const auto& use : *uses) used.insert(use.local_name);
    for (auto& name : providers_named_in_expressions(ctx)) used.insert(name);
    if (m.terraform.state_store) used.insert(m.terraform.state_store_provider);
    // `terraform query` runs the list blocks of the module's query files with
    // the providers they name.
    for (const auto& q : ctx.tree->query_files) {
        for (const auto& l : q.decoded->lists) {
            if (l.provider) used.insert(l.provider->substr(0, l.provider->find('.')));
        }
    }
    // provider_meta "NAME" sends module metadata to that provider.
    for (const auto& [name, meta] : m.terraform.provider_meta) used.insert(name);
    std::set<providers::Provider> below;
    used_below(module, ctx.engine, below);
    const auto written = written_provider_requirements(ctx);
    for (const auto& [name, req] : m.terraform.required_providers) {
        if (used.count(name) != 0) continue;
        auto provider = config::resolve_local_name(m, name, ctx.engine);
        if (!provider || provider->is_builtin(ctx.engine)) continue;
        if (below.count(*provider) != 0) continue;
        const WrittenRequirement* w = written_entry_for(written, req);
        if (w == nullptr) continue;
        Finding f;
        f.rule_id = "unused-required-provider";
        f.severity = Severity::warning;
        f.file = w->file->parsed->source;
        f.range = w->name_range;
        f.message =
            fmt::format("provider \"{}\" is required but nothing in this module or the modules it calls uses it", name);
        sink.report(std::move(f));
    }
}

}  // namespace

Rule unused_required_provider() {
    Rule r;
    r.id = "unused-required-provider";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A `required_providers` entry names a provider that nothing uses.";
    r.doc.what =
        "Reports each entry of a module's `required_providers` whose local name no resource, data source, "
        "ephemeral resource, action, `provider` block, `provider` argument, module `providers` map, "
        "provider-defined function (`provider::NAME::fn`), `provider_meta` block, resource type named in a `moved`, "
        "`removed` or `import` block, `state_store`, or `list` block of its query files (`*.tfquery.hcl`, "
        "which `terraform query` runs with that provider) uses, and whose "
        "provider no module it calls (loaded from a local path or `.terraform/modules`) uses or requires "
        "either: a caller's entry that constrains the version its children use is a use. The built-in "
        "`terraform` provider is left out. TFLint calls this `terraform_unused_required_providers`.";
    r.doc.why =
        "`terraform init` installs every required provider, and the lock file records it: an unused entry "
        "costs a download on every fresh checkout and suggests a dependency that does not exist.";
    r.doc.failing_example = R"hcl(terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
  }
}

resource "random_id" "suffix" {
  byte_length = 4
}
)hcl";
    r.doc.fix_safety = "Not fixable: remove the entry yourself (and run `terraform init` to update the lock file).";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
