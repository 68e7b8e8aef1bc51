// required-version-conflict: the module tree's `required_version`
// constraints cannot all be met, or the declared engine version is outside
// them.
#include <fmt/format.h>

#include "support/factories.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/providers/core_version.hpp"

namespace tfsift::lint::rules {

namespace {

using providers::CoreConstraint;
using providers::CoreVersion;

struct Entry {
    const config::LoadedModule* module = nullptr;
    const config::RequiredVersion* required = nullptr;
    std::string root_call;  // "" in the root module
    std::vector<CoreConstraint> constraints;
    std::string text;
};

void collect(const config::LoadedModule& m, const std::string& root_call, std::vector<Entry>& out) {
    for (const auto& rv : m.module->terraform.required_version) {
        std::string text;
        for (const auto& c : rv.constraints) text += (text.empty() ? "" : ", ") + c;
        auto parsed = providers::parse_core_constraints(text);
        if (!parsed) continue;  // the loader reports it
        out.push_back({&m, &rv, root_call, *parsed, text});
    }
    for (const auto& [name, child] : m.children) collect(child, m.address.empty() ? name : root_call, out);
}

CoreVersion version_of(std::vector<std::int64_t> segments) {
    CoreVersion v;
    v.written_segments = segments.size();
    while (segments.size() < 3) segments.push_back(0);
    v.segments = std::move(segments);
    return v;
}

// Whether some version meets every entry. The candidates that meet the
// intersection if anything does: every boundary, a version just above it,
// and zero. An intersection of intervals (less some points) that is not
// empty holds its lower boundary or a version just above it. Each is tried
// as it is made: most trees are met by one of the first.
bool satisfiable(const std::vector<const Entry*>& entries) {
    auto meets_all = [&entries](const CoreVersion& v) {
        for (const Entry* e : entries) {
            if (!providers::core_constraints_allow(e->constraints, v)) return false;
        }
        return true;
    };
    if (meets_all(version_of({0, 0, 0}))) return true;
    for (const Entry* e : entries) {
        for (const auto& c : e->constraints) {
            const auto& segs = c.version.segments;
            if (meets_all(version_of(segs))) return true;
            for (std::int64_t extra : {1, 2}) {
                auto above = segs;
                above.push_back(extra);
                if (meets_all(version_of(std::move(above)))) return true;
            }
        }
    }
    return false;
}

Range line_from(const SourceFile& file, Pos pos) {
    std::string_view text = file.text();
    std::uint32_t end = pos.byte;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    return {pos, Pos{static_cast<std::uint32_t>(end)}};
}

// Where an entry shows in the root module: itself, or the call leading to it.
bool locate(const LintContext& ctx, const Entry& e, Finding& f) {
    auto file = ctx.shared_source(e.required->origin.file);
    if (!file) return false;
    Range range = line_from(*file, e.required->origin.pos);
    if (e.root_call.empty()) {
        f.file = file;
        f.range = range;
        return true;
    }
    auto call = ctx.module().module->module_calls.find(e.root_call);
    if (call == ctx.module().module->module_calls.end()) return false;
    f.file = ctx.shared_source(call->second.origin.file);
    if (!f.file) return false;
    f.range = line_from(*f.file, call->second.origin.pos);
    f.related.push_back({file, range, "required_version of " + e.module->address});
    return true;
}

std::string describe(const Entry& e) {
    return fmt::format("\"{}\" ({})", e.text, e.module->address.empty() ? "root module" : e.module->address);
}

}  // namespace

Rule required_version_conflict() {
    Rule r;
    r.id = "required-version-conflict";
    r.default_severity = Severity::error;
    r.doc.summary =
        "The module tree's `required_version` constraints cannot all be met, or exclude the declared engine version.";
    r.doc.what =
        "Collects the `required_version` constraints of the module and every module it calls (with "
        "hashicorp/go-version's semantics: `~> 1.2` means `>= 1.2, < 2`, and `~> 1` has no upper bound) and "
        "reports an error when no Terraform version can meet them all, naming a smallest set of modules that "
        "conflict. With `engine_version = \"X.Y.Z\"` in `.tfsift.toml` it also gives a notice for each constraint "
        "that does not accept that version. Findings point at the root module's `required_version`, or at the "
        "module call leading to the module that declares it.";
    r.doc.why =
        "Terraform checks every module's `required_version` before doing anything: a conflict means no release "
        "can run the configuration, and an excluded engine version means the project's own tooling cannot.";
    r.doc.failing_example = R"hcl(terraform {
  required_version = "< 1.3"
}
module "net" {
  source = "./net"   # required_version = ">= 1.5"
}
)hcl";
    r.doc.passing_example = R"hcl(terraform {
  required_version = ">= 1.3"
}
module "net" {
  source = "./net"   # required_version = ">= 1.5"
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = [](const LintContext& ctx, FindingSink& sink) {
        std::vector<Entry> entries;
        collect(ctx.module(), "", entries);
        std::vector<const Entry*> all;
        all.reserve(entries.size());
        for (const auto& e : entries) all.push_back(&e);
        if (!all.empty() && !satisfiable(all)) {
            // Shrink to a minimal conflicting set: drop every entry the
            // conflict survives without.
            std::vector<const Entry*> core = all;
            for (std::size_t i = 0; i < core.size();) {
                auto without = core;
                without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
                if (!without.empty() && !satisfiable(without)) {
                    core = std::move(without);
                } else {
                    ++i;
                }
            }
            std::string list;
            for (const Entry* e : core) list += (list.empty() ? "" : " and ") + describe(*e);
            Finding f;
            f.rule_id = "required-version-conflict";
            f.severity = Severity::error;
            f.message = "no Terraform version meets every required_version of the module tree: " + list;
            // Point at the first entry of the root module, else the first call.
            const Entry* primary = core.front();
            for (const Entry* e : core) {
                if (e->root_call.empty()) {
                    primary = e;
                    break;
                }
            }
            if (locate(ctx, *primary, f)) {
                for (const Entry* e : core) {
                    if (e == primary) continue;
                    if (auto file = ctx.shared_source(e->required->origin.file)) {
                        f.related.push_back({file, line_from(*file, e->required->origin.pos),
                                             "conflicting required_version " + describe(*e)});
                    }
                }
                sink.report(std::move(f));
            }
        }
        if (!ctx.settings->engine_version) return;
        auto engine_version = providers::parse_core_version(*ctx.settings->engine_version);
        if (!engine_version) return;
        CoreVersion core = *engine_version;
        core.prerelease.clear();  // the running version is compared by its core only
        core.metadata.clear();
        for (const auto& e : entries) {
            if (providers::core_constraints_allow(e.constraints, core)) continue;
            Finding f;
            f.rule_id = "required-version-conflict";
            f.severity = Severity::notice;
            f.message =
                fmt::format("the declared engine version {} (engine_version in {}) does not meet required_version {}",
                            *ctx.settings->engine_version, settings_file_name, describe(e));
            if (locate(ctx, e, f)) sink.report(std::move(f));
        }
    };
    return r;
}

}  // namespace tfsift::lint::rules
