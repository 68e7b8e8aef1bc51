// override-undocumented's fix: the comment it inserts documents the block,
// so the rule no longer reports it, and the rest of the file is unchanged.
// (The fixture test checks findings only, not the text of fixes.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/scratch_dir.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
using namespace tfsift::lint;
namespace fs = std::filesystem;

namespace {

Findings lint_undocumented(const fs::path& dir) {
    Settings settings;
    auto rules = rules_for(settings, lint::builtin_rules());
    RuleSelection selection;
    selection.only.emplace_back("override-undocumented");
    std::vector<std::string> unknown;
    auto active = activate_rules(rules, settings, selection, unknown);
    REQUIRE(unknown.empty());
    auto tree = load_for_lint(dir.string(), Engine::terraform, settings);
    LintContext ctx;
    ctx.module_dir = dir.string();
    ctx.tree = &tree;
    ctx.settings = &settings;
    return lint_module(ctx, active, settings);
}

// Applies the edits of one fix to the text of its file (edits do not overlap).
std::string apply(const Fix& fix, std::string text) {
    std::vector<TextEdit> edits = fix.edits;
    std::sort(edits.begin(), edits.end(),
              [](const TextEdit& a, const TextEdit& b) { return a.range.start.byte > b.range.start.byte; });
    for (const auto& e : edits) {
        text.replace(e.range.start.byte, e.range.end.byte - e.range.start.byte, e.replacement);
    }
    return text;
}

}  // namespace

TEST_CASE("override-undocumented: the fix inserts an indented comment that satisfies the rule", "[lint][override]") {
    testing::ScratchDir scratch;
    const std::string main_tf =
        "locals {\n"
        "  name = \"web\"\n"
        "}\n"
        "\n"
        "resource \"aws_instance\" \"web\" {\n"
        "  ami = \"ami-408c7f28\"\n"
        "}\n";
    std::ofstream(scratch.path / "main.tf") << main_tf;
    std::ofstream(scratch.path / "web_override.tf") << "resource \"aws_instance\" \"web\" {\n  ami = \"foo\"\n}\n"
                                                       "locals {\n  name = \"api\"\n}\n";

    Findings first = lint_undocumented(scratch.path);
    REQUIRE(first.size() == 2);
    std::string text = main_tf;
    // Later edits first, so earlier offsets stay valid.
    std::sort(first.begin(), first.end(),
              [](const Finding& a, const Finding& b) { return a.range.start.byte > b.range.start.byte; });
    for (const auto& f : first) {
        REQUIRE(f.fix);
        CHECK(f.fix->applicability == Applicability::safe);
        CHECK(f.severity == Severity::notice);
        REQUIRE_FALSE(f.related.empty());
        CHECK(f.related.front().file->path().find("web_override.tf") != std::string::npos);
        text = apply(*f.fix, text);
    }
    CHECK(text ==
          "locals {\n"
          "  # Overridden in web_override.tf.\n"
          "  name = \"web\"\n"
          "}\n"
          "\n"
          "# Overridden in web_override.tf.\n"
          "resource \"aws_instance\" \"web\" {\n"
          "  ami = \"ami-408c7f28\"\n"
          "}\n");

    std::ofstream(scratch.path / "main.tf", std::ios::trunc) << text;
    CHECK(lint_undocumented(scratch.path).empty());
}
