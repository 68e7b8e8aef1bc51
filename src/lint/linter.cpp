#include "tfsift/lint/linter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "tfsift/config/module_checks.hpp"
#include "tfsift/config/query_checks.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/engine_gate.hpp"
#include "tfsift/lint/inline_ignores.hpp"
#include "tfsift/lint/lock_inputs.hpp"
#include "tfsift/lint/module_memo.hpp"
#include "tfsift/lint/repository_root.hpp"

namespace tfsift::lint {

std::vector<Rule> rules_for(const Settings& settings, std::span<const Rule> catalogue) {
    std::vector<Rule> rules(catalogue.begin(), catalogue.end());
    for (const Policy& p : settings.policies) rules.push_back(policy_rule(p));
    return rules;
}

std::vector<ActiveRule> activate_rules(const std::vector<Rule>& rules, const Settings& settings,
                                       const RuleSelection& selection, std::vector<std::string>& unknown) {
    std::vector<ActiveRule> active;
    active.reserve(rules.size());
    const Preset preset = selection.preset.value_or(settings.preset.value_or(Preset::recommended));
    for (const Rule& r : rules) {
        ActiveRule a{&r, preset == Preset::strict || r.enabled_by_default, std::nullopt};
        if (auto it = settings.rules.find(r.id); it != settings.rules.end()) {
            if (it->second.enabled) a.enabled = *it->second.enabled;
            a.severity_override = it->second.severity;
        }
        active.push_back(a);
    }
    auto find = [&](const std::string& id) -> ActiveRule* {
        for (auto& a : active) {
            if (a.rule->id == id) return &a;
        }
        unknown.push_back(id);
        return nullptr;
    };
    // --only first (it sets the whole selection), then --enable and --disable on top.
    if (!selection.only.empty()) {
        for (auto& a : active) a.enabled = false;
        for (const auto& id : selection.only) {
            if (auto* a = find(id)) a->enabled = true;
        }
    }
    for (const auto& id : selection.enable) {
        if (auto* a = find(id)) a->enabled = true;
    }
    for (const auto& id : selection.disable) {
        if (auto* a = find(id)) a->enabled = false;
    }
    return active;
}

namespace {

// Deletes an ignore comment, with its whole line when nothing else is on it.
Fix remove_comment_fix(const std::shared_ptr<const SourceFile>& src, Range comment) {
    std::string_view text = src->text();
    std::uint32_t begin = comment.start.byte;
    std::uint32_t end = comment.end.byte;
    std::uint32_t line_begin = begin;
    while (line_begin > 0 && text[line_begin - 1] != '\n') --line_begin;
    bool alone = text.substr(line_begin, begin - line_begin).find_first_not_of(" \t") == std::string_view::npos;
    if (alone) {
        begin = line_begin;
        while (end < text.size() && text[end] != '\n') ++end;
        if (end < text.size()) ++end;
    } else {
        while (begin > line_begin && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
    }
    Fix fix;
    fix.description = "Remove the unused ignore comment";
    fix.applicability = Applicability::safe;
    fix.edits.push_back({src, Range{Pos{static_cast<std::uint32_t>(begin)}, Pos{static_cast<std::uint32_t>(end)}}, ""});
    return fix;
}

}  // namespace

config::LoadedTree load_for_lint(const std::string& module_dir, Engine engine, const Settings& settings,
                                 const std::string& trusted_root, std::shared_ptr<const FileOverlays> overlays,
                                 std::shared_ptr<config::LoadCache> cache, std::uint64_t scan_id,
                                 const ScanListings* listings, std::shared_ptr<config::ModuleSourceResolver> resolver,
                                 config::RootVariableInputs root_variables, std::shared_ptr<ReadBudget> budget) {
    config::TreeOptions options;
    options.root_variables = std::move(root_variables);
    options.test_directory = settings.test_directory;
    options.module_resolver = std::move(resolver);
    options.cache = std::move(cache);
    options.scan_id = scan_id;
    options.listings = listings;
    options.engine = engine;
    options.read_policy =
        settings.read_policy(trusted_root.empty() ? trusted_repository_root(module_dir) : trusted_root);
    options.read_policy.overlays = std::move(overlays);
    options.read_policy.budget = std::move(budget);
    std::string dir = module_dir;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir != ".") options.source_name_prefix = dir + "/";
    if (!settings.excludes.empty()) {
        std::string base = absolute_normal_path(module_dir);
        options.exclude_file = [&settings, base](std::string_view rel) {
            return settings.excluded(absolute_normal_path(base + "/" + std::string(rel)));
        };
    }
    return config::load_module_tree(module_dir, options);
}

namespace {

// The finding for one diagnostic of the loader.
Finding finding_of(const config::LoadDiagnostic& d, std::string_view rule_id, const LintContext& context) {
    Finding f;
    f.rule_id = std::string(rule_id);
    f.severity = d.diagnostic.severity;
    f.message = d.diagnostic.detail.empty() ? d.diagnostic.summary : d.diagnostic.summary + ": " + d.diagnostic.detail;
    f.file = d.source;
    if (!f.file) {
        // Nothing to point into (an unreadable file or directory): name it.
        std::string name = d.diagnostic.filename.empty() ? context.module_dir : d.diagnostic.filename;
        f.file = std::make_shared<const SourceFile>(name, std::string());
    }
    // A diagnostic without a subject concerns the whole file: point at its start.
    f.range = d.diagnostic.subject.value_or(Range{});
    if (d.diagnostic.context && d.diagnostic.subject && *d.diagnostic.context != *d.diagnostic.subject) {
        f.related.push_back({f.file, *d.diagnostic.context, "in this construct"});
    }
    return f;
}

// Sorts `table` by name and keeps the first entry of each name.
template <class T>
void finish_table(std::vector<std::pair<std::string_view, T>>& table) {
    std::stable_sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    table.erase(
        std::unique(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
        table.end());
}

// The entry of `table` (sorted by name) named `name`, or null.
template <class T>
const T* find_in_table(const std::vector<std::pair<std::string_view, T>>& table, std::string_view name) {
    auto it = std::lower_bound(table.begin(), table.end(), name,
                               [](const auto& e, std::string_view n) { return e.first < n; });
    return it != table.end() && it->first == name ? &it->second : nullptr;
}

// The files of a tree's remote modules (LoadedModule::remote) and the
// names their directories give them.
struct RemoteFiles {
    std::set<const SourceFile*> files;
    std::vector<std::string> prefixes;

    [[nodiscard]] bool holds(const Finding& f) const {
        if (!f.file) return false;
        if (files.count(f.file.get()) != 0) return true;
        const std::string& path = f.file->path();
        return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return path.starts_with(p); });
    }
};

void collect_remote(const config::LoadedModule& m, const std::string& module_dir, RemoteFiles& out) {
    if (m.remote) {
        for (const auto& f : m.files) out.files.insert(f.parsed->source.get());
        std::string prefix = m.dir.starts_with("/") || module_dir == "." || module_dir.empty()
                                 ? m.dir + "/"
                                 : module_dir + (module_dir.ends_with("/") ? "" : "/") + m.dir + "/";
        out.prefixes.push_back(std::move(prefix));
    }
    for (const auto& [name, child] : m.children) collect_remote(child, module_dir, out);
}

}  // namespace

RuleSet::RuleSet(std::vector<ActiveRule> rules) : rules_(std::move(rules)) {
    // Of a repeated id the last counts: added first, it survives the sort.
    for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) by_id_.emplace_back(it->rule->id, &*it);
    finish_table(by_id_);
    for (const auto& a : rules_) {
        for (std::string_view code : a.rule->claimed_codes) claimed_by_.emplace_back(code, a.rule);
    }
    finish_table(claimed_by_);
}

const ActiveRule* RuleSet::find(std::string_view id) const {
    const ActiveRule* const* found = find_in_table(by_id_, id);
    return found != nullptr ? *found : nullptr;
}

const Rule* RuleSet::claimant(std::string_view code) const {
    const Rule* const* found = find_in_table(claimed_by_, code);
    return found != nullptr ? *found : nullptr;
}

Findings lint_module(const LintContext& context, const std::vector<ActiveRule>& rules, const Settings& settings) {
    return lint_module(context, RuleSet(rules), settings);
}

Findings lint_module(const LintContext& context, const RuleSet& rule_set, const Settings& settings) {
    // The lock file rules share one reading of the lock file and the tree's requirements.
    const LockInputsCache lock_inputs_cache;
    // Other rules share what they derive from the module (lint/module_memo.hpp).
    const ModuleMemo memo;
    Findings findings;
    const std::vector<ActiveRule>& rules = rule_set.rules();
    auto with_severity = [](const ActiveRule& a, Finding f) {
        if (a.severity_override) f.severity = *a.severity_override;
        return f;
    };

    // The loader's own diagnostics, each under the rule that claims its code.
    // A module its repository calls gets what loading it under a caller
    // would say, whichever scope it is linted in.
    std::vector<config::LoadDiagnostic> as_called;
    if (context.role == ModuleRole::called && context.tree->root) {
        for (auto& p : config::check_called_module(*context.tree->root->module, context.engine)) {
            auto source = context.shared_source(p.at.file);
            as_called.push_back(config::tree_diagnostic(std::move(p), std::move(source)));
        }
        std::vector<const config::QueryFile*> queries;
        for (const auto& q : context.tree->query_files) queries.push_back(q.decoded.get());
        if (auto p = config::list_in_called_module(queries)) {
            auto source = context.shared_source(p->at.file);
            as_called.push_back(config::tree_diagnostic(std::move(*p), std::move(source)));
        }
    }
    auto report_diagnostic = [&](const config::LoadDiagnostic& d) {
        if (dropped_by_release(*context.tree, d, context.engine, settings)) return;
        std::string_view owner =
            d.phase == config::LoadPhase::parse ? syntax_error_rule_id : invalid_configuration_rule_id;
        const Rule* claim = d.phase == config::LoadPhase::parse ? nullptr : rule_set.claimant(d.diagnostic.code);
        if (claim != nullptr) {
            const Rule& rule = *claim;
            if (!rule.claim_only_if || rule.claim_only_if(ClaimedDiagnostic{
                                           d.diagnostic.code, d.diagnostic.severity, d.phase == config::LoadPhase::tree,
                                           d.source, d.diagnostic.filename, d.diagnostic.subject})) {
                owner = rule.id;
            }
        }
        const ActiveRule* owner_rule = rule_set.find(owner);
        if (owner_rule == nullptr || !owner_rule->enabled) return;
        findings.push_back(with_severity(*owner_rule, finding_of(d, owner, context)));
    };
    for (const auto& d : context.tree->diagnostics) report_diagnostic(d);
    for (const auto& d : as_called) report_diagnostic(d);

    for (const auto& a : rules) {
        if (!a.enabled || !a.rule->check) continue;
        Findings own;
        FindingSink sink(own);
        a.rule->check(context, sink);
        for (auto& f : own) findings.push_back(with_severity(a, std::move(f)));
    }

    // Nothing located inside remote modules (someone else's code) unless
    // the settings ask for it.
    if (!settings.remote_module_findings && context.tree->root) {
        RemoteFiles remote;
        collect_remote(*context.tree->root, context.module_dir, remote);
        if (!remote.prefixes.empty()) {
            std::erase_if(findings, [&](const Finding& f) { return remote.holds(f); });
        }
    }

    // Per-path ignores of the settings; each file's absolute path is worked
    // out once, and only when the settings have such ignores.
    if (!settings.ignores.empty()) {
        std::map<const SourceFile*, std::string> absolute;
        findings.erase(std::remove_if(findings.begin(), findings.end(),
                                      [&](const Finding& f) {
                                          auto [it, added] = absolute.try_emplace(f.file.get());
                                          if (added) it->second = absolute_normal_path(f.file->path());
                                          return settings.ignored(f.rule_id, it->second);
                                      }),
                       findings.end());
    }

    // Inline ignores, then notices for the ones that suppressed nothing.
    const ActiveRule* unused = nullptr;
    if (const ActiveRule* a = rule_set.find(unused_ignore_rule_id); a != nullptr && a->enabled) unused = a;
    Findings notices;
    for (const auto& parsed : context.tree->files) {
        if (!parsed->native) continue;
        const hcl::File& file = *parsed->native;
        auto ignores = find_ignore_comments(file);
        if (ignores.empty()) continue;
        apply_ignore_comments(*file.source, ignores, findings);
        // Unused ignores are reported in the module's own files only: a called
        // module's comments may serve rules that run when it is linted itself.
        bool own = std::any_of(context.files().begin(), context.files().end(),
                               [&](const config::ModuleFile& mf) { return mf.parsed == parsed.get(); });
        if (!own || unused == nullptr ||
            (!settings.ignores.empty() &&
             settings.ignored(std::string(unused_ignore_rule_id), absolute_normal_path(file.source->path())))) {
            continue;
        }
        for (const IgnoreComment& ic : ignores) {
            if (ic.from_tflint) continue;
            bool all_unused = true;
            Findings mine;
            for (const IgnoredRule& r : ic.rules) {
                const ActiveRule* named = rule_set.find(r.rule_id);
                std::string message;
                if (named == nullptr) {
                    message = fmt::format("`{}` names no rule", r.rule_id);
                } else if (!r.used && named->enabled) {
                    message = fmt::format("this ignore of `{}` suppresses nothing", r.rule_id);
                } else {
                    all_unused = false;  // used, or its rule is off: the comment stays
                    continue;
                }
                Finding f;
                f.rule_id = std::string(unused_ignore_rule_id);
                f.severity = unused->severity_override.value_or(unused->rule->default_severity);
                f.message = std::move(message);
                f.file = file.source;
                f.range = r.range;
                mine.push_back(std::move(f));
            }
            if (ic.rules.empty()) {
                Finding f;
                f.rule_id = std::string(unused_ignore_rule_id);
                f.severity = unused->severity_override.value_or(unused->rule->default_severity);
                f.message = "this ignore comment names no rule";
                f.file = file.source;
                f.range = ic.comment;
                mine.push_back(std::move(f));
            }
            if (all_unused && !mine.empty()) {
                for (auto& f : mine) f.fix = remove_comment_fix(file.source, ic.comment);
            }
            for (auto& f : mine) notices.push_back(std::move(f));
        }
    }
    for (auto& n : notices) findings.push_back(std::move(n));
    sort_findings(findings);
    return findings;
}

}  // namespace tfsift::lint
