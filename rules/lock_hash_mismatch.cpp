// lock-hash-mismatch: a package of a locked provider version matches none of
// the recorded hashes; online, a recorded zh: hash the registry never signed.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "support/factories.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/net/engine_version.hpp"
#include "tfsift/online/lock_verification.hpp"
#include "tfsift/providers/package_audit.hpp"

namespace tfsift::lint::rules {

namespace {

void check_online(const LintContext& ctx, const LockInputs& in, FindingSink& sink) {
    const auto env = providers::process_environment();
    const std::string engine_version =
        ctx.settings->engine_version.value_or(std::string(default_engine_version(ctx.engine)));
    for (const auto& [provider, lock] : in.read.locks.providers) {
        if (!provider.is_lockable(ctx.engine)) continue;
        const std::string what = provider.to_string() + " " + lock.version.to_string();
        auto report = [&](std::string message, Range range) {
            Finding f;
            f.rule_id = "lock-hash-mismatch";
            f.severity = Severity::error;
            f.message = std::move(message);
            f.file = in.source();
            f.range = range;
            sink.report(std::move(f));
        };
        const auto signed_sums = online::signed_checksums(provider, lock.version, ctx.engine, engine_version, env);
        const Range version_range = in.entry_range(provider, &providers::LockEntryLocation::version);
        if (!signed_sums.ok()) {
            report(signed_sums.error, version_range);
            continue;
        }
        if (!signed_sums.version_listed) {
            report(what + " is not published by the registry " + provider.hostname +
                       " any more; its hashes cannot be checked",
                   version_range);
            continue;
        }
        // The platforms whose signed hash the entry lacks: a tampered hash
        // usually took the place of one of them.
        std::string suspects;
        for (const auto& [zh, file] : signed_sums.file_names) {
            if (std::find(lock.hashes.begin(), lock.hashes.end(), zh) != lock.hashes.end()) continue;
            const std::string platform = online::platform_of_package_file(file, lock.version.to_string());
            if (platform.empty()) continue;
            suspects += (suspects.empty() ? "" : ", ") + platform;
        }
        const auto location = in.locations.find(provider.to_string());
        const Range entry_hashes = in.entry_range(provider, &providers::LockEntryLocation::hashes);
        const auto hash_range = [&](const std::string& hash) {
            Range range = entry_hashes;
            if (location != in.locations.end()) {
                for (const auto& [text, item] : location->second.hash_items) {
                    if (text == hash) range = item;
                }
            }
            return range;
        };
        // h1: hashes: each must be the hash of one of the signed packages.
        std::vector<std::string> h1s;
        std::copy_if(lock.hashes.begin(), lock.hashes.end(), std::back_inserter(h1s),
                     [](const std::string& h) { return h.starts_with("h1:"); });
        if (!h1s.empty()) {
            std::vector<std::string> preferred = ctx.settings->platforms;
            preferred.push_back(providers::current_platform().to_string());
            const auto packages =
                online::signed_package_hashes(provider, lock.version, ctx.engine, engine_version, env, h1s, preferred);
            if (!packages.ok()) {
                report(packages.error, version_range);
            } else {
                for (const auto& hash : h1s) {
                    if (packages.h1.count(hash) != 0) continue;
                    report(fmt::format("{} of {} is the hash of none of the {} packages in the SHA256SUMS the registry "
                                       "{} signed ({}); the lock file records a package the provider's author never "
                                       "published",
                                       hash, what, packages.platforms, provider.hostname, signed_sums.authentication),
                           hash_range(hash));
                }
            }
        }
        for (const auto& hash : lock.hashes) {
            if (hash.rfind("zh:", 0) != 0) continue;
            if (std::binary_search(signed_sums.zh.begin(), signed_sums.zh.end(), hash)) continue;
            const Range range = hash_range(hash);
            std::string message = fmt::format(
                "{} of {} is not in the SHA256SUMS the registry {} signed ({}); the lock file records a package the "
                "provider's author never published",
                hash, what, provider.hostname, signed_sums.authentication);
            if (!suspects.empty()) {
                message += fmt::format(" (platform {}: its signed hash is missing from the entry)", suspects);
            }
            report(std::move(message), range);
        }
    }
}

}  // namespace

Rule lock_hash_mismatch() {
    Rule r;
    r.id = "lock-hash-mismatch";
    r.default_severity = Severity::error;
    r.category = RuleCategory::supply_chain;
    r.precision = RulePrecision::very_high;
    r.security_severity = 8.0;
    r.doc.summary =
        "An installed or mirrored package of a locked provider version matches none of the recorded hashes.";
    r.doc.what =
        "Hashes every package of a locked provider's locked version that tfsift can see offline (installed under "
        "`.terraform/providers`, in the plugin cache, in filesystem mirrors including the implied ones and those "
        "of the CLI configuration) and compares the `h1:` (and, for a zip, `zh:`) hashes with the entry's "
        "`hashes`. A package contradicts the entry when it is installed in the working directory, when it is a zip "
        "and the entry holds the registry's `zh:` checksums (they cover every platform), or when a recorded `h1:` "
        "fits none of the available packages (the hash recorded for it changed). A package for a platform the "
        "entry simply has no hash for yet is `lock-platforms-incomplete`'s concern.\n\n"
        "With `tfsift lint --online` (or `online = true` in `.tfsift.toml`) it also asks each provider's registry "
        "for the locked version's signed `SHA256SUMS`: a recorded `zh:` hash that is "
        "not one of its lines was never signed by the provider's author and is reported at its own line, naming "
        "the provider, the version and the platform when the file name tells it. A recorded `h1:` hash is the hash "
        "of what a package holds, so it is checked against the packages themselves: each platform's package is "
        "taken from the download cache, or downloaded once, checked against its signed `zh:` and kept there; the "
        "declared `platforms` and the current platform are looked at first, and no further package is fetched "
        "once every recorded `h1:` is accounted for. An `h1:` that is the hash of none of the signed packages is "
        "reported at its own line. A version the registry no longer "
        "lists, a registry that cannot be reached or a signature that does not verify is reported too, at the "
        "entry's `version`.";
    r.doc.why =
        "`terraform init` refuses such a package (\"doesn't match any of the checksums previously recorded in the "
        "dependency lock file\"): either the mirror holds a different build than the one that was locked, or "
        "someone tampered with it.";
    r.doc.failing_example = R"hcl(# .terraform.lock.hcl records h1: hashes that the mirror's package does not have
provider "registry.terraform.io/hashicorp/aws" {
  version = "5.31.0"
  hashes  = ["h1:AAAA..."]
}
)hcl";
    r.doc.passing_example = R"hcl(provider "registry.terraform.io/hashicorp/aws" {
  version = "5.31.0"
  hashes  = ["h1:<the package's own h1 hash>"]
}
)hcl";
    r.doc.fix_safety =
        "Not fixable: tfsift cannot tell which side is right. `--fix` keeps the recorded hashes and does not add "
        "the contradicting package's hash.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root) return;
        const LockInputs& in = load_lock_inputs(ctx);
        if (!in.exists || in.read.has_errors() || in.read.locks.providers.empty()) return;
        if (ctx.settings->online.value_or(false)) check_online(ctx, in, sink);
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
                            (a.error.empty()
                                 ? " matches none of the hashes recorded in the lock file (its hash is " + a.h1 + ")"
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
