// override-invalid-result: the block that merging override files produces
// breaks a rule that holds for every block of its kind, although each file
// on its own is valid. Terraform's loader merges these silently; the
// trouble shows later (or never, when one setting quietly wins).
//
// Checked: `count` together with `for_each` on a resource, data source or
// module call; `version` on a module call whose source is not a registry
// address; `backend` together with `cloud` in one override file (the cloud
// block wins and the backend is dropped). Claimed from the loader: a null
// default made invalid by `nullable = false` coming from an override file.
#include <string_view>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/override_support.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

constexpr std::string_view rule_id = "override-invalid-result";

// Where in the load order a file comes: primaries first, then override
// files (ctx.files() lists them by name, mixed).
std::size_t load_index(const LintContext& ctx, const SourceFile* file) {
    const auto& files = ctx.files();
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].parsed->source.get() == file) return files[i].is_override ? files.size() + i : i;
    }
    return 2 * files.size();
}

bool from_override(const LintContext& ctx, const SourceFile* file) {
    for (const auto& f : ctx.files()) {
        if (f.parsed->source.get() == file) return f.is_override;
    }
    return false;
}

// One setting of a merged block: its name and where it was written.
struct Setting {
    std::string_view name;
    const SourceFile* file;
    Range range;
};

// Reports two settings that no single block may have together, when an
// override file brought them together. Settings written in one file were
// reported (or not) by the decoder for that block.
void report_pair(const LintContext& ctx, FindingSink& sink, const std::string& header, const Setting& a,
                 const Setting& b, const config::Origin& base, std::string_view why) {
    if (a.file == b.file) return;
    if (!from_override(ctx, a.file) && !from_override(ctx, b.file)) return;
    // Point at the later of the two: the override that completed the pair.
    const bool a_later = load_index(ctx, a.file) > load_index(ctx, b.file);
    const Setting& at = a_later ? a : b;
    const Setting& other = a_later ? b : a;
    Finding f;
    f.rule_id = std::string(rule_id);
    f.severity = Severity::error;
    f.message = fmt::format("{}: after merging override files it sets both {} and {}, {}", header, a.name, b.name, why);
    f.file = ctx.shared_source(at.file);
    f.range = at.range;
    f.related.push_back({ctx.shared_source(other.file), other.range, fmt::format("{} is set here", other.name)});
    if (base.file && base.file != other.file) {
        f.related.push_back({ctx.shared_source(base.file), Range{base.pos, base.pos}, "the merged block"});
    }
    if (f.file) sink.report(std::move(f));
}

void check_count_for_each(const LintContext& ctx, FindingSink& sink, const std::string& header,
                          const std::optional<config::Expression>& count,
                          const std::optional<config::Expression>& for_each, const config::Origin& base) {
    if (!count || !for_each) return;
    report_pair(ctx, sink, header, {"count", count->file, count->range}, {"for_each", for_each->file, for_each->range},
                base, "which are mutually exclusive");
}

void check_backend_and_cloud(const LintContext& ctx, FindingSink& sink) {
    for (const auto& f : ctx.files()) {
        if (!f.is_override) continue;
        const config::TerraformBlock* backend_block = nullptr;
        std::size_t backend_index = 0;
        const config::TerraformBlock* cloud_block = nullptr;
        for (const auto& tb : f.decoded->terraform) {
            if (!backend_block && !tb.backends.empty()) backend_block = &tb;
            if (!cloud_block && !tb.clouds.empty()) cloud_block = &tb;
        }
        if (!backend_block || !cloud_block) continue;
        const config::Backend& backend = backend_block->backends[backend_index];
        Finding finding;
        finding.rule_id = std::string(rule_id);
        finding.severity = Severity::error;
        finding.message = fmt::format(
            "backend \"{}\": this override file also has a cloud block; Terraform keeps only the cloud block and "
            "drops this backend without a word",
            backend.type);
        finding.file = f.parsed->source;
        finding.range = backend_block->backend_ranges[backend_index];
        finding.related.push_back({f.parsed->source, cloud_block->cloud_ranges.front(), "the cloud block that wins"});
        sink.report(std::move(finding));
    }
}

void check_module_version(const LintContext& ctx, FindingSink& sink, const config::ModuleCall& call) {
    if (!call.source || !call.version_constraints || !call.version_constraints->origin) return;
    if (config::parse_module_source(call.source->as_written, true).error.empty()) return;
    const config::Origin& v = *call.version_constraints->origin;
    const config::Origin& s = call.source->origin;
    report_pair(ctx, sink, block_header("module", {call.name}), {"source", s.file, Range{s.pos, s.pos}},
                {"version", v.file, Range{v.pos, v.pos}}, call.origin,
                "but version applies only to module registry sources");
}

void check(const LintContext& ctx, FindingSink& sink) {
    const config::Module& m = *ctx.module().module;
    for (const auto* table : {&m.resources, &m.data}) {
        for (const auto& [key, r] : *table) {
            if (r.overridden_by.empty()) continue;
            check_count_for_each(
                ctx, sink,
                block_header(r.mode == config::ResourceMode::managed ? "resource" : "data", {r.type, r.name}), r.count,
                r.for_each, r.origin);
        }
    }
    for (const auto& [name, call] : m.module_calls) {
        if (call.overridden_by.empty()) continue;
        check_count_for_each(ctx, sink, block_header("module", {name}), call.count, call.for_each, call.origin);
        check_module_version(ctx, sink, call);
    }
    check_backend_and_cloud(ctx, sink);
}

}  // namespace

Rule override_invalid_result() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "Merging an override file produces a block that no single file could contain.";
    r.doc.what =
        "The block that results from merging override files must still obey every rule for its kind. The rule "
        "reports merged results that Terraform's loader accepts without a word although it would reject the "
        "same block written in one file:\n\n"
        "- a resource, data source or module call with both `count` and `for_each` (one from the primary block, "
        "the other from an override);\n"
        "- a module call with a `version` whose `source` is not a module registry address (a local path, a Git "
        "URL...), the two coming from different files;\n"
        "- an override file with both a `backend` and a `cloud` block (Terraform keeps the `cloud` block and "
        "drops the backend);\n"
        "- a variable whose default is null while an override file sets `nullable = false` (Terraform's loader "
        "rejects this one; the rule reports it in place of `invalid-configuration`).\n\n"
        "The finding points at the setting of the override file that completed the conflict, with the other "
        "setting and the merged block as related locations.";
    r.doc.why =
        "Each file looks valid on its own, so the conflict only exists in the merged configuration that no one "
        "reads. Terraform either fails later, in `plan`, or silently ignores one of the settings.";
    r.doc.failing_example = R"hcl(# main.tf
resource "aws_instance" "web" {
  count = 2
  ami   = "ami-408c7f28"
}

# override.tf
resource "aws_instance" "web" {
  for_each = toset(["a", "b"])
}
)hcl";
    r.doc.passing_example = R"hcl(# main.tf
resource "aws_instance" "web" {
  count = 2
  ami   = "ami-408c7f28"
}

# override.tf
resource "aws_instance" "web" {
  count = 3
}
)hcl";
    r.doc.fix_safety = "Not fixable: decide which of the two settings the configuration needs.";
    r.check = check;
    r.claimed_codes = {code::variable_default_not_nullable, code::merged_default_not_nullable};
    // Only when an override file is the cause; the same mistake in a primary
    // file alone stays invalid-configuration.
    r.claim_only_if = [](const ClaimedDiagnostic& d) {
        return is_override_file_path(d.source ? std::string_view(d.source->path()) : d.filename);
    };
    return r;
}

}  // namespace tfsift::lint::rules
