// module-provider-config-meta: a module call uses `count`, `for_each`,
// `enabled` (OpenTofu) or `depends_on` while the called module, or a module below it, configures a
// provider of its own.
#include <fmt/format.h>

#include <optional>

#include "support/factories.hpp"
#include "support/module_providers.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

// The argument Terraform blames, in its order of preference, with the file
// it was written in.
struct MetaArgument {
    std::string_view name;
    const SourceFile* file = nullptr;
    Range range;
};

std::optional<MetaArgument> meta_argument(const config::ModuleCall& call) {
    if (call.count) return MetaArgument{"count", call.count->file, call.count->range};
    if (call.for_each) return MetaArgument{"for_each", call.for_each->file, call.for_each->range};
    // OpenTofu v1.11.4 refuses its `enabled` too (only OpenTofu decodes it).
    if (call.enabled) return MetaArgument{"enabled", call.enabled->file, call.enabled->range};
    if (!call.depends_on.empty()) {
        const auto& first = call.depends_on.front();
        return MetaArgument{"depends_on", first.file, first.range};
    }
    return std::nullopt;
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    for (const auto& [name, call] : module.module->module_calls) {
        auto meta = meta_argument(call);
        if (!meta || meta->file == nullptr) continue;
        auto child = module.children.find(name);
        if (child == module.children.end()) continue;  // not loaded: nothing to inspect
        auto configured = module_providers::configured_providers_below(child->second);
        if (configured.empty()) continue;
        const auto& [holder, provider] = configured.front();
        Finding f;
        f.rule_id = "module-provider-config-meta";
        f.severity = Severity::error;
        f.file = ctx.shared_source(meta->file);
        f.range = meta->range;
        std::string where = fmt::format("{} (directory {})", holder->address, holder->dir);
        f.message = fmt::format(
            "module \"{}\": `{}` cannot be used with a module that contains its own provider configuration "
            "(provider \"{}\" in {}); pass the configuration in from the caller instead",
            name, meta->name, provider->key(), where);
        for (const auto& [m, p] : configured) {
            auto declared = module_providers::provider_declaration(*m, p->origin);
            if (declared.file == nullptr) continue;
            f.related.push_back({ctx.shared_source(declared.file->decoded->source), declared.def_range,
                                 "provider configuration inside the called module"});
        }
        sink.report(std::move(f));
    }
}

}  // namespace

Rule module_provider_config_meta() {
    Rule r;
    r.id = "module-provider-config-meta";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A module call uses count, for_each or depends_on although the module configures a provider.";
    r.doc.what =
        "Reports a module call that sets `count`, `for_each`, OpenTofu's `lifecycle { enabled }` (v1.11.4) or "
        "`depends_on` (at that argument, preferring them in that order as Terraform and OpenTofu do) when the called module, or any module below it, contains a `provider` "
        "block that configures something. Empty proxy blocks do not count. Every such provider block is listed "
        "as a related location. "
        "Remote modules are checked when installed in `.terraform/modules` or in the module cache; a call whose "
        "module is not loaded is reported by `module-not-loaded` instead.";
    r.doc.why =
        "Terraform rejects such a call: \"Module is incompatible with count, for_each, and depends_on\" "
        "(OpenTofu also lists its `enabled` argument). The documentation calls a module with provider "
        "configurations of its own a legacy module; such a module cannot be repeated or made to wait for other "
        "objects. Provider configurations belong in the root module, which passes them to the module.";
    r.doc.failing_example = R"hcl(module "bucket" {
  source = "./bucket"   # ./bucket has provider "aws" { region = "us-west-2" }
  count  = 2
}
)hcl";
    r.doc.passing_example = R"hcl(provider "aws" {
  region = "us-west-2"
}

module "bucket" {
  source = "./bucket"   # ./bucket has no provider block of its own
  count  = 2
}
)hcl";
    r.doc.fix_safety = "Not fixable: the provider configuration has to move out of the called module.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
