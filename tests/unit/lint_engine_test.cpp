// The rule engine: rule selection, severity overrides, per-path ignores,
// inline ignores and the unused-ignore notices with their fix.
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

constexpr const char* naming_policy = R"(
[[policy]]
id = "snake-names"
kind = "naming"
pattern = "^[a-z_]+$"
)";

struct Run {
    Findings findings;
    std::string code;
};

// The rules about how a module is written (TFLint's recommended preset):
// the engine cases below use deliberately bare snippets, which these would
// report, so they are switched off there as a user would with --disable.
const std::vector<std::string> style_rules = {"unused-declaration", "variable-type-missing",
                                              "required-version-missing"};

// Lints `hcl_text` as mod/main.tf of a scratch directory whose settings file
// holds `settings_text`.
Run lint_text(const std::string& settings_text, const std::string& hcl_text, RuleSelection selection = {}) {
    if (selection.only.empty())
        selection.disable.insert(selection.disable.end(), style_rules.begin(), style_rules.end());
    testing::ScratchDir scratch;
    fs::create_directories(scratch.path / "mod");
    std::ofstream(scratch.path / ".tfsift.toml") << settings_text;
    std::ofstream(scratch.path / "mod" / "main.tf") << hcl_text;
    auto settings = load_settings((scratch.path / ".tfsift.toml").string());
    REQUIRE(settings.ok());
    auto rules = rules_for(settings.settings, lint::builtin_rules());
    std::vector<std::string> unknown;
    auto active = activate_rules(rules, settings.settings, selection, unknown);
    REQUIRE(unknown.empty());
    std::string dir = (scratch.path / "mod").string();
    auto tree = load_for_lint(dir, Engine::terraform, settings.settings);
    LintContext ctx;
    ctx.module_dir = dir;
    ctx.tree = &tree;
    ctx.settings = &settings.settings;
    Run run;
    run.code = hcl_text;
    run.findings = lint_module(ctx, active, settings.settings);
    return run;
}

}  // namespace

TEST_CASE("rule selection: defaults, settings, --only, --enable, --disable", "[lint][engine]") {
    auto settings = parse_settings("x.toml", "[rules]\nunused-ignore = \"off\"\n");
    REQUIRE(settings.ok());
    auto rules = rules_for(settings.settings, lint::builtin_rules());
    std::vector<std::string> unknown;
    auto enabled = [&](const RuleSelection& sel, const std::string& id) {
        for (const auto& a : activate_rules(rules, settings.settings, sel, unknown)) {
            if (a.rule->id == id) return a.enabled;
        }
        return false;
    };
    CHECK(enabled({}, "syntax-error"));
    CHECK_FALSE(enabled({}, "unused-ignore"));
    CHECK(enabled({{"unused-ignore"}, {}, {}}, "unused-ignore"));
    CHECK_FALSE(enabled({{}, {"syntax-error"}, {}}, "syntax-error"));
    CHECK_FALSE(enabled({{}, {}, {"unused-ignore"}}, "syntax-error"));
    CHECK(enabled({{}, {}, {"unused-ignore"}}, "unused-ignore"));
    CHECK_FALSE(enabled({{}, {"unused-ignore"}, {"unused-ignore"}}, "unused-ignore"));
    CHECK(unknown.empty());
    activate_rules(rules, settings.settings, {{"nope"}, {}, {}}, unknown);
    CHECK(unknown == std::vector<std::string>{"nope"});
}

TEST_CASE("policy findings, severity overrides and per-path ignores", "[lint][engine]") {
    std::string code = "variable \"Bad\" {}\nvariable \"good\" {}\n";
    auto plain = lint_text(naming_policy, code);
    REQUIRE(plain.findings.size() == 1);
    CHECK(plain.findings[0].rule_id == "snake-names");
    CHECK(plain.findings[0].severity == Severity::warning);
    CHECK(plain.findings[0].file->line(plain.findings[0].range.start) == 1);

    auto raised = lint_text(std::string(naming_policy) + "[rules]\nsnake-names = \"error\"\n", code);
    REQUIRE(raised.findings.size() == 1);
    CHECK(raised.findings[0].severity == Severity::error);

    auto ignored = lint_text(std::string(naming_policy) + "[[ignore]]\npaths = [\"mod/*.tf\"]\n", code);
    CHECK(ignored.findings.empty());
    auto other_rule =
        lint_text(std::string(naming_policy) + "[[ignore]]\npaths = [\"mod\"]\nrules = [\"syntax-error\"]\n", code);
    CHECK(other_rule.findings.size() == 1);
}

TEST_CASE("inline ignores suppress, unused ones become notices with a fix", "[lint][engine]") {
    std::string code =
        "# tfsift-ignore: snake-names\n"
        "variable \"Bad\" {}\n"
        "\n"
        "  # tfsift-ignore: snake-names -- stale\n"
        "variable \"good\" {}\n"
        "variable \"x\" {} # tfsift-ignore: syntax-error, snake-names\n";
    auto run = lint_text(naming_policy, code);
    REQUIRE(run.findings.size() == 3);
    const Finding& stale = run.findings[0];
    CHECK(stale.rule_id == "unused-ignore");
    CHECK(stale.severity == Severity::notice);
    CHECK(stale.file->line(stale.range.start) == 4);
    REQUIRE(stale.fix);
    CHECK(stale.fix->applicability == Applicability::safe);
    REQUIRE(stale.fix->edits.size() == 1);
    // The comment stands alone on its line: the fix removes the whole line.
    auto edit = stale.fix->edits[0];
    CHECK(std::string(code.substr(edit.range.start.byte, edit.range.end.byte - edit.range.start.byte)) ==
          "  # tfsift-ignore: snake-names -- stale\n");
    // Line 6: both ids unused; the fix removes only the trailing comment.
    CHECK(run.findings[1].file->line(run.findings[1].range.start) == 6);
    CHECK(run.findings[2].file->line(run.findings[2].range.start) == 6);
    REQUIRE(run.findings[1].fix);
    auto trailing = run.findings[1].fix->edits[0];
    CHECK(std::string(code.substr(trailing.range.start.byte, trailing.range.end.byte - trailing.range.start.byte)) ==
          " # tfsift-ignore: syntax-error, snake-names");

    // With the policy switched off its ignores are not reported as unused.
    auto off = lint_text(std::string(naming_policy) + "[rules]\nsnake-names = \"off\"\n", code);
    REQUIRE(off.findings.size() == 1);
    CHECK(off.findings[0].message.find("syntax-error") != std::string::npos);
    CHECK_FALSE(off.findings[0].fix);  // the comment still names a rule that is merely off
}

TEST_CASE("parse errors are syntax-error findings, other loader errors invalid-configuration", "[lint][engine]") {
    auto run = lint_text("", "a = 1 b = 2\nvariable \"v\" {\n  type = \"string\"\n}\n");
    auto has = [&](const std::string& id, std::uint32_t line) {
        return std::any_of(run.findings.begin(), run.findings.end(), [&](const Finding& f) {
            return f.rule_id == id && f.file->line(f.range.start) == line && f.severity == Severity::error;
        });
    };
    CHECK(has("syntax-error", 1));
    CHECK(has("invalid-configuration", 3));  // quoted type constraint
    CHECK(find_builtin_rule("syntax-error")->default_severity == Severity::error);

    auto off = lint_text("[rules]\ninvalid-configuration = \"off\"\n", "variable \"v\" {\n  type = \"string\"\n}\n");
    CHECK(off.findings.empty());
}
