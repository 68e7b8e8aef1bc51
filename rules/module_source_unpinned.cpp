// module-source-unpinned: a git or Mercurial module source that names no
// revision, or names a default branch.
#include <array>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

// The value of `name` in the query string of a go-getter address.
std::optional<std::string> query_value(std::string_view address, std::string_view name) {
    const auto q = address.find('?');
    if (q == std::string_view::npos) return std::nullopt;
    // Terraform writes a subdirectory after the query: `...git?ref=v1//modules/vpc`.
    std::string_view query = address.substr(q + 1);
    query = query.substr(0, query.find("//"));
    while (!query.empty()) {
        const auto amp = query.find('&');
        std::string_view pair = query.substr(0, amp);
        const auto eq = pair.find('=');
        if (pair.substr(0, eq) == name) return std::string(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return std::nullopt;
}

// Branch names that are the default branch of most repositories: a ref
// naming one follows whatever is pushed there next.
bool default_branch(std::string_view ref) {
    constexpr std::array<std::string_view, 6> names = {"main", "master", "trunk", "develop", "default", "HEAD"};
    for (std::string_view n : names) {
        if (ref == n) return true;
    }
    return false;
}

void check(const LintContext& ctx, FindingSink& sink) {
    for (const auto& [name, call] : ctx.module().module->module_calls) {
        if (!call.source || !call.source->value) continue;
        const std::string& address = *call.source->value;
        const bool git = address.starts_with("git::");
        const bool hg = address.starts_with("hg::");
        if (!git && !hg) continue;
        const char* param = git ? "ref" : "rev";
        auto ref = query_value(address, param);
        std::string message;
        if (!ref || ref->empty()) {
            message = fmt::format(
                "module \"{}\": the {} source {} names no revision (?{}=), so every init takes "
                "whatever the default branch holds then; pin a tag or a commit",
                name, git ? "git" : "Mercurial", call.source->as_written, param);
        } else if (default_branch(*ref)) {
            message = fmt::format(
                "module \"{}\": {}={} names a default branch, so every init takes whatever it "
                "holds then; pin a tag or a commit",
                name, param, *ref);
        } else {
            continue;
        }
        Finding f;
        f.rule_id = "module-source-unpinned";
        f.severity = Severity::warning;
        f.file = ctx.shared_source(call.source->origin.file);
        if (!f.file) continue;
        const std::uint32_t start = call.source->origin.pos.byte;
        std::uint32_t end = start;
        const std::string_view text = f.file->text();
        while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
        f.range = Range{call.source->origin.pos, Pos{end}};
        f.message = std::move(message);
        sink.report(std::move(f));
    }
}

}  // namespace

Rule module_source_unpinned() {
    Rule r;
    r.id = "module-source-unpinned";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A git or Mercurial module source names no revision, or names a default branch.";
    r.doc.what =
        "Reports each `module` call whose `source` is a git address (`git::...`, and the `github.com/...`, "
        "`bitbucket.org/...` and `git@...` shorthands) without a `ref` query argument, or a Mercurial address "
        "(`hg::...`) without `rev`, and each whose `ref`/`rev` names a usual default branch (`main`, "
        "`master`, `trunk`, `develop`, `default`, `HEAD`). Registry modules are `module-version-unpinned`'s. "
        "TFLint calls this `terraform_module_pinned_source`.";
    r.doc.why =
        "Without a fixed revision every `terraform init` (or a fresh checkout in CI) downloads whatever the "
        "branch holds at that moment, and the dependency lock file does not record module versions: the same "
        "configuration plans different resources from one day to the next.";
    r.doc.failing_example = R"hcl(module "network" {
  source = "git::https://example.com/network.git"
}
)hcl";
    r.doc.passing_example = R"hcl(module "network" {
  source = "git::https://example.com/network.git?ref=v1.4.0"
}
)hcl";
    r.doc.fix_safety = "Not fixable: choose the tag or commit to pin yourself.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
