// module-alias-not-passed: a called module declares configuration_aliases
// that its caller's `providers` map does not pass. Terraform's loader
// reports this itself (config::load_module_tree), so the rule claims that
// diagnostic instead of detecting the problem a second time.
#include "support/factories.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::lint::rules {

Rule module_alias_not_passed() {
    Rule r;
    r.id = "module-alias-not-passed";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A module call does not pass an aliased provider configuration the module declares.";
    r.doc.what =
        "Reports a module call (at its `module` block) when the called module lists `NAME.ALIAS` in the "
        "`configuration_aliases` of its `required_providers` and the call's `providers` map has no key "
        "`NAME.ALIAS`, unless the module configures `NAME.ALIAS` itself (a `provider` block with that alias and "
        "settings of its own; an empty proxy block does not count). The message names the provider and the "
        "missing configuration. "
        "Remote modules are checked when installed in `.terraform/modules` or in the module cache; a call whose "
        "module is not loaded is reported by `module-not-loaded` instead.";
    r.doc.why =
        "Aliased provider configurations are never inherited: a module that declares one expects its caller to "
        "choose which configuration it gets. Terraform rejects the call with \"Missing required provider "
        "configuration\".";
    r.doc.failing_example = R"hcl(# ./tunnel declares configuration_aliases = [aws.src, aws.dst]
module "tunnel" {
  source = "./tunnel"
  providers = {
    aws.src = aws.usw1
  }
}
)hcl";
    r.doc.passing_example = R"hcl(module "tunnel" {
  source = "./tunnel"
  providers = {
    aws.src = aws.usw1
    aws.dst = aws.usw2
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: only the author knows which configuration the module should get.";
    r.claimed_codes = {code::missing_required_provider_configuration};
    // The error form only: Terraform's warning of the same kind is about an
    // inherited default configuration, not an alias.
    r.claim_only_if = [](const ClaimedDiagnostic& d) { return d.tree_phase && d.severity == Severity::error; };
    return r;
}

}  // namespace tfsift::lint::rules
