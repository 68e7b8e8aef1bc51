// provider-config-removed: a resource in the state needs a provider
// configuration that the configuration no longer has.
#include "support/factories.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

namespace {

const config::LoadedModule* find_module(const config::LoadedModule& root, const std::vector<std::string>& path) {
    const config::LoadedModule* m = &root;
    for (const auto& name : path) {
        auto it = m->children.find(name);
        if (it == m->children.end()) return nullptr;
        m = &it->second;
    }
    return m;
}

// Whether the configuration still has the provider configuration the state names.
bool config_exists(const config::LoadedModule& root, const providers::StateProviderConfig& pc, Engine engine) {
    const config::LoadedModule* m = find_module(root, pc.module_path);
    if (m == nullptr) return false;
    // A default configuration of the root module exists implicitly (an empty one).
    if (pc.module_path.empty() && !pc.alias) return true;
    for (const auto& [key, p] : m->module->providers) {
        if (p.alias != pc.alias) continue;
        auto provider = config::resolve_local_name(*m->module, p.name, engine);
        if (provider && *provider == pc.provider) return true;
    }
    return false;
}

// Whether the resource is still declared: its provider then comes from the
// configuration, not from the state.
bool resource_declared(const config::LoadedModule& root, const providers::StateResource& r) {
    const config::LoadedModule* m = find_module(root, r.module_path);
    if (m == nullptr) return false;
    const auto& map = r.managed ? m->module->resources : m->module->data;
    return map.count(r.type + "." + r.name) != 0;
}

}  // namespace

Rule provider_config_removed() {
    Rule r;
    r.id = "provider-config-removed";
    r.default_severity = Severity::error;
    r.doc.summary = "A resource in the state belongs to a provider configuration that no longer exists.";
    r.doc.what =
        "Reads the local state file (`--state`, or `terraform.tfstate` in the module directory) and, for each "
        "managed resource no longer declared in the configuration, checks that the provider configuration the "
        "state records for it still exists: an aliased configuration (`provider[\"...\"].east`) or one in a "
        "called module (`module.net.provider[\"...\"]`) needs its `provider` block in that module; the root "
        "module's default configurations always exist. Reported at the resource's `provider` in the state. A "
        "state file that is not JSON or not format version 4 is reported too.";
    r.doc.why =
        "To destroy a removed resource Terraform needs the provider configuration that created it; the plan fails "
        "with \"Provider configuration not present\" until the block is restored or the resource is removed "
        "from the state.";
    r.doc.failing_example =
        R"hcl(# terraform.tfstate: aws_instance.old with provider["registry.terraform.io/hashicorp/aws"].east
provider "aws" {
  region = "eu-west-1"
}
)hcl";
    r.doc.passing_example = R"hcl(provider "aws" {
  alias  = "east"
  region = "us-east-1"
}
)hcl";
    r.doc.fix_safety = "Not fixable: keep the provider block until the resources it manages are destroyed.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        auto state = load_state(ctx);
        if (!state) return;
        report_state_diagnostics(*state, "provider-config-removed", Severity::error, sink);
        for (const auto& res : state->resources) {
            if (!res.managed || !res.provider) continue;
            if (config_exists(ctx.module(), *res.provider, ctx.engine) || resource_declared(ctx.module(), res))
                continue;
            Finding f;
            f.rule_id = "provider-config-removed";
            f.severity = Severity::error;
            f.message = res.address() + " in the state belongs to the provider configuration " +
                        res.provider->to_string() + ", which the configuration no longer has";
            f.file = state->source;
            f.range = res.provider_range;
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
