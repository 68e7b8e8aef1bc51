// The rules about providers within modules, for what their fixtures cannot
// show: exact ranges, related locations and the severity of each finding.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/scratch_dir.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
using namespace tfsift::lint;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

// Lints `dir` (a directory of `scratch`) with only `rule` on.
Findings lint_only(const fs::path& dir, const std::string& rule, ModuleRole role) {
    Settings settings;
    auto rules = rules_for(settings, lint::builtin_rules());
    RuleSelection selection;
    selection.only.push_back(rule);
    std::vector<std::string> unknown;
    auto active = activate_rules(rules, settings, selection, unknown);
    REQUIRE(unknown.empty());
    auto tree = load_for_lint(dir.string(), Engine::terraform, settings);
    LintContext ctx;
    ctx.module_dir = dir.string();
    ctx.tree = &tree;
    ctx.settings = &settings;
    ctx.role = role;
    return lint_module(ctx, active, settings);
}

std::string text_of(const Finding& f) {
    return std::string(f.file->text().substr(f.range.start.byte, f.range.end.byte - f.range.start.byte));
}

}  // namespace

TEST_CASE("module-provider-config reports an override's configuration with the base block", "[lint][rules]") {
    testing::ScratchDir scratch;
    write(scratch.path / "main.tf", "provider \"aws\" {\n  alias = \"east\"\n}\n");
    write(scratch.path / "override.tf", "provider \"aws\" {\n  alias  = \"east\"\n  region = \"us-east-1\"\n}\n");
    auto findings = lint_only(scratch.path, "module-provider-config", ModuleRole::called);
    REQUIRE(findings.size() == 1);
    const Finding& f = findings[0];
    CHECK(f.severity == Severity::warning);
    CHECK(fs::path(f.file->path()).filename() == "override.tf");
    CHECK(text_of(f) == "provider \"aws\"");
    REQUIRE(f.related.size() == 1);
    CHECK(fs::path(f.related[0].file->path()).filename() == "main.tf");

    // The same module linted as a root module is fine.
    CHECK(lint_only(scratch.path, "module-provider-config", ModuleRole::root).empty());
}

TEST_CASE("module-provider-config-meta points at the meta-argument and lists the provider blocks", "[lint][rules]") {
    testing::ScratchDir scratch;
    write(scratch.path / "main.tf", "module \"a\" {\n  source   = \"./a\"\n  for_each = toset([\"x\"])\n}\n");
    write(scratch.path / "a" / "main.tf", "module \"b\" {\n  source = \"../b\"\n}\n");
    write(scratch.path / "b" / "main.tf", "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n");
    auto findings = lint_only(scratch.path, "module-provider-config-meta", ModuleRole::root);
    REQUIRE(findings.size() == 1);
    const Finding& f = findings[0];
    CHECK(f.severity == Severity::error);
    CHECK(text_of(f) == "toset([\"x\"])");
    CHECK(f.message.find("module.a.module.b") != std::string::npos);
    REQUIRE(f.related.size() == 1);
    CHECK(fs::path(f.related[0].file->path()).parent_path().filename() == "b");
}

TEST_CASE("provider references are reported at the reference, bare or quoted", "[lint][rules]") {
    testing::ScratchDir scratch;
    write(scratch.path / "main.tf",
          "resource \"aws_s3_bucket\" \"a\" {\n  provider = aws.nope\n}\n"
          "module \"m\" {\n  source    = \"hashicorp/x/aws\"\n  providers = { aws = aws.gone }\n}\n");
    write(scratch.path / "extra.tf.json", R"({"data": {"aws_region": {"r": {"provider": "aws.json_alias"}}}})");
    auto findings = lint_only(scratch.path, "provider-alias-undeclared", ModuleRole::root);
    REQUIRE(findings.size() == 3);
    std::vector<std::string> texts;
    for (const auto& f : findings) {
        CHECK(f.severity == Severity::error);
        texts.push_back(text_of(f));
    }
    CHECK(texts == std::vector<std::string>{"\"aws.json_alias\"", "aws.nope", "aws.gone"});
}

TEST_CASE("providers map findings: unknown keys are errors, incomplete maps warnings", "[lint][rules]") {
    testing::ScratchDir scratch;
    write(scratch.path / "main.tf",
          "module \"m\" {\n  source = \"./m\"\n  providers = {\n    aws.typo = aws\n  }\n}\n");
    write(scratch.path / "m" / "main.tf", "resource \"aws_s3_bucket\" \"a\" {}\n");
    auto unknown = lint_only(scratch.path, "module-providers-unknown", ModuleRole::root);
    REQUIRE(unknown.size() == 1);
    CHECK(unknown[0].severity == Severity::error);
    CHECK(text_of(unknown[0]) == "aws.typo");
    auto incomplete = lint_only(scratch.path, "module-providers-incomplete", ModuleRole::root);
    REQUIRE(incomplete.size() == 1);
    CHECK(incomplete[0].severity == Severity::warning);
    CHECK(text_of(incomplete[0]) == "providers");
    CHECK(incomplete[0].message.find("`aws = aws`") != std::string::npos);
}
