// override-variable-type: after an override file changes a variable's `type`
// or `default`, the default no longer converts to the type.
//
// Terraform's loader converts the merged default again after each override
// and rejects the module when that fails ("Invalid default value for
// variable"). The rule claims those diagnostics when an override file is
// their cause; the same summary for a primary file's own mistake stays with
// invalid-configuration.
#include <string_view>

#include "override_support.hpp"
#include "tfsift/lint/registry.hpp"

namespace tfsift::lint::rules {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool is_overridden_default_invalid(const config::LoadDiagnostic& d) {
    if (d.diagnostic.summary != "Invalid default value for variable") return false;
    std::string_view path = d.source ? std::string_view(d.source->path()) : std::string_view(d.diagnostic.filename);
    if (!is_override_file_path(path)) return false;
    std::string_view detail = d.diagnostic.detail;
    // The merge: the override changed the type, or changed the default.
    if (starts_with(detail, "Overriding this variable's type constraint") ||
        starts_with(detail, "The overridden default value")) {
        return true;
    }
    // Decoding the override block itself: it sets both, and they disagree.
    // (The merge's own "This variable's default value ..." arises both for
    // that and for a base that was invalid on its own, so it is left alone.)
    return starts_with(detail, "This default value is not compatible");
}

}  // namespace

Rule override_variable_type() {
    Rule r;
    r.id = "override-variable-type";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "An override file makes a variable's default incompatible with its type.";
    r.doc.what =
        "When an override file changes the `type` of a variable whose primary block sets a `default`, Terraform "
        "converts that default to the new type; when an override changes the `default` of a variable whose "
        "primary block sets a `type`, the new default must convert to that type. The rule reports an override "
        "whose merged result fails that conversion, at the override block (or at the override's `default` when "
        "the override block sets both and they disagree). A primary block whose own default does not match its "
        "own type is reported by `invalid-configuration`.";
    r.doc.why =
        "Terraform refuses to load the module. The primary file alone looks correct, so the mistake is easy to "
        "miss in review.";
    r.doc.failing_example =
        "# variables.tf\n"
        "variable \"zones\" {\n"
        "  default = \"eu-west-1a\"\n"
        "}\n"
        "\n"
        "# override.tf\n"
        "variable \"zones\" {\n"
        "  type = list(string)\n"
        "}\n";
    r.doc.passing_example =
        "# variables.tf\n"
        "variable \"zones\" {\n"
        "  default = [\"eu-west-1a\"]\n"
        "}\n"
        "\n"
        "# override.tf\n"
        "variable \"zones\" {\n"
        "  type = list(string)\n"
        "}\n";
    r.doc.fix_safety = "Not fixable: change the default or the type so that they agree.";
    r.claims = is_overridden_default_invalid;
    return r;
}

}  // namespace tfsift::lint::rules
