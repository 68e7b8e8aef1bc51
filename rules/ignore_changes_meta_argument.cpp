// ignore-changes-meta-argument: ignore_changes names attributes of the
// resource type, never Terraform's own meta-arguments.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/reference_names.hpp"
#include "support/written_resources.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "ignore-changes-meta-argument";

bool is_meta_argument(std::string_view name) {
    for (std::string_view m :
         {"count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection"}) {
        if (name == m) return true;
    }
    return false;
}

// The effective ignore_changes of each resource: a list an override file
// replaced no longer counts, and the one that won points into its own file.
void check(const LintContext& ctx, FindingSink& sink) {
    for (const auto& [key, r] : ctx.module().module->resources) {
        if (!r.lifecycle->ignore_changes) continue;
        for (const config::Traversal& t : *r.lifecycle->ignore_changes) {
            ReferenceName name = traversal_reference(t);
            if (name.empty() || !is_meta_argument(name.front())) continue;
            sink.report(Finding{std::string(rule_id),
                                Severity::error,
                                fmt::format("{}: ignore_changes names the meta-argument `{}`; only attributes of the "
                                            "resource type can be ignored",
                                            written::block_label(r.mode, r.type, r.name), name.front()),
                                ctx.shared_source(t.file),
                                t.range,
                                {},
                                std::nullopt});
        }
    }
}

}  // namespace

Rule ignore_changes_meta_argument() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "`ignore_changes` names a meta-argument instead of an attribute of the resource.";
    r.doc.what =
        "Reports an item of a resource's `ignore_changes` list that names one of Terraform's meta-arguments: "
        "`count`, `for_each`, `provider`, `depends_on`, `lifecycle`, `provisioner` or `connection` (quoted or "
        "not, with or without a path after it). The list checked is the effective one, after override files.";
    r.doc.why =
        "`ignore_changes` only applies to the attributes the resource type defines; it cannot be applied to "
        "itself or to any other meta-argument, and `terraform validate` rejects such a name because the resource "
        "type has no attribute of that name. Changes to meta-arguments are never \"drift\" to ignore: they change "
        "which instances exist or how Terraform manages them.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "web" {
  count = var.instances
  lifecycle {
    ignore_changes = [count, tags]
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "web" {
  count = var.instances
  lifecycle {
    ignore_changes = [tags]
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
