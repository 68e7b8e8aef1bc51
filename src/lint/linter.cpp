#include "tfsift/lint/linter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "tfsift/lint/inline_ignores.hpp"
#include "tfsift/lint/registry.hpp"

namespace tfsift::lint {

std::vector<Rule> rules_for(const Settings& settings) {
    std::vector<Rule> rules(builtin_rules().begin(), builtin_rules().end());
    for (const Policy& p : settings.policies) rules.push_back(policy_rule(p));
    return rules;
}

std::vector<ActiveRule> activate_rules(const std::vector<Rule>& rules, const Settings& settings,
                                       const RuleSelection& selection, std::vector<std::string>& unknown) {
    std::vector<ActiveRule> active;
    active.reserve(rules.size());
    for (const Rule& r : rules) {
        ActiveRule a{&r, r.enabled_by_default, std::nullopt};
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
    fix.edits.push_back({src, Range{src->pos_at(begin), src->pos_at(end)}, ""});
    return fix;
}

}  // namespace

Findings lint_module(const LintContext& context, const std::vector<ActiveRule>& rules, const Settings& settings) {
    Findings findings;
    std::map<std::string, const ActiveRule*, std::less<>> by_id;
    for (const auto& a : rules) by_id[a.rule->id] = &a;

    for (const auto& a : rules) {
        if (!a.enabled || !a.rule->check) continue;
        Findings own;
        FindingSink sink(own);
        a.rule->check(context, sink);
        for (auto& f : own) {
            if (a.severity_override) f.severity = *a.severity_override;
            findings.push_back(std::move(f));
        }
    }

    // Per-path ignores of the settings.
    std::map<std::string, std::string> absolute;  // file path -> absolute path
    for (const hcl::File& file : context.files) absolute[file.source->path()] = absolute_normal_path(file.source->path());
    findings.erase(std::remove_if(findings.begin(), findings.end(),
                                  [&](const Finding& f) {
                                      auto it = absolute.find(f.file->path());
                                      std::string abs = it != absolute.end() ? it->second
                                                                             : absolute_normal_path(f.file->path());
                                      return settings.ignored(f.rule_id, abs);
                                  }),
                   findings.end());

    // Inline ignores, then notices for the ones that suppressed nothing.
    const ActiveRule* unused = nullptr;
    if (auto it = by_id.find(unused_ignore_rule_id); it != by_id.end() && it->second->enabled) unused = it->second;
    Findings notices;
    for (const hcl::File& file : context.files) {
        auto ignores = find_ignore_comments(file);
        if (ignores.empty()) continue;
        apply_ignore_comments(*file.source, ignores, findings);
        if (unused == nullptr || settings.ignored(std::string(unused_ignore_rule_id), absolute[file.source->path()])) {
            continue;
        }
        for (const IgnoreComment& ic : ignores) {
            bool all_unused = true;
            Findings mine;
            for (const IgnoredRule& r : ic.rules) {
                auto it = by_id.find(r.rule_id);
                std::string message;
                if (it == by_id.end()) {
                    message = fmt::format("`{}` names no rule", r.rule_id);
                } else if (!r.used && it->second->enabled) {
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
