// Loading what the lock file rules share.
#include "tfsift/lint/lock_inputs.hpp"

#include <filesystem>
#include <system_error>

#include "tfsift/config/paths.hpp"

namespace tfsift::lint {

namespace fs = std::filesystem;

namespace {

// From `pos` to the end of its line: the narrowest range an Origin gives.
Range line_range(const SourceFile& file, Pos pos) {
    std::string_view text = file.text();
    std::uint32_t end = pos.byte;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    return {pos, Pos{static_cast<std::uint32_t>(end)}};
}

}  // namespace

std::string lock_file_display_path(const std::string& module_dir) {
    std::string dir = module_dir;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir == "." || dir.empty()) return std::string(providers::kLockFileName);
    return dir + "/" + std::string(providers::kLockFileName);
}

const config::TreeRequirements& LockInputs::requirements() const {
    if (!requirements_) {
        requirements_ =
            module != nullptr ? config::collect_tree_requirements(*module, engine) : config::TreeRequirements{};
    }
    return *requirements_;
}

std::vector<const config::TreeRequirement*> LockInputs::lockable(Engine engine) const {
    std::vector<const config::TreeRequirement*> out;
    for (const auto& [provider, req] : requirements()) {
        if (provider.is_lockable(engine)) out.push_back(&req);
    }
    return out;
}

std::shared_ptr<const SourceFile> LockInputs::source() const {
    if (read.source) return read.source;
    return std::make_shared<const SourceFile>(path, std::string());
}

Range LockInputs::entry_range(const providers::Provider& provider,
                              std::optional<Range> providers::LockEntryLocation::*part) const {
    auto it = locations.find(provider.to_string());
    if (it == locations.end()) {
        const auto* lock = read.locks.find(provider);
        return lock != nullptr && lock->definition ? *lock->definition : Range{};
    }
    if (part != nullptr && it->second.*part) return *(it->second.*part);
    return it->second.definition;
}

namespace {

LockInputs compute_lock_inputs(const LintContext& ctx) {
    LockInputs in;
    in.path = lock_file_display_path(ctx.module_dir);
    // Anything by that name, as the scan listed the directory or as the
    // file system says.
    if (const ScanListings::Entries listed = ctx.listing_of(config::absolute_normal_path(ctx.module_dir))) {
        in.exists = lists_entry(*listed, providers::kLockFileName);
    } else {
        std::error_code ec;
        in.exists = fs::exists(fs::symlink_status(in.path, ec));
    }
    if (in.exists) {
        providers::LockReadOptions options;
        options.engine = ctx.engine;
        options.read_policy = ctx.tree->read_policy;
        in.read = providers::load_lock_file(in.path, options);
        in.locations = providers::locate_lock_entries(in.read.source);
    }
    in.module = &ctx.module();
    in.engine = ctx.engine;
    return in;
}

thread_local LockInputsCache* active_cache = nullptr;

}  // namespace

LockInputsCache::LockInputsCache() : outer_(active_cache) { active_cache = this; }

LockInputsCache::~LockInputsCache() { active_cache = outer_; }

const LockInputs& load_lock_inputs(const LintContext& ctx) {
    if (active_cache == nullptr) {
        thread_local std::unique_ptr<LockInputs> last;
        last = std::make_unique<LockInputs>(compute_lock_inputs(ctx));
        return *last;
    }
    for (const auto& [context, answer] : active_cache->answers_) {
        if (context == &ctx) return *answer;
    }
    active_cache->answers_.emplace_back(&ctx, std::make_unique<LockInputs>(compute_lock_inputs(ctx)));
    return *active_cache->answers_.back().second;
}

std::optional<providers::StateFile> load_state(const LintContext& ctx) {
    if (ctx.state_file.empty()) return std::nullopt;
    ReadPolicy policy = ctx.tree->read_policy;
    if (ctx.state_file_given) policy.root.clear();
    return providers::read_state_file(ctx.state_file, ctx.state_file, ctx.engine, policy);
}

void report_state_diagnostics(const providers::StateFile& state, const std::string& rule_id, Severity severity,
                              FindingSink& sink) {
    for (const auto& d : state.diagnostics) {
        Finding f;
        f.rule_id = rule_id;
        f.severity = severity;
        f.message = d.detail.empty() ? d.summary : d.summary + ": " + d.detail;
        f.file = state.source ? state.source : std::make_shared<const SourceFile>(d.filename, std::string());
        f.range = d.subject.value_or(Range{});
        sink.report(std::move(f));
    }
}

std::optional<SiteLocation> locate_site(const LintContext& ctx, const config::RequirementSite& site) {
    auto site_file = ctx.shared_source(site.origin.file);
    if (!site_file) return std::nullopt;
    Range site_range = line_range(*site_file, site.origin.pos);
    if (site.root_call.empty()) return SiteLocation{site_file, site_range, std::nullopt};
    auto call = ctx.module().module->module_calls.find(site.root_call);
    if (call == ctx.module().module->module_calls.end()) return std::nullopt;
    auto call_file = ctx.shared_source(call->second.origin.file);
    if (!call_file) return std::nullopt;
    return SiteLocation{call_file, line_range(*call_file, call->second.origin.pos),
                        RelatedLocation{site_file, site_range, "required here, in " + site.module->address}};
}

providers::LocalPackages visible_packages(const LintContext& ctx) {
    if (ctx.packages != nullptr) return ctx.packages->find(ctx.module_dir, ctx.engine);
    return providers::find_local_packages(ctx.module_dir, providers::process_environment(), ctx.engine);
}

}  // namespace tfsift::lint
