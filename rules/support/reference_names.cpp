#include "reference_names.hpp"

#include <algorithm>
#include <unordered_map>

#include "tfsift/hcl/references.hpp"
#include "tfsift/lint/module_memo.hpp"

namespace tfsift::lint {
namespace {

ReferenceName leading_names(const hcl::ScopeTraversalExpr& t) {
    ReferenceName out{std::string(t.root)};
    for (const auto& step : t.steps) {
        if (step.kind != hcl::StepKind::attr) break;
        out.emplace_back(step.name);
    }
    return out;
}

void native_references(const hcl::Expr& e, std::vector<ReferenceName>& out) {
    for (const auto* t : hcl::referenced_traversals(e)) out.push_back(leading_names(*t));
}

void json_references(const json::Value& v, std::vector<ReferenceName>& out) {
    switch (v.kind) {
        case json::Kind::string: {
            if (v.text.find("${") == std::string::npos && v.text.find("%{") == std::string::npos) return;
            auto parsed = shared_json_string(v, true);
            if (parsed->expr) native_references(*parsed->expr, out);
            return;
        }
        case json::Kind::array:
            for (const auto& item : v.items) json_references(item, out);
            return;
        case json::Kind::object:
            for (const auto& m : v.members) json_references(m.value, out);
            return;
        default: return;
    }
}

}  // namespace

JsonStringExpression parse_json_string(const json::Value& value, bool as_template) {
    JsonStringExpression out;
    auto source = std::make_shared<const SourceFile>("<json string>", value.text);
    // A block the size of a small tree of the string, not the default one:
    // a module's memo keeps every string it parsed (a generated `.tf.json`
    // has thousands), and each default block would take pages of its own.
    const std::size_t size = value.text.size();
    out.arena = std::make_unique<Arena>(size * 3 + 64, std::clamp<std::size_t>(size / 4, 256, std::size_t{4} * 1024));
    Diagnostics diags;
    const std::string_view text = source->text();
    out.expr = as_template ? hcl::parse_template(*source, text, Pos{}, *out.arena, diags)
                           : hcl::parse_expression(*source, text, Pos{}, *out.arena, diags);
    if (has_errors(diags)) out.expr = nullptr;
    out.source = std::move(source);
    return out;
}

Range json_string_file_range(const json::Value& value, const SourceFile* text, Range range) {
    const Range whole = value.range;
    const std::uint32_t quoted = whole.end.byte - whole.start.byte;
    if (quoted < 2 || text == nullptr || quoted - 2 != text->text().size() || range.end.byte > quoted - 2) {
        return whole;
    }
    const std::uint32_t base = whole.start.byte + 1;
    return Range{Pos{base + range.start.byte}, Pos{base + range.end.byte}};
}

std::shared_ptr<const JsonStringExpression> shared_json_string(const json::Value& value, bool as_template) {
    ModuleMemo* memo = ModuleMemo::active();
    if (memo == nullptr) return std::make_shared<const JsonStringExpression>(parse_json_string(value, as_template));
    // The module's JSON values live as long as the memo: their addresses are keys.
    struct Parsed {
        std::unordered_map<const json::Value*, std::shared_ptr<const JsonStringExpression>> by_value[2];
    };
    auto& parsed = memo->shared<Parsed>().by_value[as_template ? 1 : 0][&value];
    if (parsed == nullptr) parsed = std::make_shared<const JsonStringExpression>(parse_json_string(value, as_template));
    return parsed;
}

std::vector<ReferenceName> expression_references(const config::Expression& expr) {
    std::vector<ReferenceName> out;
    if (expr.native) native_references(*expr.native, out);
    if (expr.json) json_references(*expr.json, out);
    return out;
}

std::vector<ReferenceName> body_references(const config::Body& body) {
    std::vector<ReferenceName> out;
    for (const auto& a : body.arguments) {
        for (auto& r : expression_references(a.expr)) out.push_back(std::move(r));
    }
    for (const auto& b : body.blocks) {
        for (auto& r : body_references(b.body)) out.push_back(std::move(r));
    }
    for (const auto& p : body.undecided) {
        if (p.value) json_references(*p.value, out);
    }
    return out;
}

ReferenceName traversal_reference(const config::Traversal& traversal) {
    ReferenceName out;
    std::string part;
    for (char c : traversal.text) {
        if (c == '.' || c == '[') {
            out.push_back(part);
            part.clear();
            if (c == '[') return out;
            continue;
        }
        part += c;
    }
    if (!part.empty()) out.push_back(part);
    return out;
}

}  // namespace tfsift::lint
