// lock-platforms-incomplete: an entry records hashes for fewer platforms
// than the project declares.
#include <algorithm>

#include "support/factories.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/net/engine_version.hpp"
#include "tfsift/online/lock_verification.hpp"
#include "tfsift/providers/package_audit.hpp"

namespace tfsift::lint::rules {

namespace {

// Online: a declared platform the registry publishes no package of the
// locked version for can never be recorded.
void check_published_platforms(const LintContext& ctx, const LockInputs& in, FindingSink& sink) {
    const auto env = providers::process_environment();
    const std::string engine_version =
        ctx.settings->engine_version.value_or(std::string(default_engine_version(ctx.engine)));
    for (const auto& [provider, lock] : in.read.locks.providers) {
        if (!provider.is_lockable(ctx.engine)) continue;
        const auto published = online::signed_checksums(provider, lock.version, ctx.engine, engine_version, env);
        if (!published.ok() || !published.version_listed) continue;  // lock-hash-mismatch reports those
        std::string missing;
        for (const auto& name : ctx.settings->platforms) {
            const bool listed = std::any_of(published.platforms.begin(), published.platforms.end(),
                                            [&](const providers::Platform& p) { return p.to_string() == name; });
            if (!listed) missing += (missing.empty() ? "" : ", ") + name;
        }
        if (missing.empty()) continue;
        Finding f;
        f.rule_id = "lock-platforms-incomplete";
        f.severity = Severity::warning;
        f.message = "provider " + provider.to_string() + " " + lock.version.to_string() + ": the registry " +
                    provider.hostname + " publishes no package for declared platform(s) " + missing;
        f.file = in.source();
        f.range = in.entry_range(provider, &providers::LockEntryLocation::version);
        sink.report(std::move(f));
    }
}

}  // namespace

Rule lock_platforms_incomplete() {
    Rule r;
    r.id = "lock-platforms-incomplete";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.security_severity = 3.0;
    r.fixable = true;
    r.doc.summary = "A lock entry records package hashes for fewer platforms than the project declares.";
    r.doc.what =
        "With `platforms = [...]` in `.tfsift.toml`, checks every entry of the root module's lock file. An entry "
        "holding the registry's `zh:` checksums covers every platform. Otherwise each declared platform needs an "
        "`h1:` hash: when a package of the locked version for that platform is available offline, its hash must "
        "be recorded; when none is, the entry must at least hold as many `h1:` hashes as there are declared "
        "platforms. Does nothing without `platforms`. With `tfsift lint --online` it also asks the registry which "
        "platforms it publishes the locked version for, and reports declared platforms it does not publish.";
    r.doc.why =
        "A lock file made by `init` from a mirror holds only the hash of the platform it ran on; on every other "
        "platform `init` then fails to verify the package. `terraform providers lock -platform=...` exists for "
        "exactly this.";
    r.doc.failing_example = R"hcl(# .tfsift.toml: platforms = ["linux_amd64", "darwin_arm64"]
provider "registry.terraform.io/hashicorp/aws" {
  version = "5.31.0"
  hashes  = ["h1:<linux_amd64 only>"]
}
)hcl";
    r.doc.passing_example = R"hcl(provider "registry.terraform.io/hashicorp/aws" {
  version = "5.31.0"
  hashes  = ["h1:<linux_amd64>", "h1:<darwin_arm64>"]
}
)hcl";
    r.doc.fix_safety =
        std::string(
            "`tfsift lint --fix` (or `tfsift lock --platform ...`) adds the `h1:` hash of every declared platform whose "
            "package can be found; it never removes a hash.") +
        std::string(kLockRepairFixSafety);
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root || ctx.settings->platforms.empty()) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors() || in.read.locks.providers.empty()) return;
        auto local = visible_packages(ctx);
        auto packages = providers::all_packages(local);
        std::filesystem::path installed = std::filesystem::path(ctx.module_dir) / ".terraform" / "providers";
        const auto& declared = ctx.settings->platforms;
        if (ctx.settings->online.value_or(false)) check_published_platforms(ctx, in, sink);
        for (const auto& [provider, lock] : in.read.locks.providers) {
            bool has_zh = std::any_of(lock.hashes.begin(), lock.hashes.end(),
                                      [](const std::string& h) { return h.rfind("zh:", 0) == 0; });
            if (has_zh) continue;
            auto audit = providers::audit_packages(lock, packages, installed);
            std::vector<std::string> missing;
            for (const auto& platform : declared) {
                for (const auto& a : audit.packages) {
                    if (a.package.platform.to_string() == platform && !a.matches && !a.mismatch)
                        missing.push_back(platform);
                }
            }
            auto h1_count = static_cast<std::size_t>(std::count_if(
                lock.hashes.begin(), lock.hashes.end(), [](const std::string& h) { return h.rfind("h1:", 0) == 0; }));
            std::string message;
            if (!missing.empty()) {
                std::string list;
                for (const auto& p : missing) list += (list.empty() ? "" : ", ") + p;
                message = "provider " + provider.to_string() + " " + lock.version.to_string() +
                          ": no hash recorded for declared platform(s) " + list;
            } else if (h1_count < declared.size()) {
                message = "provider " + provider.to_string() + " " + lock.version.to_string() + " records " +
                          std::to_string(h1_count) + " h1: hash(es) for " + std::to_string(declared.size()) +
                          " declared platforms and no zh: checksums";
            } else {
                continue;
            }
            Finding f;
            f.rule_id = "lock-platforms-incomplete";
            f.severity = Severity::warning;
            f.message = message +
                        "; run `tfsift lint --fix` or `terraform providers lock` with a -platform option "
                        "for each";
            f.file = in.source();
            f.range = in.entry_range(provider, &providers::LockEntryLocation::hashes);
            attach_lock_repair(ctx, f, provider);
            sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
