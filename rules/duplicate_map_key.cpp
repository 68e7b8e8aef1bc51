// duplicate-map-key: one key written twice in an object constructor.
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

// The key an object item names, when it is written as a constant: a bare
// name, a quoted string without interpolation, or a number or bool literal
// (keys are strings, so `1` and "1" are the same key). A number's spelling
// as a key is kept in `numbers`, which the answer then points into.
std::optional<std::string_view> constant_key(const hcl::Expr& key_expr, std::deque<std::string>& numbers) {
    const auto& key = hcl::as<hcl::ObjectKeyExpr>(key_expr);
    const hcl::Expr* e = key.wrapped;
    if (e == nullptr) return std::nullopt;
    if (e->kind == hcl::ExprKind::scope_traversal) {
        const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
        if (key.force_non_literal || !t.steps.empty()) return std::nullopt;
        return std::string_view(t.root);
    }
    if (e->kind == hcl::ExprKind::template_) {
        const auto& tmpl = hcl::as<hcl::TemplateExpr>(*e);
        if (tmpl.parts.empty()) return std::string_view();
        if (tmpl.parts.size() != 1 || tmpl.parts[0]->kind != hcl::ExprKind::literal) return std::nullopt;
        return std::string_view(hcl::as<hcl::LiteralExpr>(*tmpl.parts[0]).text);
    }
    if (e->kind == hcl::ExprKind::literal) {
        const auto& lit = hcl::as<hcl::LiteralExpr>(*e);
        if (lit.literal == hcl::LiteralKind::number) return numbers.emplace_back(hcl::render_number(lit.text));
        if (lit.literal == hcl::LiteralKind::boolean || lit.literal == hcl::LiteralKind::string)
            return std::string_view(lit.text);
    }
    return std::nullopt;
}

// The constant keys of one object seen so far, each with where it was last
// set. Most objects have a few items, compared one by one; a large one is
// looked up in a hash table.
class SeenKeys {
public:
    void clear() {
        few_.clear();
        // Clearing a hash table writes all its buckets, even when it is empty.
        if (!many_.empty()) many_.clear();
        if (!numbers_.empty()) numbers_.clear();
    }
    std::deque<std::string>& numbers() { return numbers_; }

    // Where `key` was last set, or null (then it is recorded at `at`).
    Range* find_or_add(std::string_view key, Range at, std::size_t object_size) {
        if (object_size <= few_limit) {
            for (auto& [k, r] : few_) {
                if (k == key) return &r;
            }
            few_.emplace_back(key, at);
            return nullptr;
        }
        auto [it, inserted] = many_.try_emplace(key, at);
        return inserted ? nullptr : &it->second;
    }

private:
    static constexpr std::size_t few_limit = 16;
    std::vector<std::pair<std::string_view, Range>> few_;
    std::unordered_map<std::string_view, Range> many_;
    std::deque<std::string> numbers_;
};

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    SeenKeys seen;
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::object)) {
        const written::WrittenExpression& root = index->root_of(node);
        if (root.site.from_json) continue;
        const auto& source = root.file->parsed->source;
        const auto& items = hcl::as<hcl::ObjectExpr>(*node.expr).items;
        if (items.size() < 2) continue;
        seen.clear();
        for (const auto& item : items) {
            auto key = constant_key(*item.key, seen.numbers());
            if (!key) continue;
            Range* first = seen.find_or_add(*key, item.key->range, items.size());
            if (first == nullptr) continue;
            Finding f;
            f.rule_id = "duplicate-map-key";
            f.severity = Severity::warning;
            f.file = source;
            f.range = item.key->range;
            f.message = fmt::format("the key \"{}\" is set twice in this object: only the last value is kept", *key);
            f.related.push_back({source, *first, "first set here"});
            *first = item.key->range;
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule duplicate_map_key() {
    Rule r;
    r.id = "duplicate-map-key";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "An object constructor (`{ ... }`) sets the same key twice.";
    r.doc.what =
        "Reports each item of an object or map constructor in a native-syntax file whose key is a constant "
        "(a bare name, a quoted string without interpolation, a number or a bool) already set by an earlier "
        "item of the same constructor, with the earlier one as a related location. Keys computed by "
        "expressions are not compared. TFLint calls this `terraform_map_duplicate_keys`.";
    r.doc.why =
        "Terraform keeps the last value without a word, so the first one is dead text that readers will trust: "
        "usually a copy-and-paste slip where a different key was meant.";
    r.doc.failing_example = R"hcl(locals {
  tags = {
    Name = "web"
    Name = "api"
  }
}
)hcl";
    r.doc.passing_example = R"hcl(locals {
  tags = {
    Name    = "web"
    Service = "api"
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: decide which value, and which key, was meant.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
