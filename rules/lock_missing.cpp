// lock-missing: a root module that requires providers has no lock file, or
// keeps it out of version control.
#include <fnmatch.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <system_error>

#include "support/factories.hpp"
#include "support/module_anchor.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/lock_fix.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint::rules {

namespace fs = std::filesystem;

namespace {

// Whether the module looks like one that is applied (a root module) rather
// than a library module nobody calls within the scan: it configures a
// backend, a cloud block or a provider, or has state or a working directory.
bool looks_like_root(const LintContext& ctx) {
    const auto& m = *ctx.module().module;
    if (m.terraform.backend || m.terraform.cloud || !m.providers.empty() || !ctx.state_file.empty()) return true;
    if (ctx.listed_without(config::absolute_normal_path(ctx.module_dir), ".terraform")) return false;
    std::error_code ec;
    return fs::is_directory(fs::path(ctx.module_dir) / ".terraform", ec);
}

struct IgnoreLine {
    std::string file;
    std::uint32_t line = 0;
};

// The .gitignore line that ignores `lock` (last match wins in a file; nearer
// files win over farther ones), looking up to the repository root. A
// directory the scan listed is asked for neither file its listing lacks.
std::optional<IgnoreLine> ignored_by_git(const fs::path& lock, const ReadPolicy& policy, const LintContext& ctx) {
    std::error_code ec;
    fs::path abs = fs::absolute(lock, ec).lexically_normal();
    if (ec) return std::nullopt;
    fs::path display_dir = lock.parent_path();
    for (fs::path dir = abs.parent_path();; dir = dir.parent_path()) {
        fs::path gi = dir / ".gitignore";
        FileContent content;
        if (ctx.listed_without(dir.string(), ".gitignore")) {
            content.failure = ReadFailure::missing;
        } else {
            content = read_regular_file(gi.string(), policy);
        }
        if (content.ok()) {
            std::istringstream in(content.bytes);
            std::string rel = abs.lexically_relative(dir).generic_string();
            std::string base = abs.filename().string();
            std::optional<IgnoreLine> verdict;
            bool decided = false;
            std::string line;
            for (std::uint32_t n = 1; std::getline(in, line); ++n) {
                while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t'))
                    line.pop_back();
                if (line.empty() || line[0] == '#') continue;
                bool negate = line[0] == '!';
                std::string pat = negate ? line.substr(1) : line;
                if (pat.empty() || pat.back() == '/') continue;  // directories only
                bool anchored = pat.find('/') != std::string::npos;
                if (pat.rfind("**/", 0) == 0) {
                    pat = pat.substr(3);
                    anchored = pat.find('/') != std::string::npos;
                }
                if (!pat.empty() && pat[0] == '/') pat = pat.substr(1);
                bool match = anchored ? fnmatch(pat.c_str(), rel.c_str(), FNM_PATHNAME) == 0
                                      : fnmatch(pat.c_str(), base.c_str(), 0) == 0;
                if (!match) continue;
                decided = true;
                verdict = negate ? std::nullopt : std::optional<IgnoreLine>(IgnoreLine{gi.string(), n});
            }
            if (decided) {
                // Name the .gitignore relative to the module directory as the user named it.
                if (verdict)
                    verdict->file = (display_dir / dir.lexically_relative(abs.parent_path()) / ".gitignore")
                                        .lexically_normal()
                                        .string();
                return verdict;
            }
        }
        if (dir == dir.parent_path()) break;
        if (!ctx.listed_without(dir.string(), ".git") && fs::exists(dir / ".git", ec)) break;
    }
    return std::nullopt;
}

// Whether the module lies in a directory of examples or tests below the
// repository root (`examples/`, `test/fixtures/`, ...): libraries do not commit
// lock files for those, and on the corpus nearly every finding there was noise
// (docs/corpus-findings.md).
bool in_examples_or_tests(const LintContext& ctx) {
    static const std::set<std::string, std::less<>> names = {"example", "examples", "test",
                                                             "tests",   "testdata", "test-fixtures"};
    const std::string& root = ctx.tree->read_policy.root;
    if (root.empty()) return false;
    // The root is a real path; the module directory is as named.
    const std::string dir = in_terms_of_root(absolute_normal_path(ctx.module_dir), root);
    if (dir.size() <= root.size() || dir.compare(0, root.size() + 1, root + "/") != 0) return false;
    std::string_view rest = std::string_view(dir).substr(root.size() + 1);
    while (!rest.empty()) {
        const std::size_t slash = rest.find('/');
        if (names.count(rest.substr(0, slash))) return true;
        if (slash == std::string_view::npos) break;
        rest.remove_prefix(slash + 1);
    }
    return false;
}

// Where locate_site puts a requirement's site, as far as comparing sites
// needs: the file and the start of the range, without the range's end (a
// scan to the end of the line) or the related location (a message) that
// only the site shown needs.
struct SiteStart {
    const config::RequirementSite* site = nullptr;
    const SourceFile* file = nullptr;
    Pos pos;
};

std::optional<SiteStart> site_start(const LintContext& ctx, const config::RequirementSite& site) {
    if (!ctx.shared_source(site.origin.file)) return std::nullopt;
    if (site.root_call.empty()) return SiteStart{&site, site.origin.file, site.origin.pos};
    auto call = ctx.module().module->module_calls.find(site.root_call);
    if (call == ctx.module().module->module_calls.end()) return std::nullopt;
    if (!ctx.shared_source(call->second.origin.file)) return std::nullopt;
    return SiteStart{&site, call->second.origin.file, call->second.origin.pos};
}

}  // namespace

Rule lock_missing() {
    Rule r;
    r.id = "lock-missing";
    r.default_severity = Severity::warning;
    r.category = RuleCategory::supply_chain;
    r.security_severity = 5.0;
    r.doc.summary =
        "A root module that requires providers has no dependency lock file, or keeps it out of version control.";
    r.doc.what =
        "Reports a root module (one that no other module of the scan calls and that configures a backend, a "
        "`cloud` block or a provider, or has a state file or a `.terraform` directory) whose module tree requires "
        "at least one installable provider but which has no `.terraform.lock.hcl`, and a lock file that a "
        "`.gitignore` up to the repository root ignores. Library modules without provider configuration are not "
        "expected to have a lock file, and neither are modules in a directory named `example`, `examples`, "
        "`test`, `tests`, `testdata` or `test-fixtures` below the repository root. A missing lock file is "
        "reported at the module's first `terraform` block (else at the start of its first file), with the first "
        "provider requirement as a related location.";
    r.doc.why =
        "Without a committed lock file every `terraform init` selects the newest versions the constraints allow "
        "and records the checksums of whatever it downloads as trusted on that first use: two runs of the same "
        "commit can use different provider code.";
    r.doc.failing_example = R"hcl(# no .terraform.lock.hcl beside this file
provider "aws" {
  region = "eu-west-1"
}
)hcl";
    r.doc.passing_example = R"hcl(# .terraform.lock.hcl committed beside this file
provider "aws" {
  region = "eu-west-1"
}
)hcl";
    r.doc.fix_safety =
        std::string(
            "`tfsift lint --fix` creates the lock file when the packages of every required provider can be found "
            "(offline: installed, in the plugin cache or a filesystem mirror); it never edits `.gitignore`.") +
        std::string(kLockRepairFixSafety);
    r.fixable = true;
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        if (ctx.role != ModuleRole::root || in_examples_or_tests(ctx)) return;
        const LockInputs& in = load_lock_inputs(ctx);
        auto required = in.lockable(ctx.engine);
        if (required.empty()) return;
        if (in.exists) {
            auto ignored = ignored_by_git(in.path, ctx.tree->read_policy, ctx);
            if (!ignored) return;
            Finding f;
            f.rule_id = "lock-missing";
            f.severity = Severity::warning;
            f.message =
                ".terraform.lock.hcl is ignored by this .gitignore line, so the provider selections it "
                "records are not shared; commit the lock file";
            try {
                f.file = SourceFile::read(ignored->file);
            } catch (const std::exception&) {
                f.file = std::make_shared<const SourceFile>(ignored->file, std::string());
            }
            auto start = Pos{0};
            for (std::uint32_t byte = 0, line = 1; byte < f.file->size(); ++byte) {
                if (line == ignored->line) {
                    start = Pos{static_cast<std::uint32_t>(byte)};
                    break;
                }
                if (f.file->text()[byte] == '\n') ++line;
            }
            f.range = {start, start};
            sink.report(std::move(f));
            return;
        }
        if (!looks_like_root(ctx)) return;
        // The finding sits where the module says what it needs (its
        // terraform block, else its first file); the first requirement the
        // root module itself writes, else the first module call leading to
        // one, is shown beside it.
        std::optional<SiteStart> first;
        std::string names;
        for (const auto* req : required) {
            names += (names.empty() ? "" : ", ") + req->provider.for_display(ctx.engine);
            for (const auto& site : req->sites) {
                auto start = site_start(ctx, site);
                if (!start) continue;
                if (!first || start->file->path() < first->file->path() ||
                    (start->file->path() == first->file->path() && start->pos.byte < first->pos.byte)) {
                    first = start;
                }
            }
        }
        std::optional<SiteLocation> where;
        if (first) where = locate_site(ctx, *first->site);
        const ModuleAnchor anchor = module_anchor(ctx);
        if (!where || !anchor.file) return;
        Finding f;
        f.rule_id = "lock-missing";
        f.severity = Severity::warning;
        f.message = "this root module requires providers (" + names +
                    ") but has no .terraform.lock.hcl; run `terraform init` (or `tfsift lint --fix`) and commit it";
        f.file = anchor.file;
        f.range = anchor.range;
        f.related.push_back({where->file, where->range, "the first provider requirement"});
        attach_lock_repair(ctx, f);
        sink.report(std::move(f));
    };
    return r;
}

}  // namespace tfsift::lint::rules
