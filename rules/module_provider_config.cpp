// module-provider-config: a module that other modules call configures a
// provider itself, or keeps a legacy proxy `provider` block.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/module_providers.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

std::string block_name(const config::Provider& p) {
    if (p.alias) return fmt::format("provider \"{}\" (alias \"{}\")", p.name, *p.alias);
    return fmt::format("provider \"{}\"", p.name);
}

void check(const LintContext& ctx, FindingSink& sink) {
    if (ctx.role != ModuleRole::called) return;
    const config::LoadedModule& module = ctx.module();
    for (const auto& [key, p] : module.module->providers) {
        const auto base = module_providers::provider_declaration(module, p.origin);
        if (base.file == nullptr) continue;
        Finding f;
        f.rule_id = "module-provider-config";
        f.severity = Severity::warning;
        f.file = ctx.shared_source(base.file->decoded->source);
        f.range = base.def_range;
        if (p.configures()) {
            f.message = fmt::format(
                "{}: a module that other modules call configures a provider; move the configuration to the root "
                "module and let callers pass it in (or let the module inherit it)",
                block_name(p));
            if (!base.block->configures()) {
                // The base block is empty: an override file added the configuration.
                for (const config::Origin& o : p.overridden_by) {
                    auto over = module_providers::provider_declaration(module, o);
                    if (over.file == nullptr || !over.block->configures()) continue;
                    f.related.push_back({f.file, f.range, "the block this override file changes"});
                    f.file = ctx.shared_source(over.file->decoded->source);
                    f.range = over.def_range;
                    break;
                }
            }
        } else if (p.alias) {
            const std::string address = p.key();
            bool listed = false;
            if (auto req = module.module->terraform.required_providers.find(p.name);
                req != module.module->terraform.required_providers.end()) {
                for (const auto& a : req->second.configuration_aliases) listed = listed || a == address;
            }
            f.message = listed ? fmt::format(
                                     "{}: an empty proxy block is redundant; {} is already declared in "
                                     "`configuration_aliases`, remove the block",
                                     block_name(p), address)
                               : fmt::format(
                                     "{}: an empty proxy block is the legacy way to expect a configuration "
                                     "from the caller; declare `configuration_aliases = [{}]` in the "
                                     "`required_providers` entry for \"{}\" instead",
                                     block_name(p), address, p.name);
        } else {
            f.message = fmt::format(
                "{}: an empty provider block is redundant; the module receives the default "
                "configuration from its caller without it, remove the block and declare the "
                "provider in `required_providers`",
                block_name(p));
        }
        sink.report(std::move(f));
    }
}

}  // namespace

Rule module_provider_config() {
    Rule r;
    r.id = "module-provider-config";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::maintainability;
    r.precision = RulePrecision::medium;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A module that other modules call contains its own provider configuration.";
    r.doc.what =
        "Applies to modules that another module of the scan calls. Reports every `provider` block in them that "
        "configures something (any argument or nested block besides `alias`, including the legacy `version`), "
        "at the block's header; when only an override file adds the configuration, at the override with the "
        "base block as a related location. An empty `provider` block that only sets `alias` is the legacy proxy "
        "form: it is reported with its replacement, an entry in `configuration_aliases`. An empty block without "
        "`alias` is reported as redundant (Terraform warns about it too): the default configuration reaches the "
        "module without it.";
    r.doc.why =
        "Provider configurations are global to a whole configuration and belong in the root module. A module "
        "with its own provider configuration cannot be called with `count`, `for_each` or `depends_on`, cannot "
        "receive a configuration from its caller for that provider, and its resources cannot be destroyed once "
        "the module call is removed, because the configuration goes away with it.";
    r.doc.failing_example = R"hcl(# modules/bucket/main.tf, called by the root module
provider "aws" {
  region = "us-west-2"
}

provider "aws" {
  alias = "replica"
}
)hcl";
    r.doc.passing_example = R"hcl(# modules/bucket/main.tf, called by the root module
terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      version               = ">= 5.0"
      configuration_aliases = [aws.replica]
    }
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: the configuration has to move to the root module by hand.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
