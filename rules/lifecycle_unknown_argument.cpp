// lifecycle-unknown-argument: a `lifecycle` block holds only the arguments
// and blocks Terraform defines for it.
#include "support/written_resources.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/lint/registry.hpp"

namespace tfsift::lint::rules {
namespace {

bool known_member(std::string_view name) {
    // `enabled` is OpenTofu's only: the decoder rejects it for Terraform as an
    // unsupported argument, which this rule claims.
    for (std::string_view k : {"create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by",
                               "destroy", "precondition", "postcondition", "action_trigger"}) {
        if (name == k) return true;
    }
    return false;
}

// The loader rejects every other member of a lifecycle block ("Unsupported
// argument", "Unsupported block type", and in JSON "Extraneous JSON object
// property"), and the arguments a data source's lifecycle may not set.
// Problems nested deeper (inside a precondition) are not this rule's.
bool claims(const config::LoadDiagnostic& d) {
    const std::string& s = d.diagnostic.summary;
    if (s == "Invalid data resource lifecycle argument" || s == "Invalid data resource lifecycle nested block") return true;
    if (s != "Unsupported argument" && s != "Unsupported block type" && s != "Extraneous JSON object property") {
        return false;
    }
    return written::diagnostic_in_lifecycle(d, [](const written::LifecycleSite& site) {
        return site.member != nullptr && !known_member(site.member->name);
    });
}

}  // namespace

Rule lifecycle_unknown_argument() {
    Rule r;
    r.id = "lifecycle-unknown-argument";
    r.default_severity = Severity::error;
    r.precision = RulePrecision::very_high;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A `lifecycle` block sets an argument or holds a block that Terraform does not define.";
    r.doc.what =
        "A resource's `lifecycle` block may set `create_before_destroy`, `prevent_destroy`, `ignore_changes`, "
        "`replace_triggered_by` and `destroy` (Terraform v1.16, OpenTofu v1.12), and `enabled` with OpenTofu "
        "(v1.11), and hold `precondition`, `postcondition` and `action_trigger` (Terraform v1.14) blocks; a data "
        "source's `lifecycle` block may hold only the two condition blocks. Anything else there is reported: a "
        "misspelt name (`create_before_destory`), a setting that belongs elsewhere (`depends_on`, `count`), a "
        "`dynamic` block, or a resource-only argument or block on a data source. JSON syntax (`.tf.json`) is "
        "checked the same way.";
    r.doc.why =
        "Terraform refuses to load the module. A misspelt lifecycle argument is worse than most typos: the "
        "protection it was meant to give (`prevent_destroy`, `ignore_changes`) would silently be missing if it "
        "were accepted.";
    r.doc.failing_example =
        "resource \"aws_db_instance\" \"main\" {\n"
        "  lifecycle {\n"
        "    prevent_destroys = true\n"
        "  }\n"
        "}\n";
    r.doc.passing_example =
        "resource \"aws_db_instance\" \"main\" {\n"
        "  lifecycle {\n"
        "    prevent_destroy = true\n"
        "  }\n"
        "}\n";
    r.doc.fix_safety = "Not fixable.";
    r.claims = claims;
    return r;
}

}  // namespace tfsift::lint::rules
