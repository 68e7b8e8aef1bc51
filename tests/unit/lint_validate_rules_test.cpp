// The validate-class rules (references, module call arguments, functions),
// for what their fixtures cannot show: the exact ranges Terraform points at,
// the engine's wording, engine_version, and provider-defined functions as
// uses of their provider.
#include <catch2/catch.hpp>

#include <filesystem>

#include "../../rules/support/provider_local_name_uses.hpp"
#include "support/scratch_dir.hpp"
#include "tfsift/config/module_tree.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
using namespace tfsift::lint;
namespace fs = std::filesystem;

namespace {

Findings lint_only(const fs::path& dir, const std::string& rule, Engine engine = Engine::terraform,
                   const Settings& settings = {}) {
    auto rules = rules_for(settings, lint::builtin_rules());
    RuleSelection selection;
    selection.only.push_back(rule);
    std::vector<std::string> unknown;
    auto active = activate_rules(rules, settings, selection, unknown);
    REQUIRE(unknown.empty());
    auto tree = load_for_lint(dir.string(), engine, settings);
    LintContext ctx;
    ctx.module_dir = dir.string();
    ctx.tree = &tree;
    ctx.settings = &settings;
    ctx.engine = engine;
    return lint_module(ctx, active, settings);
}

std::string text_of(const Finding& f) {
    return std::string(f.file->text().substr(f.range.start.byte, f.range.end.byte - f.range.start.byte));
}

}  // namespace

TEST_CASE("module-arguments-invalid: missing arguments at the opening brace, unsupported at the name",
          "[lint][validate]") {
    testing::ScratchDir scratch;
    testing::write_file(scratch.path / "child" / "main.tf",
                        "variable \"needed\" {}\nvariable \"region\" {\n  default = \"x\"\n}\n");
    testing::write_file(scratch.path / "main.tf", "module \"c\" {\n  source = \"./child\"\n  regoin = \"eu\"\n}\n");
    auto findings = lint_only(scratch.path, "module-arguments-invalid");
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].message ==
          "Missing required argument: The argument \"needed\" is required, but no definition "
          "was found.");
    CHECK(text_of(findings[0]) == "{");
    CHECK(findings[1].message ==
          "Unsupported argument: An argument named \"regoin\" is not expected here. Did you "
          "mean \"region\"?");
    CHECK(text_of(findings[1]) == "regoin");
}

TEST_CASE("function-call-invalid: ranges of the arity errors", "[lint][validate]") {
    testing::ScratchDir scratch;
    testing::write_file(scratch.path / "main.tf", "locals {\n  a = upper()\n  b = upper(\"x\", \"y\")\n}\n");
    auto findings = lint_only(scratch.path, "function-call-invalid");
    REQUIRE(findings.size() == 2);
    CHECK(text_of(findings[0]) == ")");
    CHECK(text_of(findings[1]) == "\"y\"");
}

TEST_CASE("function-call-invalid: engine_version picks the function table", "[lint][validate]") {
    testing::ScratchDir scratch;
    testing::write_file(scratch.path / "main.tf", "locals {\n  a = ephemeralasnull(\"x\")\n}\n");
    CHECK(lint_only(scratch.path, "function-call-invalid").empty());
    Settings old;
    old.engine_version = "1.9.0";
    auto findings = lint_only(scratch.path, "function-call-invalid", Engine::terraform, old);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message.find("There is no function named \"ephemeralasnull\".") != std::string::npos);
    // OpenTofu added it in 1.11.
    CHECK(lint_only(scratch.path, "function-call-invalid", Engine::opentofu, old).size() == 1);
}

TEST_CASE("reference-undeclared: Terraform's and OpenTofu's wording for resources", "[lint][validate]") {
    testing::ScratchDir scratch;
    testing::write_file(scratch.path / "main.tf", "output \"o\" {\n  value = aws_instance.web.id\n}\n");
    auto tf = lint_only(scratch.path, "reference-undeclared");
    REQUIRE(tf.size() == 1);
    CHECK(tf[0].message ==
          "Reference to undeclared resource: A managed resource \"aws_instance\" \"web\" has not been "
          "declared in the root module.");
    CHECK(text_of(tf[0]) == "aws_instance.web");
    auto tofu = lint_only(scratch.path, "reference-undeclared", Engine::opentofu);
    REQUIRE(tofu.size() == 1);
    CHECK(tofu[0].message ==
          "Reference to undeclared resource: There is no managed resource \"aws_instance\" \"web\" "
          "definition in the root module.");
}

TEST_CASE("provider-defined functions are uses of their provider", "[lint][validate]") {
    testing::ScratchDir scratch;
    testing::write_file(scratch.path / "main.tf",
                        "terraform {\n  required_providers {\n    time = {\n      source = \"hashicorp/time\"\n    }\n"
                        "  }\n}\n\nlocals {\n  t = provider::time::rfc3339_parse(\"2024-01-01T00:00:00Z\")\n}\n");
    Settings settings;
    auto tree = load_for_lint(scratch.path.string(), Engine::terraform, settings);
    REQUIRE(tree.root != nullptr);
    auto uses = *rules::provider_uses(*tree.root);
    REQUIRE(uses.size() == 1);
    CHECK(uses[0].kind == rules::ProviderUseKind::function);
    CHECK(uses[0].local_name == "time");
    const Range r = rules::use_range(*tree.root, uses[0]);
    CHECK(tree.root->files[0].parsed->source->text().substr(r.start.byte, r.end.byte - r.start.byte) ==
          "provider::time::rfc3339_parse");
}
