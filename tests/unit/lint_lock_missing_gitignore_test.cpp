// lock-missing also reports a lock file that .gitignore keeps out of version
// control; a fixture cannot express this (the finding is in .gitignore,
// which cannot carry an expectation comment on a pattern line).
#include <catch2/catch.hpp>

#include "support/scratch_dir.hpp"

#include <filesystem>
#include <fstream>

#include "tfsift/lint/linter.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& content) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
}

lint::Findings lint_lock_missing(const fs::path& dir) {
    lint::Settings settings;
    auto tree = lint::load_for_lint(dir.string(), Engine::terraform, settings);
    lint::LintContext ctx;
    ctx.module_dir = dir.string();
    ctx.tree = &tree;
    ctx.settings = &settings;
    auto rules = lint::rules_for(settings, lint::builtin_rules());
    lint::RuleSelection only;
    only.only = {"lock-missing"};
    std::vector<std::string> unknown;
    auto active = lint::activate_rules(rules, settings, only, unknown);
    return lint::lint_module(ctx, active, settings);
}

}  // namespace

TEST_CASE("lock-missing reports a lock file ignored by .gitignore", "[lint][lock]") {
    tfsift::testing::ScratchDir scratch;
    fs::path repo = scratch.path / "repo";
    fs::create_directories(repo / ".git");
    fs::path module = repo / "live" / "prod";
    write(module / "main.tf", "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n");
    write(module / ".terraform.lock.hcl",
          "provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"5.31.0\"\n}\n");

    SECTION("ignored by a pattern in the repository root") {
        write(repo / ".gitignore", "# build output\n**/.terraform/*\n.terraform.lock.hcl\n");
        auto findings = lint_lock_missing(module);
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].rule_id == "lock-missing");
        CHECK(fs::path(findings[0].file->path()).filename() == ".gitignore");
        CHECK(findings[0].file->line(findings[0].range.start) == 3);
    }
    SECTION("ignored by an anchored pattern, then taken back by a negation") {
        write(repo / ".gitignore", "live/*/.terraform.lock.hcl\n");
        CHECK(lint_lock_missing(module).size() == 1);
        write(module / ".gitignore", "!.terraform.lock.hcl\n");
        CHECK(lint_lock_missing(module).empty());
    }
    SECTION("not ignored") {
        write(repo / ".gitignore", ".terraform/\n*.tfstate\nother/.terraform.lock.hcl\n");
        CHECK(lint_lock_missing(module).empty());
    }
    SECTION("a .gitignore above the repository root does not count") {
        write(scratch.path / ".gitignore", ".terraform.lock.hcl\n");
        CHECK(lint_lock_missing(module).empty());
    }
}
