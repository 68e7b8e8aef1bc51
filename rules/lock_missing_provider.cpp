// lock-missing-provider: a provider the module tree requires has no entry in
// the root module's lock file.
#include "support/factories.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"

namespace tfsift::lint::rules {

Rule lock_missing_provider() {
    Rule r;
    r.id = "lock-missing-provider";
    r.default_severity = Severity::error;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::very_high;
    r.security_severity = 5.0;
    r.fixable = true;
    r.doc.summary = "A provider required somewhere in the module tree has no entry in the root module's lock file.";
    r.doc.what =
        "Collects every provider the root module and the modules it calls require (`required_providers`, "
        "`provider` blocks, and the providers resources and data sources imply) and reports each installable one "
        "that the root module's `.terraform.lock.hcl` does not list. The finding points at the requirement in the "
        "root module, or at the module call that leads to the module requiring it. Nothing is reported when there "
        "is no lock file (see `lock-missing`) or when it cannot be read (see `lock-syntax`).";
    r.doc.why =
        "`terraform init -lockfile=readonly` (a common CI setting) fails with \"Provider dependency changes "
        "detected\", and a plain `init` selects a version nobody reviewed.";
    r.doc.failing_example = R"hcl(# .terraform.lock.hcl lists only hashicorp/aws
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}
)hcl";
    r.doc.passing_example = R"hcl(# .terraform.lock.hcl lists hashicorp/random
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}
)hcl";
    r.doc.fix_safety =
        std::string(
            "`tfsift lint --fix` adds the entry with the newest version that meets every constraint among the packages "
            "that can be found, with their hashes; without such a package it leaves the entry out.") +
        std::string(kLockRepairFixSafety);
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors()) return;
        for (const auto* req : in.lockable(ctx.engine)) {
            if (in.read.locks.find(req->provider) != nullptr) continue;
            std::optional<SiteLocation> where;
            for (const auto& site : req->sites) {
                if ((where = locate_site(ctx, site))) break;
            }
            if (!where) continue;
            Finding f;
            f.rule_id = "lock-missing-provider";
            f.severity = Severity::error;
            // The lock file beside the module's files, named without the
            // directory as it was typed (an absolute path where every
            // location is relative); its location is a related one.
            f.message = "provider " + req->provider.to_string() + " is required but has no entry in " +
                        std::string(providers::kLockFileName);
            f.file = where->file;
            f.range = where->range;
            if (where->related) f.related.push_back(*where->related);
            if (in.read.source) f.related.push_back({in.read.source, Range{}, "the lock file"});
            attach_lock_repair(ctx, f, req->provider);
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
