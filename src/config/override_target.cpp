#include "override_target.hpp"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include <fmt/core.h>

namespace tfsift::config {

namespace {

// One part of a traversal: the root or a step.
struct Part {
    bool attr = true;
    std::string_view name;
    Range range;
    const hcl::LiteralExpr* key = nullptr;  // an index step's literal key
};

// An instance key is a string or a whole number.
bool valid_instance_key(const hcl::LiteralExpr* key) {
    if (key == nullptr) return false;
    if (key->literal == hcl::LiteralKind::string) return true;
    if (key->literal != hcl::LiteralKind::number) return false;
    const std::string text(key->text);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(v) && v == std::floor(v);
}

OverrideTargetError invalid_address(std::string detail, Range r) { return {"Invalid address", std::move(detail), r}; }

OverrideTargetError invalid_operator(std::string detail, Range r) {
    return {"Invalid address operator", std::move(detail), r};
}

}  // namespace

std::variant<OverrideTarget, OverrideTargetError> parse_override_target(const hcl::ScopeTraversalExpr& t) {
    std::vector<Part> parts;
    parts.push_back(Part{true, t.root, t.root_range(), nullptr});
    for (const auto& step : t.steps) {
        if (step.kind == hcl::StepKind::attr) {
            parts.push_back(Part{true, step.name, step.range, nullptr});
        } else {
            parts.push_back(Part{false, {}, step.range, step.key()});
        }
    }

    OverrideTarget out;
    std::size_t i = 0;
    // Module calls.
    while (i < parts.size()) {
        if (!parts[i].attr) {
            return invalid_operator("A module call's name must follow its instance key after a dot.", parts[i].range);
        }
        if (parts[i].name != "module") break;
        if (i + 1 == parts.size() || !parts[i + 1].attr) {
            const Range r = i + 1 == parts.size() ? parts[i].range : parts[i + 1].range;
            return invalid_operator("`module.` must be followed by the name of a module call.", r);
        }
        out.names.emplace_back("module");
        out.names.emplace_back(parts[i + 1].name);
        i += 2;
        if (i < parts.size() && !parts[i].attr) {
            if (!valid_instance_key(parts[i].key)) {
                return invalid_operator("A module instance key is a string or a whole number.", parts[i].range);
            }
            ++i;
        }
    }
    if (i == parts.size()) return out;  // a module call

    // A resource.
    const Range rest{parts[i].range.start, parts.back().range.end};
    const std::string_view first = parts[i].name;
    out.kind = OverrideTargetKind::managed;
    if (first == "data" || first == "ephemeral" || first == "list" || first == "resource") {
        if (first == "data") out.kind = OverrideTargetKind::data;
        if (first == "ephemeral") out.kind = OverrideTargetKind::ephemeral;
        if (first == "list") out.kind = OverrideTargetKind::list;
        if (first == "data") out.names.emplace_back("data");
        ++i;
    } else {
        static constexpr std::string_view reserved[] = {"count",     "each", "local",    "module", "path", "self",
                                                        "terraform", "var",  "template", "lazy",   "arg"};
        for (std::string_view word : reserved) {
            if (first != word) continue;
            return invalid_address(fmt::format("\"{}\" is a reserved word, not a resource type; write "
                                               "\"resource.{}...\" for a resource type of that name.",
                                               first, first),
                                   rest);
        }
    }
    if (parts.size() - i < 2) {
        const Range r = i < parts.size() ? Range{parts[i].range.start, parts.back().range.end} : parts.back().range;
        return invalid_address("A resource address needs a resource type and a name.", r);
    }
    if (!parts[i].attr) return invalid_address("A resource type name must come here.", parts[i].range);
    if (!parts[i + 1].attr) return invalid_address("A resource name must come here.", parts[i + 1].range);
    out.names.emplace_back(parts[i].name);
    out.names.emplace_back(parts[i + 1].name);
    i += 2;
    if (i == parts.size()) return out;
    if (i + 1 < parts.size()) {
        return invalid_address("Nothing may follow a resource address and its instance key.", parts[i + 1].range);
    }
    if (parts[i].attr) return invalid_address("An instance key is written in square brackets.", parts[i].range);
    if (!valid_instance_key(parts[i].key)) {
        return invalid_address("A resource instance key is a string or a whole number.", parts[i].range);
    }
    return out;
}

}  // namespace tfsift::config
