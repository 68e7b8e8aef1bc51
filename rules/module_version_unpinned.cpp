// module-version-unpinned: a registry module call without an exact version.
#include <fmt/core.h>

#include "support/factories.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/providers/core_version.hpp"

namespace tfsift::lint::rules {

namespace {

std::vector<std::string> version_strings(const nlohmann::json& value) {
    std::vector<std::string> out;
    if (value.is_string()) out.push_back(value.get<std::string>());
    if (value.is_array()) {
        for (const auto& v : value) {
            if (v.is_string()) out.push_back(v.get<std::string>());
        }
    }
    return out;
}

// One `= X.Y.Z` (or bare X.Y.Z) piece naming all three parts.
bool is_exact(const std::vector<std::string>& pieces) {
    std::string joined;
    for (const auto& p : pieces) joined += (joined.empty() ? "" : ",") + p;
    auto parsed = providers::parse_core_constraints(joined);
    if (!parsed || parsed->size() != 1) return false;
    const auto& c = parsed->front();
    return (c.op.empty() || c.op == "=") && c.version.written_segments >= 3;
}

Range line_from(const SourceFile& file, Pos pos) {
    std::string_view text = file.text();
    std::uint32_t end = pos.byte;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    return {pos, Pos{static_cast<std::uint32_t>(end)}};
}

}  // namespace

Rule module_version_unpinned() {
    Rule r;
    r.id = "module-version-unpinned";
    r.enabled_by_default = false;  // the strict preset: docs/corpus-findings.md
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.security_severity = 5.0;
    r.doc.summary = "A registry module call has no exact `version`.";
    r.doc.what =
        "Reports each `module` call whose `source` is a module registry address (`NAMESPACE/NAME/PROVIDER` or "
        "`HOST/NAMESPACE/NAME/PROVIDER`) and whose `version` is missing or is not one exact version (`\"5.1.2\"` "
        "or `\"= 5.1.2\"`): ranges such as `~> 5.1` or `>= 5` are reported at `version`, a missing `version` at "
        "`source`.";
    r.doc.why =
        "The dependency lock file records provider versions only, never module versions: a range lets every "
        "`terraform init -upgrade` (or a fresh checkout) pull a different module release with different "
        "resources.";
    r.doc.failing_example = R"hcl(module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.1"
}
)hcl";
    r.doc.passing_example = R"hcl(module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.1.2"
}
)hcl";
    r.doc.fix_safety =
        "Not fixable: choose the version to pin yourself (`.terraform/modules/modules.json` shows the installed one).";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        for (const auto& [name, call] : ctx.module().module->module_calls) {
            if (!call.source || !call.source->value) continue;
            auto kind = config::parse_module_source(call.source->as_written, false).kind;
            if (kind != config::ModuleSourceKind::registry) continue;
            Finding f;
            f.rule_id = "module-version-unpinned";
            f.severity = Severity::warning;
            if (call.version_constraints && call.version_constraints->origin) {
                auto pieces = version_strings(call.version_constraints->value);
                if (is_exact(pieces)) continue;
                std::string joined;
                for (const auto& p : pieces) {
                    if (!joined.empty()) joined += ", ";
                    joined += p;
                }
                f.message = fmt::format(
                    "module \"{}\": version \"{}\" is not one exact version; the lock file does not record module "
                    "versions, so pin it",
                    name, joined);
                f.file = ctx.shared_source(call.version_constraints->origin->file);
                if (!f.file) continue;
                f.range = line_from(*f.file, call.version_constraints->origin->pos);
            } else if (call.dynamic_version) {
                // OpenTofu v1.8 and Terraform v1.15 evaluate `version` from
                // variables and locals while loading; tfsift does not.
                const config::Expression& e = call.dynamic_version->expr;
                f.message = fmt::format(
                    "module \"{}\": version is the expression {}, which tfsift does not evaluate, so it cannot tell "
                    "that it is one exact version; the lock file does not record module versions, so pin one",
                    name, e.source_text());
                f.file = ctx.shared_source(e.file);
                if (!f.file) continue;
                f.range = line_from(*f.file, e.range.start);
            } else {
                f.message = "module \"" + name + "\": registry module " + *call.source->value +
                            " has no version; the lock file does not record module versions, so pin one";
                f.file = ctx.shared_source(call.source->origin.file);
                if (!f.file) continue;
                f.range = line_from(*f.file, call.source->origin.pos);
            }
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
