// invalid-configuration: what Terraform's own configuration loader rejects
// and no more specific rule claims.
#include "support/factories.hpp"

namespace tfsift::lint::rules {

Rule invalid_configuration() {
    Rule r;
    r.id = std::string(invalid_configuration_rule_id);
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "Terraform's configuration loader rejects the module, or warns about it.";
    r.doc.what =
        "Every diagnostic that Terraform or OpenTofu reports while loading a module and that no more specific "
        "rule covers: invalid names, block types or arguments that do not belong where they are written, invalid "
        "type constraints, variable defaults that do not match their type, invalid module sources, references "
        "that are not allowed in a condition or a destroy-time provisioner, deprecated forms, `import` blocks in "
        "a called module or naming another provider than the resource they import into, arguments and blocks an "
        "`ephemeral` resource cannot have, and OpenTofu's own checks (blank `deprecated` messages, instance "
        "references to provider configurations with `for_each`). The module's test files (`*.tftest.hcl`, "
        "`*.tftest.json`, beside the module and in its test directory, `tests` or the `test_directory` setting) are loaded as `terraform test` loads "
        "them, and what that loader reports is reported here too: duplicate run names, providers, mocks and "
        "overrides, an invalid `command`, `plan_options` `mode` or override target, override targets the "
        "configuration does not declare, provider types that disagree with the module's. With Terraform, the mock "
        "data files (`*.tfmock.hcl`, `*.tfmock.json`) in the directory a `mock_provider`'s `source` names are read "
        "as `terraform test` reads them (duplicate mocks and overrides within a file and across the directory's "
        "files, invalid override targets, a directory that cannot be read), and so are the module's query files "
        "(`*.tfquery.hcl`, `*.tfquery.json`) as `terraform query` and `validate -query` read them (`list` blocks "
        "without a `provider`, with both `count` and `for_each`, with arguments or blocks a list may not have, "
        "lists, providers, variables and locals declared twice, list blocks in a module called as a child "
        "module), and its state migration files (`*.tfmigrate.hcl`) as `terraform state migrate` reads them (`from` "
        "and `state_store_provider` blocks given twice or combined wrongly, a provider release that is not one exact "
        "version, a state store and its provider that disagree). The message is the loader's summary and detail. "
        "Warnings of the loader keep their warning severity.";
    r.doc.why =
        "`terraform init`, `validate` and `plan` stop on these errors; finding them before a commit saves a "
        "round trip through CI.";
    r.doc.failing_example = R"hcl(variable "region" {
  type = "string"
}
)hcl";
    r.doc.passing_example = R"hcl(variable "region" {
  type = string
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    // The engine reports it from the loader's diagnostics.
    return r;
}

}  // namespace tfsift::lint::rules
