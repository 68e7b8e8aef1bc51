// The per-module memo the rules share (lint/module_memo.hpp) and the index of
// written expressions built through it (rules/support/written_expressions).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../../rules/support/reference_names.hpp"
#include "../../rules/support/written_expressions.hpp"
#include "support/scratch_dir.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_memo.hpp"
#include "tfsift/tree_space.hpp"

using namespace tfsift;
using namespace tfsift::lint;
namespace fs = std::filesystem;

namespace {

struct Counted {
    int serial = 0;
};

std::shared_ptr<const Counted> counted(const LintContext& ctx, int& calls) {
    return memoised<Counted>(ctx, [&calls](const LintContext&) { return Counted{++calls}; });
}

std::string text_of(const config::ModuleFile& file, const hcl::Expr& e) {
    return std::string(file.parsed->source->text().substr(e.range.start.byte, e.range.end.byte - e.range.start.byte));
}

}  // namespace

TEST_CASE("memoised: once per context while a memo lives, every time without one", "[lint][memo]") {
    LintContext first;
    LintContext second;
    int calls = 0;
    {
        const ModuleMemo memo;
        auto a = counted(first, calls);
        auto b = counted(first, calls);
        CHECK(a == b);
        CHECK(calls == 1);
        auto c = counted(second, calls);
        CHECK(c->serial == 2);
        CHECK(calls == 2);
        {
            const ModuleMemo inner;  // the innermost memo answers
            CHECK(counted(first, calls)->serial == 3);
            CHECK(counted(first, calls)->serial == 3);
        }
        CHECK(counted(first, calls)->serial == 1);
    }
    CHECK(ModuleMemo::active() == nullptr);
    CHECK(counted(first, calls)->serial == 4);
    CHECK(counted(first, calls)->serial == 5);
}

TEST_CASE("expression index: nodes by kind, parents first, in file and source order", "[lint][memo]") {
    testing::ScratchDir scratch;
    testing::write_file(scratch.path / "a.tf",
                        "variable \"v\" {\n  validation {\n    condition = var.v != \"\"\n  }\n}\n"
                        "locals {\n  x = { k = var.v, n = [local.y] }\n  y = \"${var.v}\"\n}\n");
    testing::write_file(scratch.path / "b.tf.json", R"({"output": {"o": {"value": "${local.x.k}"}}})");
    Settings settings;
    auto tree = load_for_lint(scratch.path.string(), Engine::terraform, settings);
    REQUIRE(tree.root != nullptr);
    LintContext ctx;
    ctx.module_dir = scratch.path.string();
    ctx.tree = &tree;
    ctx.settings = &settings;
    const auto index = written::expression_index(ctx);

    std::vector<std::string> traversals;
    std::vector<std::string> blocks;
    for (const auto& node : index->nodes(hcl::ExprKind::scope_traversal)) {
        const auto& root = index->root_of(node);
        std::string text = root.site.from_json
                               ? "json:" + std::string(hcl::as<hcl::ScopeTraversalExpr>(*node.expr).root)
                               : text_of(*root.file, *node.expr);
        traversals.push_back(text);
        blocks.push_back(std::string(root.site.block_type) + " " + std::string(root.site.block_label));
    }
    // Bare object keys are traversals too (under their object_key node).
    CHECK(traversals == std::vector<std::string>{"var.v", "k", "var.v", "n", "local.y", "var.v", "json:local"});
    CHECK(blocks ==
          std::vector<std::string>{"variable v", "locals ", "locals ", "locals ", "locals ", "locals ", "output o"});

    // The object comes before what it holds; the tuple inside it after it.
    REQUIRE(index->nodes(hcl::ExprKind::object).size() == 1);
    REQUIRE(index->nodes(hcl::ExprKind::tuple).size() == 1);
    CHECK(index->nodes(hcl::ExprKind::object)[0].root == index->nodes(hcl::ExprKind::tuple)[0].root);
    const auto wraps = index->nodes(hcl::ExprKind::template_wrap);
    REQUIRE(wraps.size() == 2);
    CHECK(text_of(*index->root_of(wraps[0]).file, *wraps[0].expr) == "\"${var.v}\"");
    CHECK(index->root_of(wraps[1]).site.from_json);
    // A JSON string without a template is no expression.
    std::size_t json_roots = 0;
    for (const auto& root : index->roots()) json_roots += root.site.from_json ? 1 : 0;
    CHECK(json_roots == 1);
}

TEST_CASE("a JSON string is parsed once while a memo lives", "[lint][memo]") {
    json::Value v;
    v.kind = json::Kind::string;
    v.text = "${var.region}-${local.suffix}";
    {
        const ModuleMemo memo;
        auto first = shared_json_string(v, true);
        auto again = shared_json_string(v, true);
        CHECK(first == again);
        REQUIRE(first->expr != nullptr);
        CHECK(first->expr->kind == hcl::ExprKind::template_);
        // As an expression rather than a template, it is another parse.
        CHECK(shared_json_string(v, false) != first);
        struct Scratch {
            int value = 0;
        };
        ModuleMemo::active()->shared<Scratch>().value = 7;
        CHECK(ModuleMemo::active()->shared<Scratch>().value == 7);
    }
    CHECK(shared_json_string(v, true) != shared_json_string(v, true));
}

TEST_CASE("JSON strings parsed for a module's rules take memory by their size", "[lint][memo]") {
    // A generated `.tf.json` holds thousands of interpolated strings, and the
    // module's memo keeps each one parsed while the module is linted.
    std::vector<json::Value> strings(3000);
    for (std::size_t i = 0; i < strings.size(); ++i) {
        strings[i].kind = json::Kind::string;
        strings[i].text = "${var.endpoint_" + std::to_string(i) + ".id}-${local.suffix}";
    }
    const ModuleMemo memo;
    const std::size_t before = tree_space::in_use();
    std::vector<std::shared_ptr<const JsonStringExpression>> kept;
    for (const auto& v : strings) {
        kept.push_back(shared_json_string(v, true));
        REQUIRE(kept.back()->expr != nullptr);
    }
    // The memo gives the same parse back.
    CHECK(shared_json_string(strings[7], true) == kept[7]);
    const std::size_t per_string = (tree_space::in_use() - before) / strings.size();
    // Each string's text and tree, not a default block of the tree space
    // (16 KiB) per string.
    CHECK(per_string < 1024);
}
