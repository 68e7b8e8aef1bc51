// lock-hash-mismatch: a package of a locked provider version matches none of
// the recorded hashes.
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/registry.hpp"
#include "tfsift/providers/package_audit.hpp"

namespace tfsift::lint::rules {

Rule lock_hash_mismatch() {
    Rule r;
    r.id = "lock-hash-mismatch";
    r.default_severity = Severity::error;
    r.doc.summary = "An installed or mirrored package of a locked provider version matches none of the recorded hashes.";
    r.doc.what =
        "Hashes every package of a locked provider's locked version that tfsift can see offline (installed under "
        "`.terraform/providers`, in the plugin cache, in filesystem mirrors including the implied ones and those "
        "of the CLI configuration) and compares the `h1:` (and, for a zip, `zh:`) hashes with the entry's "
        "`hashes`. A package contradicts the entry when it is installed in the working directory, when it is a zip "
        "and the entry holds the registry's `zh:` checksums (they cover every platform), or when a recorded `h1:` "
        "fits none of the available packages (the hash recorded for it changed). A package for a platform the "
        "entry simply has no hash for yet is `lock-platforms-incomplete`'s concern.";
    r.doc.why =
        "`terraform init` refuses such a package (\"doesn't match any of the checksums previously recorded in the "
        "dependency lock file\"): either the mirror holds a different build than the one that was locked, or "
        "someone tampered with it.";
    r.doc.failing_example =
        "# .terraform.lock.hcl records h1: hashes that the mirror's package does not have\n"
        "provider \"registry.terraform.io/hashicorp/aws\" {\n"
        "  version = \"5.31.0\"\n"
        "  hashes  = [\"h1:AAAA...\"]\n"
        "}\n";
    r.doc.passing_example =
        "provider \"registry.terraform.io/hashicorp/aws\" {\n"
        "  version = \"5.31.0\"\n"
        "  hashes  = [\"h1:<the package's own h1 hash>\"]\n"
        "}\n";
    r.doc.fix_safety =
        "Not fixable: tfsift cannot tell which side is right. `--fix` keeps the recorded hashes and does not add "
        "the contradicting package's hash.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        LockInputs in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors() || in.read.locks.providers.empty()) return;
        auto local = visible_packages(ctx);
        auto packages = providers::all_packages(local);
        std::filesystem::path installed = std::filesystem::path(ctx.module_dir) / ".terraform" / "providers";
        for (const auto& [provider, lock] : in.read.locks.providers) {
            auto audit = providers::audit_packages(lock, packages, installed);
            for (const auto& a : audit.packages) {
                if (!a.mismatch) continue;
                Finding f;
                f.rule_id = "lock-hash-mismatch";
                f.severity = Severity::error;
                f.message = "the " + a.package.platform.to_string() + " package of " + provider.to_string() + " " +
                            lock.version.to_string() + " at " + a.package.path.string() +
                            (a.error.empty() ? " matches none of the hashes recorded in the lock file (its hash is " +
                                                   a.h1 + ")"
                                             : " cannot be hashed: " + a.error);
                f.file = in.source();
                f.range = in.entry_range(provider, &providers::LockEntryLocation::hashes);
                sink.report(std::move(f));
            }
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
