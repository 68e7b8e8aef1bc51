// module-providers-unknown: a key of a module call's `providers` map that the
// called module can do nothing with. When the called module does not declare
// the key's local name at all, Terraform's loader reports it ("Reference to
// undefined provider") and the rule claims that diagnostic; the rule itself
// finds aliased keys whose provider the module requires but whose alias it
// does not declare, which the loader lets through.
#include <fmt/format.h>

#include "module_providers.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/registry.hpp"

namespace tfsift::lint::rules {

namespace {

void check(const LintContext& ctx, FindingSink& sink) {
    const config::LoadedModule& module = ctx.module();
    for (const auto& [name, call] : module.module.module_calls) {
        auto child = module.children.find(name);
        if (child == module.children.end()) continue;  // not loaded: nothing to compare with
        const config::Module& cm = child->second.module;
        for (const auto& passing : call.providers) {
            if (passing.child_key.find('.') == std::string::npos) continue;
            const std::string local(module_providers::local_name(passing.child_key));
            auto req = cm.terraform.required_providers.find(local);
            if (req == cm.terraform.required_providers.end()) continue;  // the loader's diagnostic
            if (module_providers::declares_alias(cm, passing.child_key)) continue;
            Finding f;
            f.rule_id = "module-providers-unknown";
            f.severity = Severity::error;
            f.file = ctx.shared_source(passing.origin.file);
            if (!f.file) continue;
            f.range = module_providers::written_range(passing.origin, passing.child_key);
            std::string declared;
            for (const auto& a : req->second.configuration_aliases) declared += (declared.empty() ? "" : ", ") + a;
            f.message = fmt::format(
                "module \"{}\": the called module declares no configuration {} ({}), so the configuration passed "
                "under that name is never used",
                name, passing.child_key,
                declared.empty() ? std::string("it has no `configuration_aliases`")
                                 : fmt::format("its `configuration_aliases` are {}", declared));
            if (auto rel = ctx.shared_source(req->second.origin.file)) {
                f.related.push_back({rel, Range{req->second.origin.pos, req->second.origin.pos},
                                     fmt::format("the called module's requirement for \"{}\"", req->first)});
            }
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule module_providers_unknown() {
    Rule r;
    r.id = "module-providers-unknown";
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A module call passes a provider configuration under a name the called module does not know.";
    r.doc.what =
        "Compares the keys of a module call's `providers` map with the called module. A key `NAME` or "
        "`NAME.ALIAS` whose local name the module does not declare in `required_providers` is reported with "
        "Terraform's own warning, \"Reference to undefined provider\". A key `NAME.ALIAS` whose provider the "
        "module requires but whose alias it neither lists in `configuration_aliases` nor defines with a "
        "`provider` block is an error. Modules that are not available locally (remote sources) are not checked.";
    r.doc.why =
        "The keys of `providers` are names inside the called module. A configuration passed under a name the "
        "module never refers to is silently unused, while the resources it was meant for fall back to another "
        "configuration, often the wrong region or account; usually the key has a typo or the module changed.";
    r.doc.failing_example =
        "# ./tunnel declares configuration_aliases = [aws.src, aws.dst]\n"
        "module \"tunnel\" {\n"
        "  source = \"./tunnel\"\n"
        "  providers = {\n"
        "    aws.src         = aws.usw1\n"
        "    aws.destination = aws.usw2\n"
        "  }\n"
        "}\n";
    r.doc.passing_example =
        "module \"tunnel\" {\n"
        "  source = \"./tunnel\"\n"
        "  providers = {\n"
        "    aws.src = aws.usw1\n"
        "    aws.dst = aws.usw2\n"
        "  }\n"
        "}\n";
    r.doc.fix_safety = "Not fixable: only the author knows which name was meant.";
    r.check = check;
    r.claims = [](const config::LoadDiagnostic& d) {
        return d.phase == config::LoadPhase::tree && d.diagnostic.summary == "Reference to undefined provider";
    };
    return r;
}

}  // namespace tfsift::lint::rules
