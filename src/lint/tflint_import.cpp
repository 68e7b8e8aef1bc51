#include "tfsift/lint/tflint_import.hpp"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <set>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/constant.hpp"

namespace tfsift::lint {

const std::vector<TflintRuleMapping>& tflint_rule_mappings() {
    // The rules of tflint-ruleset-terraform, by name. One row per rule, kept
    // sorted, so that adding a tfsift rule touches one line.
    static const std::vector<TflintRuleMapping> table = {
        {"terraform_comment_syntax", {}},
        {"terraform_deprecated_index", {"deprecated-index"}},
        {"terraform_deprecated_interpolation", {"deprecated-interpolation"}},
        {"terraform_deprecated_lookup", {"deprecated-lookup"}},
        {"terraform_documented_outputs", {}},
        {"terraform_documented_variables", {}},
        {"terraform_empty_list_equality", {}},
        {"terraform_json_syntax", {}},
        {"terraform_map_duplicate_keys", {"duplicate-map-key"}},
        {"terraform_module_pinned_source", {"module-source-unpinned"}},
        {"terraform_module_shallow_clone", {}},
        {"terraform_module_version", {"module-version-unpinned"}},
        {"terraform_naming_convention", {}},
        {"terraform_required_providers",
         {"provider-source-missing", "provider-version-missing", "module-required-providers"}},
        {"terraform_required_version", {"required-version-missing"}},
        {"terraform_standard_module_structure", {}},
        {"terraform_typed_variables", {"variable-type-missing"}},
        {"terraform_unused_declarations", {"unused-declaration"}},
        {"terraform_unused_required_providers", {"unused-required-provider"}},
        {"terraform_workspace_remote", {"terraform-workspace-remote"}},
    };
    return table;
}

std::vector<std::string_view> tfsift_rules_for_tflint(std::string_view tflint_rule) {
    for (const auto& m : tflint_rule_mappings()) {
        if (m.tflint_rule == tflint_rule) return m.tfsift_rules;
    }
    return {};
}

RuleLookup look_up_rule(std::string_view name, const std::vector<Rule>& rules) {
    RuleLookup out;
    for (const auto& r : rules) {
        if (r.id == name) {
            out.rules.push_back(&r);
            return out;
        }
    }
    for (const auto& m : tflint_rule_mappings()) {
        if (m.tflint_rule != name) continue;
        out.tflint_rule = std::string(name);
        for (std::string_view id : m.tfsift_rules) {
            for (const auto& r : rules) {
                if (r.id == id) out.rules.push_back(&r);
            }
        }
        return out;
    }
    for (const auto& r : rules) out.known_names.push_back(r.id);
    for (const auto& m : tflint_rule_mappings()) out.known_names.emplace_back(m.tflint_rule);
    return out;
}

namespace {

std::string position(const SourceFile& src, Pos pos) { return fmt::format("{}:{}", src.line(pos), src.column(pos)); }

// A literal boolean or string attribute of a body, as JSON; null when absent
// or not constant.
nlohmann::json constant(const hcl::Body& body, std::string_view name) {
    for (const auto& a : body.attributes) {
        if (a.name.view() != name) continue;
        if (auto v = hcl::constant_value_json(*a.expr)) return *v;
    }
    return nullptr;
}

}  // namespace

TflintImport import_tflint_config(const std::string& path, std::string_view text) {
    TflintImport out;
    auto source = std::make_shared<const SourceFile>(path, text);
    const hcl::File file = hcl::parse(source);
    for (const auto& d : file.diagnostics) {
        if (d.severity != Severity::error) continue;
        out.error = fmt::format("{}: {}", d.subject ? position(*source, d.subject->start) : std::string("1:1"),
                                d.detail.empty() ? d.summary : d.summary + ": " + d.detail);
        return out;
    }
    std::map<std::string, std::pair<bool, std::string>> rules;  // tfsift id -> (enabled, from)
    std::string preset;
    for (const auto& block : file.body->blocks) {
        const std::string_view type = block.type.view();
        const std::string where = position(*source, block.type_start);
        if (type == "rule" && block.labels.size() == 1) {
            const std::string name(block.labels[0].value.view());
            const nlohmann::json enabled = constant(block.body, "enabled");
            auto mapped = tfsift_rules_for_tflint(name);
            if (mapped.empty()) {
                out.notes.push_back(fmt::format("{}: rule \"{}\" has no tfsift equivalent; left out", where, name));
                continue;
            }
            if (!enabled.is_boolean()) {
                out.notes.push_back(fmt::format("{}: rule \"{}\" has no literal `enabled`; left out", where, name));
                continue;
            }
            for (auto id : mapped) rules[std::string(id)] = {enabled.get<bool>(), name};
            if (block.body.attributes.size() > 1 || !block.body.blocks.empty()) {
                out.notes.push_back(fmt::format("{}: the options of rule \"{}\" are not carried over", where, name));
            }
        } else if (type == "plugin" && block.labels.size() == 1 && block.labels[0].value.view() == "terraform") {
            const nlohmann::json p = constant(block.body, "preset");
            if (p.is_string() && p.get<std::string>() == "all") preset = "strict";
            if (p.is_string() && p.get<std::string>() == "recommended") preset = "recommended";
        } else if (type == "plugin" && block.labels.size() == 1) {
            out.notes.push_back(fmt::format("{}: plugin \"{}\" has no tfsift equivalent; left out", where,
                                            std::string(block.labels[0].value.view())));
        } else {
            out.notes.push_back(fmt::format("{}: the `{}` block is not carried over", where, std::string(type)));
        }
    }
    out.toml = fmt::format("# Made from {} by `tfsift init --from-tflint`.\n", path);
    if (!preset.empty()) out.toml += fmt::format("preset = \"{}\"\n", preset);
    if (!rules.empty()) {
        out.toml += "\n[rules]\n";
        for (const auto& [id, setting] : rules) {
            out.toml += fmt::format("{} = \"{}\"  # TFLint {}\n", id, setting.first ? "on" : "off", setting.second);
        }
    }
    return out;
}

}  // namespace tfsift::lint
