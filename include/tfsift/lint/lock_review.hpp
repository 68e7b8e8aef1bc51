// `tfsift lock diff`: reviewing a change to dependency lock files before it
// merges (docs/lock-review.md). For each `.terraform.lock.hcl` under the
// paths, the file in the working tree is compared with the same file at a
// git revision (read with `git show`, never checked out) or with one given
// file; every added hash is verified against what the provider's registry
// signed (online/lock_review_verification.hpp), unless offline; the review
// rules (rules/lock_*.cpp, tfsift/rules/review_catalogue.hpp) turn the
// reviewed change into findings positioned in the working tree's file. The library half of the
// command: the front end maps its flags to a LockReviewRequest and prints
// the LockReview in the format asked for (report/lock_review_report.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/rule.hpp"
#include "tfsift/providers/lock_diff.hpp"
#include "tfsift/providers/lock_locations.hpp"

namespace tfsift::lint {

// An added hash and what the registry said about it.
struct ReviewedHash {
    std::string hash;
    std::optional<bool> is_signed;  // none: not verified (offline, or the check failed)
    std::string platform;           // "" when no signed package tells it
    std::string key_id;             // the key that signed the SHA256SUMS it was checked against
    std::string trust;              // that key's trust tier, as the engine labels it
};

// Who signed one side's version; empty when not asked or not known.
struct VersionSigner {
    std::string key_id;
    std::string trust;
};

struct ReviewedProvider {
    providers::ProviderLockChange change;
    std::vector<ReviewedHash> added;  // change.added_hashes, in that order
    std::optional<VersionSigner> signer_before;
    std::optional<VersionSigner> signer_after;
    // The platforms each side's hashes cover, sorted; only known online.
    std::vector<std::string> platforms_before;
    std::vector<std::string> platforms_after;
    std::string error;      // the verification could not be made: names host, provider, version, platform
    bool published = true;  // false: the registry does not list the new version
};

// What a review check sees: one lock file's reviewed change.
struct LockReviewContext {
    std::shared_ptr<const SourceFile> file;  // the working tree's file (empty text when deleted)
    providers::LockLocations locations;
    std::vector<ReviewedProvider> providers;
    bool verified = false;  // the registries were asked

    // An entry's `provider` label, or a part of it; the file's start when absent.
    [[nodiscard]] Range entry_range(const providers::Provider& provider,
                                    std::optional<Range> providers::LockEntryLocation::*part = nullptr) const;
    // The line of one literal hash of an entry; the entry's `hashes` otherwise.
    [[nodiscard]] Range hash_range(const providers::Provider& provider, const std::string& hash) const;
};

enum class LockFileState : std::uint8_t {
    changed,  // in both
    created,  // no lock file in the base
    deleted,  // none in the working tree
};

// The check of a rule of `tfsift lock diff`: one reviewed lock-file change
// in, findings in that file out.
using LockReviewCheck = std::function<void(const LockReviewContext&, FindingSink&)>;

// A rule of `tfsift lock diff`: its identity and documentation, as every
// rule's (listed by builtin_rules() too, so `tfsift rule`, docs/rules/ and
// SARIF know it; its lint `check` is null), and its review check.
struct ReviewRule {
    Rule rule;
    LockReviewCheck check;
};

struct LockFileReview {
    std::string path;  // as printed: relative to the working directory, '/'-separated
    std::string base;  // "REF:path" or the --base-file path
    LockFileState state = LockFileState::changed;
    LockReviewContext context;
    Findings findings;  // this file's, sorted
};

struct LockReviewRequest {
    std::span<const ReviewRule> rules;  // lint::builtin_review_rules()
    // Every rule, for reading each lock file's nearest .tfsift.toml, whose
    // [rules] and [[ignore]] apply to the review's findings as to lint's.
    std::span<const Rule> catalogue;
    std::vector<std::string> paths;  // directories to search or lock files; empty: "."
    std::string base_ref;            // --base REF
    std::string base_file;           // --base-file OLD (one lock file, no git)
    bool offline = false;            // show the changes, verify nothing
    std::optional<Engine> engine;    // none: from each file's header, else Terraform
    std::string engine_version;      // sent as X-Terraform-Version; empty: the engine's default
    unsigned jobs = 0;               // versions verified at once; 0: the default
    std::string cache_dir;           // the download cache; empty: the default one
};

struct LockReview {
    std::vector<LockFileReview> files;        // changed files only, by path
    std::vector<std::string> errors;          // a base that cannot be read, a check that could not be made
    bool verified = false;                    // online verification was made
    std::uint64_t downloads = 0;              // packages transferred
    [[nodiscard]] Findings findings() const;  // every file's, in file order
};

// Runs the review. Never throws for bad input: what went wrong is in `errors`.
[[nodiscard]] LockReview review_lock_changes(const LockReviewRequest& request);

}  // namespace tfsift::lint
