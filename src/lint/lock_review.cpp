// `tfsift lock diff`: find the lock files, read both sides, compare, verify,
// run the review checks.
#include "tfsift/lint/lock_review.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>
#include <tuple>

#include "tfsift/file_read.hpp"
#include "tfsift/lint/git_revision.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/net/engine_version.hpp"
#include "tfsift/online/lock_review_verification.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/platform.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

Range LockReviewContext::entry_range(const providers::Provider& provider,
                                     std::optional<Range> providers::LockEntryLocation::*part) const {
    auto it = locations.find(provider.to_string());
    if (it == locations.end()) return Range{};
    if (part != nullptr && it->second.*part) return *(it->second.*part);
    return it->second.definition;
}

Range LockReviewContext::hash_range(const providers::Provider& provider, const std::string& hash) const {
    auto it = locations.find(provider.to_string());
    if (it != locations.end()) {
        for (const auto& [text, range] : it->second.hash_items) {
            if (text == hash) return range;
        }
    }
    return entry_range(provider, &providers::LockEntryLocation::hashes);
}

Findings LockReview::findings() const {
    Findings all;
    for (const auto& f : files) all.insert(all.end(), f.findings.begin(), f.findings.end());
    return all;
}

namespace {

const std::string kLockName(providers::kLockFileName);

// One lock file to review: where it is in the working tree, and how its
// base is named to git (relative to `dir`).
struct Target {
    fs::path dir;          // the directory git runs in
    std::string relative;  // the lock file below `dir`, '/'-separated
    fs::path head_path;    // dir / relative
};

std::string display_path(const fs::path& path) {
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    fs::path absolute = fs::absolute(path, ec).lexically_normal();
    if (!cwd.empty()) {
        const fs::path rel = absolute.lexically_relative(cwd);
        if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
    }
    return absolute.generic_string();
}

// The lock files of the working tree below `dir` ('/'-separated, relative),
// leaving out .git and the .terraform directories (installed modules carry
// lock files of their own that the configuration does not use).
std::vector<std::string> working_tree_lock_files(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const auto name = it->path().filename().string();
        std::error_code type_ec;
        if (it->is_directory(type_ec) && !it->is_symlink(type_ec)) {
            if (name == ".git" || name == ".terraform") it.disable_recursion_pending();
            continue;
        }
        if (name == kLockName && it->is_regular_file(type_ec)) {
            out.push_back(it->path().lexically_relative(dir).generic_string());
        }
    }
    return out;
}

struct Side {
    bool exists = false;
    std::string text;
};

Engine engine_for(const LockReviewRequest& request, const Side& head, const Side& base) {
    if (request.engine) return *request.engine;
    for (const Side* side : {&head, &base}) {
        if (!side->exists) continue;
        if (auto engine = providers::engine_of_lock_header(side->text)) return *engine;
    }
    return Engine::terraform;
}

// A lock file that does not read cleanly cannot be reviewed: the first
// error, with its position.
std::string read_errors(const providers::LockFileRead& read) {
    for (const auto& d : read.diagnostics) {
        if (d.severity != Severity::error) continue;
        std::string where = d.filename;
        if (d.subject && read.source) {
            where += fmt::format(":{}:{}", read.source->line(d.subject->start), read.source->column(d.subject->start));
        }
        return fmt::format("{}: {}{}{}", where, d.summary, d.detail.empty() ? "" : ": ", d.detail);
    }
    return {};
}

struct Question {
    online::VersionQuestion question;
    std::set<std::string> verify;
    std::set<std::string> classify;
};

using VersionKey = std::pair<providers::Provider, std::string>;

// The reviewed files before verification: read, compared, with their questions.
struct Pending {
    fs::path head_path;
    LockFileReview review;
    providers::LockFile before;
    providers::LockFile after;
    Engine engine = Engine::terraform;
};

std::vector<std::string> platforms_of(const std::vector<std::string>& hashes, const online::VersionAnswer* answer) {
    std::set<std::string> out;
    if (answer == nullptr) return {};
    for (const auto& h : hashes) {
        if (auto it = answer->platform_of.find(h); it != answer->platform_of.end()) out.insert(it->second);
    }
    return {out.begin(), out.end()};
}

// The nearest .tfsift.toml's [rules] (off, severity) and [[ignore]] applied
// to one lock file's findings; a settings file that does not read is an error.
void apply_settings(Findings& findings, const fs::path& lock_file, std::span<const Rule> catalogue,
                    std::map<std::string, std::optional<Settings>>& cache, std::vector<std::string>& errors) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(lock_file, ec).lexically_normal();
    const std::string file = find_settings_file(absolute.parent_path().string());
    if (file.empty()) return;
    auto [it, fresh] = cache.try_emplace(file);
    if (fresh) {
        auto loaded = load_settings(file, false, catalogue);
        for (const auto& e : loaded.errors) errors.push_back(e.to_string());
        if (loaded.ok()) it->second = std::move(loaded.settings);
    }
    if (!it->second) return;
    const Settings& settings = *it->second;
    std::erase_if(findings, [&](Finding& f) {
        if (settings.ignored(f.rule_id, absolute.string())) return true;
        auto rule = settings.rules.find(f.rule_id);
        if (rule == settings.rules.end()) return false;
        if (rule->second.enabled == false) return true;
        if (rule->second.severity) f.severity = *rule->second.severity;
        return false;
    });
}

}  // namespace

LockReview review_lock_changes(const LockReviewRequest& request) {
    LockReview out;
    std::vector<std::string> paths = request.paths;
    if (paths.empty()) paths.emplace_back(".");
    const bool use_git = request.base_file.empty();
    if (use_git && request.base_ref.empty()) {
        out.errors.emplace_back("lock diff needs --base REF or --base-file OLD");
        return out;
    }

    // ---- which files
    std::vector<Target> targets;
    std::set<fs::path> checked_dirs;
    for (const auto& p : paths) {
        std::error_code ec;
        const fs::path path(p);
        const bool is_dir = fs::is_directory(path, ec);
        if (!is_dir && path.filename() != kLockName) {
            out.errors.push_back(fmt::format("{}: not a directory or a {} file", p, kLockName));
            continue;
        }
        if (!is_dir || !use_git) {
            const fs::path file = is_dir ? path / kLockName : path;
            const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
            targets.push_back({dir, kLockName, file});
            if (!use_git) break;  // --base-file compares one file
            if (checked_dirs.insert(dir).second) {
                if (auto answer = check_revision(dir, request.base_ref); !answer.ok()) {
                    out.errors.push_back(answer.error);
                    return out;
                }
            }
            continue;
        }
        if (auto answer = check_revision(path, request.base_ref); !answer.ok()) {
            out.errors.push_back(answer.error);
            return out;
        }
        std::set<std::string> found;
        for (auto& f : working_tree_lock_files(path)) found.insert(std::move(f));
        auto listed = files_at_revision(path, request.base_ref, kLockName);
        if (!listed.ok()) {
            out.errors.push_back(listed.error);
            return out;
        }
        for (auto& f : listed.paths) found.insert(std::move(f));
        for (const auto& f : found) targets.push_back({path, f, path / f});
    }
    if (!use_git && targets.empty()) {
        targets.push_back({".", kLockName, fs::path(kLockName)});
    }

    // ---- read and compare
    std::vector<Pending> pending;
    std::set<std::string> seen;
    for (const auto& t : targets) {
        const std::string shown = display_path(t.head_path);
        if (!seen.insert(shown).second) continue;
        Side head;
        Side base;
        std::error_code ec;
        if (fs::exists(t.head_path, ec)) {
            // A committed link out of the repository (to /proc/self/environ, say)
            // is refused, as lint refuses it.
            ReadPolicy policy;
            policy.root = trusted_root_of(t.dir.string());
            auto read = read_regular_file(t.head_path.string(), policy);
            if (!read.ok()) {
                out.errors.push_back(fmt::format("cannot read {}", read.message));
                continue;
            }
            head = {true, std::move(read.bytes)};
        }
        std::string base_name;
        if (use_git) {
            base_name = fmt::format("{}:{}", request.base_ref, shown);
            auto file = file_at_revision(t.dir, request.base_ref, t.relative);
            if (!file.ok()) {
                out.errors.push_back(file.error);
                continue;
            }
            base = {file.exists, std::move(file.text)};
        } else {
            base_name = display_path(request.base_file);
            auto read = read_regular_file(request.base_file, ReadPolicy{});
            if (!read.ok()) {
                out.errors.push_back(fmt::format("cannot read the base lock file: {}", read.message));
                continue;
            }
            base = {true, std::move(read.bytes)};
        }
        // Unchanged bytes are no change, even in a file that does not read.
        if (head.exists == base.exists && head.text == base.text) continue;
        Pending p;
        p.head_path = t.head_path;
        p.engine = engine_for(request, head, base);
        providers::LockReadOptions options;
        options.engine = p.engine;
        const auto head_source = std::make_shared<const SourceFile>(shown, head.text);
        if (head.exists) {
            auto read = providers::read_lock_file(head_source, options);
            if (auto e = read_errors(read); !e.empty()) {
                out.errors.push_back(fmt::format("cannot review {}: {}", shown, e));
                continue;
            }
            p.after = std::move(read.locks);
            p.review.context.locations = providers::locate_lock_entries(head_source);
        }
        if (base.exists) {
            auto read = providers::read_lock_file(std::make_shared<const SourceFile>(base_name, base.text), options);
            if (auto e = read_errors(read); !e.empty()) {
                out.errors.push_back(fmt::format("cannot read the base {}: {}", base_name, e));
                continue;
            }
            p.before = std::move(read.locks);
        }
        auto diff = providers::diff_lock_files(p.before, p.after);
        if (diff.empty()) continue;
        p.review.path = shown;
        p.review.base = base_name;
        p.review.state = !base.exists   ? LockFileState::created
                         : !head.exists ? LockFileState::deleted
                                        : LockFileState::changed;
        p.review.context.file = head_source;
        for (auto& c : diff.providers) {
            ReviewedProvider r;
            r.change = std::move(c);
            for (const auto& h : r.change.added_hashes) r.added.push_back({h, std::nullopt, {}, {}, {}});
            p.review.context.providers.push_back(std::move(r));
        }
        pending.push_back(std::move(p));
    }

    // ---- verify
    std::map<std::pair<Engine, VersionKey>, Question> questions;
    if (!request.offline) {
        for (const auto& p : pending) {
            for (const auto& r : p.review.context.providers) {
                const auto& c = r.change;
                if (!c.provider.is_lockable(p.engine)) continue;
                if (c.to) {
                    auto& q = questions[{p.engine, {c.provider, c.to->to_string()}}];
                    q.question.provider = c.provider;
                    q.question.version = *c.to;
                    q.verify.insert(c.added_hashes.begin(), c.added_hashes.end());
                    q.classify.insert(c.kept_hashes.begin(), c.kept_hashes.end());
                }
                if (c.from && (!c.to || *c.from != *c.to)) {
                    auto& q = questions[{p.engine, {c.provider, c.from->to_string()}}];
                    q.question.provider = c.provider;
                    q.question.version = *c.from;
                    q.classify.insert(c.removed_hashes.begin(), c.removed_hashes.end());
                    q.classify.insert(c.kept_hashes.begin(), c.kept_hashes.end());
                } else if (c.from) {
                    auto& q = questions[{p.engine, {c.provider, c.from->to_string()}}];
                    q.classify.insert(c.removed_hashes.begin(), c.removed_hashes.end());
                }
            }
        }
    }
    std::map<std::pair<Engine, VersionKey>, online::VersionAnswer> answers;
    for (const Engine engine : {Engine::terraform, Engine::opentofu}) {
        std::vector<online::VersionQuestion> asked;
        std::vector<std::pair<Engine, VersionKey>> keys;
        for (auto& [key, q] : questions) {
            if (key.first != engine) continue;
            q.question.verify.assign(q.verify.begin(), q.verify.end());
            q.question.classify.assign(q.classify.begin(), q.classify.end());
            asked.push_back(q.question);
            keys.push_back(key);
        }
        if (asked.empty()) continue;
        online::VerificationOptions options;
        options.engine = engine;
        options.engine_version =
            request.engine_version.empty() ? std::string(default_engine_version(engine)) : request.engine_version;
        options.jobs = request.jobs;
        options.cache_dir = request.cache_dir;
        options.preferred = {providers::current_platform().to_string()};
        auto got = online::verify_lock_hashes(asked, options, providers::process_environment());
        for (std::size_t i = 0; i < got.size(); ++i) {
            out.downloads += got[i].downloads;
            if (!got[i].ok()) out.errors.push_back(got[i].error);
            answers.emplace(keys[i], std::move(got[i]));
        }
    }
    out.verified = !request.offline;

    // ---- judge
    std::map<std::string, std::optional<Settings>> settings_cache;
    for (auto& p : pending) {
        auto& ctx = p.review.context;
        ctx.verified = out.verified;
        for (auto& r : ctx.providers) {
            const auto& c = r.change;
            const auto find = [&](const std::optional<providers::Version>& v) -> const online::VersionAnswer* {
                if (!v) return nullptr;
                auto it = answers.find({p.engine, {c.provider, v->to_string()}});
                return it == answers.end() ? nullptr : &it->second;
            };
            const auto* after = find(c.to);
            const auto* before = find(c.from);
            for (const auto* a : {after, before}) {
                if (a != nullptr && !a->ok() && r.error.empty()) r.error = a->error;
            }
            if (after != nullptr && after->ok()) {
                r.published = after->listed;
                if (after->listed) r.signer_after = VersionSigner{after->key_id, after->trust};
                for (auto& h : r.added) {
                    for (const auto& v : after->verdicts) {
                        if (v.hash != h.hash) continue;
                        h.is_signed = v.is_signed;
                        h.platform = v.platform;
                        h.key_id = after->key_id;
                        h.trust = after->trust;
                    }
                }
                std::vector<std::string> head_hashes = c.added_hashes;
                head_hashes.insert(head_hashes.end(), c.kept_hashes.begin(), c.kept_hashes.end());
                r.platforms_after = platforms_of(head_hashes, after);
            }
            if (before != nullptr && before->ok()) {
                if (before->listed) r.signer_before = VersionSigner{before->key_id, before->trust};
                std::vector<std::string> base_hashes = c.removed_hashes;
                base_hashes.insert(base_hashes.end(), c.kept_hashes.begin(), c.kept_hashes.end());
                r.platforms_before = platforms_of(base_hashes, before);
            }
        }
        FindingSink sink(p.review.findings);
        for (const auto& rule : request.rules) {
            if (rule.check) rule.check(ctx, sink);
        }
        apply_settings(p.review.findings, p.head_path, request.catalogue, settings_cache, out.errors);
        sort_findings(p.review.findings);
        out.files.push_back(std::move(p.review));
    }
    std::sort(out.files.begin(), out.files.end(),
              [](const LockFileReview& a, const LockFileReview& b) { return a.path < b.path; });
    return out;
}

}  // namespace tfsift::lint
