// Renders a rule's fixed-form documentation as Markdown and as plain text.
#include <fmt/format.h>

#include "tfsift/lint/rule.hpp"

namespace tfsift::lint {
namespace {

std::string fenced(const std::string& code) {
    std::string out = "```hcl\n" + code;
    if (!code.empty() && code.back() != '\n') out += '\n';
    return out + "```\n";
}

std::string indented(const std::string& code) {
    std::string out;
    std::size_t start = 0;
    while (start < code.size()) {
        auto end = code.find('\n', start);
        if (end == std::string::npos) end = code.size();
        out += "    " + code.substr(start, end - start) + "\n";
        start = end + 1;
    }
    return out;
}

}  // namespace

std::string_view to_string(RuleCategory c) {
    switch (c) {
        case RuleCategory::correctness: return "correctness";
        case RuleCategory::supply_chain: return "supply-chain";
        case RuleCategory::maintainability: return "maintainability";
        case RuleCategory::style: return "style";
        case RuleCategory::policy: return "policy";
    }
    return "correctness";
}

std::string_view to_string(RulePrecision p) {
    switch (p) {
        case RulePrecision::very_high: return "very-high";
        case RulePrecision::high: return "high";
        case RulePrecision::medium: return "medium";
        case RulePrecision::low: return "low";
    }
    return "high";
}

std::string documentation_uri(const ProjectLinks& links, std::string_view path) {
    if (links.homepage.empty()) return {};
    return fmt::format("{}/blob/v{}/{}", links.homepage, links.version, path);
}

std::string rule_help_uri(const Rule& rule, const ProjectLinks& links) {
    if (rule.is_policy) return documentation_uri(links, "docs/policies.md");
    return documentation_uri(links, fmt::format("docs/rules/{}.md", rule.id));
}

std::string rule_markdown(const Rule& rule) {
    const RuleDoc& d = rule.doc;
    std::string out = fmt::format("# {}\n\n{}\n\n", rule.id, d.summary);
    out += fmt::format("| default severity | enabled by default | fixable |\n|---|---|---|\n| {} | {} | {} |\n\n",
                       to_string(rule.default_severity), rule.enabled_by_default ? "yes" : "no",
                       rule.fixable ? "yes" : "no");
    out += "## What it checks\n\n" + d.what + "\n\n";
    out += "## Why\n\n" + d.why + "\n\n";
    out += "## Failing example\n\n" + fenced(d.failing_example) + "\n";
    out += "## Passing example\n\n" + fenced(d.passing_example) + "\n";
    out += "## Fix\n\n" + d.fix_safety + "\n";
    return out;
}

std::string rule_plain_text(const Rule& rule) {
    const RuleDoc& d = rule.doc;
    std::string out = d.summary + "\n\nWhat it checks: " + d.what + "\n\nWhy: " + d.why + "\n\n";
    out += "Failing example:\n\n" + indented(d.failing_example) + "\n";
    out += "Passing example:\n\n" + indented(d.passing_example) + "\n";
    out += "Fix: " + d.fix_safety + "\n";
    return out;
}

}  // namespace tfsift::lint
