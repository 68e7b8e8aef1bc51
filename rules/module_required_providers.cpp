// module-required-providers: a module uses a provider local name that its
// own required_providers does not declare. From the calling module's side it
// is an error when the implied hashicorp/<name> is not the provider the
// caller means by that name.
#include <set>

#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/provider_local_name_uses.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/providers/address.hpp"

namespace tfsift::lint::rules {

namespace {

constexpr std::string_view rule_id = "module-required-providers";

// The uses this rule judges: all of them, except resource type prefixes in a
// module that declares requirements (resource-provider-unresolved's).
bool judged_here(bool module_declares_requirements, const ProviderUse& use) {
    return use.kind != ProviderUseKind::resource_type || !module_declares_requirements;
}

// The address a module's own requirement gives a local name, if it declares it.
std::optional<providers::Provider> declared_address(const config::Module& m, const std::string& name, Engine engine) {
    auto it = m.terraform.required_providers.find(name);
    if (it == m.terraform.required_providers.end()) return std::nullopt;
    if (!it->second.source_as_written) return providers::implied_provider(name, engine);
    return providers::parse_provider_source(*it->second.source_as_written, engine).provider;
}

// Local names a module uses (any kind of use) without declaring them.
std::set<std::string> undeclared_names(const config::LoadedModule& module) {
    std::set<std::string> out;
    const auto uses = provider_uses(module);
    for (const ProviderUse& use : *uses) {
        if (!module.module->terraform.required_providers.contains(use.local_name)) out.insert(use.local_name);
    }
    return out;
}

void check_own_uses(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    const auto& required = module.module->terraform.required_providers;
    // Names resource-provider-unresolved already reports are not reported again.
    std::set<std::string> done;
    // Looked at once: it reads every file of the module, and a module may
    // have tens of thousands of files and uses.
    const bool declares = declares_requirements(module);
    const auto uses = provider_uses(module);
    for (const ProviderUse& use : *uses) {
        if (!judged_here(declares, use)) done.insert(use.local_name);
    }
    for (const ProviderUse& use : *uses) {
        // A provider function needs the requirement (function-call-invalid).
        if (use.kind == ProviderUseKind::function) continue;
        if (required.contains(use.local_name) || done.contains(use.local_name)) continue;
        done.insert(use.local_name);
        Finding f;
        f.rule_id = std::string(rule_id);
        f.severity = Severity::warning;
        f.message = fmt::format(
            "{}: provider local name \"{}\" is not declared in this module's required_providers, so it stands "
            "for {}",
            object_of(use), use.local_name,
            providers::implied_provider(use.local_name, ctx.engine).for_display(ctx.engine));
        f.file = ctx.shared_source(use.origin.file);
        if (!f.file) continue;
        f.range = use_range(module, use);
        sink.report(std::move(f));
    }
}

// From the caller: a called module that relies on the implied hashicorp/NAME
// while this module means another provider by NAME does not get it.
void check_calls(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    for (const auto& [call_name, child] : module.children) {
        auto call = module.module->module_calls.find(call_name);
        if (call == module.module->module_calls.end()) continue;
        for (const std::string& name : undeclared_names(child)) {
            // Passed explicitly: the loader warns "Reference to undefined provider" (claimed by this rule).
            bool passed = false;
            for (const auto& p : call->second.providers) {
                if (p.child_key.substr(0, p.child_key.find('.')) == name) passed = true;
            }
            if (passed) continue;
            auto mine = declared_address(*module.module, name, ctx.engine);
            if (!mine) continue;
            const providers::Provider implied = providers::implied_provider(name, ctx.engine);
            if (*mine == implied) continue;
            Finding f;
            f.rule_id = std::string(rule_id);
            f.severity = Severity::error;
            f.message = fmt::format(
                "module \"{}\": the called module uses provider \"{}\" without declaring it, so it means {}, but "
                "this module's \"{}\" is {}; add a required_providers entry with source \"{}\" to the called module",
                call_name, name, implied.for_display(ctx.engine), name, mine->for_display(ctx.engine),
                mine->for_display(ctx.engine));
            f.file = ctx.shared_source(call->second.origin.file);
            if (!f.file) continue;
            f.range = Range{call->second.origin.pos, call->second.origin.pos};
            for (const config::ModuleFile& file : module.files) {
                for (const auto& [mc, decl] : file.decoded->module_calls) {
                    if (mc.origin.file == call->second.origin.file &&
                        mc.origin.pos.byte == call->second.origin.pos.byte) {
                        f.range = decl.def_range;
                    }
                }
            }
            const auto child_uses = provider_uses(child);
            for (const ProviderUse& use : *child_uses) {
                if (use.local_name != name) continue;
                if (auto src = ctx.shared_source(use.origin.file)) {
                    f.related.push_back({src, use_range(child, use), "used here without a requirement"});
                }
                break;
            }
            sink.report(std::move(f));
        }
    }
}

void check(const LintContext& ctx, FindingSink& sink) {
    check_own_uses(ctx, sink);
    check_calls(ctx, sink);
}

}  // namespace

Rule module_required_providers() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::warning;
    r.category = RuleCategory::maintainability;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "Every provider a module uses should be declared in its own `required_providers`.";
    r.doc.what =
        "Reports a provider local name that the module uses without declaring it in `required_providers`: as "
        "the type prefix of a `resource` or `data` block without a `provider` argument, as the name of a "
        "`provider` block, in a `provider` argument, or as a value of a module call's `providers` map. Each "
        "name is reported once, at its first use. The built-in `terraform` provider needs no requirement.\n\n"
        "Division of labour with `resource-provider-unresolved`: in a module that has a `required_providers` "
        "block, resources whose type prefix is undeclared are reported by that rule (as errors), and names it "
        "reports are not reported again here; in a module without any `required_providers` block, every use is "
        "reported here.\n\n"
        "The finding is an **error**, reported at the module call in the calling module, when a called module "
        "uses a name it does not declare (so it means `hashicorp/<name>`) while the caller declares that name "
        "with a different source: the called module cannot inherit the caller's provider and gets another one. "
        "When the call passes that name in its `providers` map, Terraform's own warning \"Reference to "
        "undefined provider\" is reported under this rule instead.";
    r.doc.why =
        "Each module must say which providers it needs so that `init` installs the right ones. An undeclared "
        "name is taken to mean `hashicorp/<name>`: right for HashiCorp's providers, silently wrong for every "
        "other, and in a shared module it breaks callers that use a provider of that name from another "
        "namespace.";
    r.doc.failing_example = R"hcl(# modules/dns/main.tf: no required_providers
resource "cloudflare_record" "www" {
  zone_id = var.zone_id
  name    = "www"
  type    = "CNAME"
  content = var.target
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = ">= 4.0"
    }
  }
}

resource "cloudflare_record" "www" {
  zone_id = var.zone_id
  name    = "www"
  type    = "CNAME"
  content = var.target
}
)hcl";
    r.doc.fix_safety = "Not fixable: the source to declare depends on the provider meant.";
    r.check = check;
    r.claimed_codes = {code::reference_to_undefined_provider};
    return r;
}

}  // namespace tfsift::lint::rules
