// Verifying a lock-file change's added hashes against what the registry signed.
#include "tfsift/online/lock_review_verification.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "tfsift/online/lock_verification.hpp"
#include "tfsift/online/provider_fetcher.hpp"
#include "tfsift/parallel_for.hpp"

namespace tfsift::online {

namespace {

std::vector<std::string> with_prefix(const std::vector<std::string>& hashes, std::string_view prefix) {
    std::vector<std::string> out;
    std::copy_if(hashes.begin(), hashes.end(), std::back_inserter(out),
                 [&](const std::string& h) { return h.starts_with(prefix); });
    return out;
}

VersionAnswer answer(const VersionQuestion& q, const VerificationOptions& options, const providers::Environment& env) {
    VersionAnswer out;
    out.provider = q.provider;
    out.version = q.version;
    const std::string version = q.version.to_string();
    const auto sums = signed_checksums(q.provider, q.version, options.engine, options.engine_version, env);
    if (!sums.ok()) {
        out.error = sums.error;
        return out;
    }
    out.listed = sums.version_listed;
    if (!out.listed) {
        for (const auto& h : q.verify) out.verdicts.push_back({h, false, {}});
        return out;
    }
    out.key_id = sums.key_id;
    out.trust = std::string(trust_label(sums.tier, options.engine));
    // zh: a line of the signed SHA256SUMS; its file name gives the platform.
    const auto zh_platform = [&](const std::string& hash) -> std::optional<std::string> {
        if (!std::binary_search(sums.zh.begin(), sums.zh.end(), hash)) return std::nullopt;
        const auto file = sums.file_names.find(hash);
        return file == sums.file_names.end() ? std::string() : platform_of_package_file(file->second, version);
    };
    // h1: only a package tells; packages are fetched for the hashes to verify
    // only, and the ones seen answer for the hashes to classify too.
    const auto wanted_h1 = with_prefix(q.verify, "h1:");
    std::map<std::string, std::string> h1_platform;
    if (!wanted_h1.empty()) {
        auto preferred = options.preferred;
        for (const auto& h : q.verify) {
            if (auto p = zh_platform(h); p && !p->empty()) preferred.push_back(*p);
        }
        const auto packages = signed_package_hashes(q.provider, q.version, options.engine, options.engine_version, env,
                                                    wanted_h1, preferred);
        out.downloads = packages.downloads;
        if (!packages.ok()) {
            out.error = packages.error;
            return out;
        }
        h1_platform = packages.h1;
    }
    const auto classify = [&](const std::string& hash) -> std::optional<std::string> {
        if (hash.starts_with("zh:")) return zh_platform(hash);
        if (auto it = h1_platform.find(hash); it != h1_platform.end()) return it->second;
        return std::nullopt;
    };
    for (const auto& h : q.verify) {
        auto platform = classify(h);
        out.verdicts.push_back({h, platform.has_value(), platform.value_or(std::string())});
        if (platform && !platform->empty()) out.platform_of[h] = *platform;
    }
    for (const auto& h : q.classify) {
        if (auto platform = classify(h); platform && !platform->empty()) out.platform_of[h] = *platform;
    }
    return out;
}

}  // namespace

std::vector<VersionAnswer> verify_lock_hashes(const std::vector<VersionQuestion>& questions,
                                              const VerificationOptions& options, const providers::Environment& env) {
    // --cache-dir reaches the shared lookups as the variable they read.
    providers::Environment effective = env;
    if (!options.cache_dir.empty()) {
        effective = [env, dir = options.cache_dir.string()](std::string_view name) -> std::optional<std::string> {
            if (name == "TFSIFT_CACHE_DIR") return dir;
            return env(name);
        };
    }
    std::vector<VersionAnswer> answers(questions.size());
    const unsigned jobs = options.jobs != 0 ? options.jobs : kDefaultFetchJobs;
    parallel_for(questions.size(), jobs, [&](std::size_t i) { answers[i] = answer(questions[i], options, effective); });
    return answers;
}

}  // namespace tfsift::online
