// Module sources and versions written with variables and local values
// (config/static_evaluation.hpp): what is worked out before planning, the
// reasons given when it cannot be, and the trees loaded through such calls.
// Cases after Terraform's command testdata (dynamic-module-sources/) and
// OpenTofu's static evaluator tests, written fresh.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../support/scratch_dir.hpp"
#include "tfsift/config/module_tree.hpp"
#include "tfsift/config/static_evaluation.hpp"
#include "tfsift/diagnostic_codes.hpp"

using namespace tfsift;
using namespace tfsift::config;
namespace fs = std::filesystem;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

namespace {

struct Tree {
    ScratchDir dir{"tfsift-static-evaluation"};
    fs::path root;
    Tree() : root(fs::canonical(dir.path)) {}
    [[nodiscard]] LoadedTree load(Engine engine = Engine::terraform, RootVariableInputs variables = {}) const {
        TreeOptions options;
        options.engine = engine;
        options.root_variables = std::move(variables);
        options.read_policy.root = root.string();
        return load_module_tree(root.string(), options);
    }
};

// A root module whose call `app` takes its source from the const variable `env`.
constexpr const char* env_source =
    "variable \"env\" {\n  type  = string\n  const = true\n}\n"
    "module \"app\" {\n  source = \"./modules/${var.env}\"\n}\n";

const LoadedModule* child(const LoadedModule& m, const std::string& name) {
    auto it = m.children.find(name);
    return it == m.children.end() ? nullptr : &it->second;
}

std::size_t count_code(const LoadedTree& tree, std::string_view code) {
    std::size_t n = 0;
    for (const auto& d : tree.diagnostics) n += d.diagnostic.code == code ? 1 : 0;
    return n;
}

std::string detail_of(const LoadedTree& tree, std::string_view code) {
    for (const auto& d : tree.diagnostics) {
        if (d.diagnostic.code == code) return d.diagnostic.detail;
    }
    return {};
}

}  // namespace

TEST_CASE("static sources: const variables, locals and functions choose the called module",
          "[config][static-evaluation]") {
    Tree t;
    write_file(t.root / "main.tf",
               "variable \"name\" {\n  type    = string\n  const   = true\n  default = \" App \"\n}\n"
               "locals {\n  dir = format(\"%s/%s\", \"./modules\", lower(trimspace(var.name)))\n}\n"
               "module \"app\" {\n  source = local.dir\n}\n");
    write_file(t.root / "modules/app/main.tf", "output \"x\" { value = 1 }\n");
    const LoadedTree tree = t.load();
    REQUIRE(tree.root);
    const LoadedModule* app = child(*tree.root, "app");
    REQUIRE(app != nullptr);
    CHECK(app->dir == "modules/app");
    CHECK(app->module->outputs.count("x") == 1);
    CHECK(count_code(tree, code::module_not_loaded) == 0);
}

TEST_CASE("static sources: the root module's variable files, later files winning", "[config][static-evaluation]") {
    Tree t;
    write_file(t.root / "main.tf", env_source);
    write_file(t.root / "terraform.tfvars", "env = \"prod\"\n");
    write_file(t.root / "b.auto.tfvars", "env = \"staging\"\n");
    write_file(t.root / "a.auto.tfvars", "env = \"dev\"\n");
    write_file(t.root / "modules/staging/main.tf", "");
    const LoadedTree tree = t.load();
    const LoadedModule* app = child(*tree.root, "app");
    REQUIRE(app != nullptr);
    CHECK(app->dir == "modules/staging");
}

TEST_CASE("static sources: --var-file is read after the root's own variable files", "[config][static-evaluation]") {
    // dynamic-module-sources/local-source-with-varsfile.
    Tree t;
    write_file(t.root / "main.tf", env_source);
    write_file(t.root / "terraform.tfvars", "env = \"dev\"\n");
    write_file(t.root / "vars/prod.tfvars", "env = \"prod\"\n");
    write_file(t.root / "modules/prod/main.tf", "");
    RootVariableInputs given;
    given.command_line.push_back({RootVariableInput::Kind::file, (t.root / "vars/prod.tfvars").string()});
    const LoadedTree tree = t.load(Engine::terraform, given);
    const LoadedModule* app = child(*tree.root, "app");
    REQUIRE(app != nullptr);
    CHECK(app->dir == "modules/prod");
}

TEST_CASE("static sources: root variables from every place init reads them, in its order",
          "[config][static-evaluation]") {
    Tree t;
    write_file(t.root / "main.tf",
               std::string(env_source) +
                   "variable \"parts\" {\n  type  = list(string)\n  const = true\n  default = [\"x\"]\n}\n"
                   "module \"joined\" {\n  source = \"./modules/${join(\"-\", var.parts)}\"\n}\n");
    for (const char* dir : {"env", "tfvars", "json", "auto", "autojson", "cli", "file", "a-b"}) {
        write_file(t.root / "modules" / dir / "main.tf", "");
    }
    auto dir_of = [&](const RootVariableInputs& given, const char* call) {
        const LoadedTree tree = t.load(Engine::terraform, given);
        const LoadedModule* m = child(*tree.root, call);
        return m == nullptr ? std::string("(not loaded)") : m->dir;
    };
    RootVariableInputs given;
    // TF_VAR_ first; a list-typed variable's value is read as an expression.
    given.environment = {{"env", "env"}, {"parts", "[\"a\", \"b\"]"}, {"undeclared", "x"}};
    CHECK(dir_of(given, "app") == "modules/env");
    CHECK(dir_of(given, "joined") == "modules/a-b");
    // terraform.tfvars, then terraform.tfvars.json, then the automatic files
    // of both syntaxes by name.
    write_file(t.root / "terraform.tfvars", "env = \"tfvars\"\n");
    CHECK(dir_of(given, "app") == "modules/tfvars");
    write_file(t.root / "terraform.tfvars.json", "{\"env\": \"json\"}\n");
    CHECK(dir_of(given, "app") == "modules/json");
    write_file(t.root / "a.auto.tfvars", "env = \"auto\"\n");
    CHECK(dir_of(given, "app") == "modules/auto");
    write_file(t.root / "b.auto.tfvars.json", "{\"env\": \"autojson\"}\n");
    CHECK(dir_of(given, "app") == "modules/autojson");
    // Then --var and --var-file in the order given.
    write_file(t.root / "given.tfvars", "env = \"file\"\n");
    given.command_line = {{RootVariableInput::Kind::file, (t.root / "given.tfvars").string()},
                          {RootVariableInput::Kind::assignment, "env=cli"}};
    CHECK(dir_of(given, "app") == "modules/cli");
    std::swap(given.command_line[0], given.command_line[1]);
    CHECK(dir_of(given, "app") == "modules/file");
}

TEST_CASE("static sources: TF_VAR_ entries of an environment", "[config][static-evaluation]") {
    const char* const environment[] = {"PATH=/bin", "TF_VAR_env=prod", "TF_VAR_=x", "TF_VAR_eq=a=b", nullptr};
    const auto found = variable_environment(environment);
    REQUIRE(found.size() == 2);
    CHECK(found[0] == std::pair<std::string, std::string>{"env", "prod"});
    CHECK(found[1] == std::pair<std::string, std::string>{"eq", "a=b"});
}

TEST_CASE("static sources: a value no one gives leaves the call unloaded, with the reason",
          "[config][static-evaluation]") {
    Tree t;
    write_file(t.root / "main.tf", env_source);
    const LoadedTree tree = t.load();
    CHECK(child(*tree.root, "app") == nullptr);
    REQUIRE(count_code(tree, code::module_not_loaded) == 1);
    CHECK(detail_of(tree, code::module_not_loaded).find("var.env has no default") != std::string::npos);
}

TEST_CASE("static sources: a caller's constant argument reaches the called module's const variable",
          "[config][static-evaluation]") {
    // dynamic-module-sources/nested-module-with-variable-source, with the
    // root's value from a default.
    Tree t;
    write_file(t.root / "main.tf",
               "variable \"child_name\" {\n  type    = string\n  const   = true\n  default = \"child\"\n}\n"
               "module \"parent\" {\n  source     = \"./modules/parent\"\n  child_name = var.child_name\n}\n");
    write_file(t.root / "modules/parent/main.tf",
               "variable \"child_name\" {\n  type  = string\n  const = true\n}\n"
               "module \"child\" {\n  source = \"../${var.child_name}\"\n}\n");
    write_file(t.root / "modules/child/main.tf", "");
    const LoadedTree tree = t.load();
    const LoadedModule* parent = child(*tree.root, "parent");
    REQUIRE(parent != nullptr);
    const LoadedModule* grandchild = child(*parent, "child");
    REQUIRE(grandchild != nullptr);
    CHECK(fs::path(grandchild->dir).lexically_normal() == fs::path("modules/child"));
}

TEST_CASE("static sources: Terraform knows only const variables, OpenTofu every plain one",
          "[config][static-evaluation]") {
    Tree t;
    write_file(t.root / "main.tf",
               "variable \"name\" {\n  type    = string\n  default = \"app\"\n}\n"
               "module \"app\" {\n  source = \"./modules/${var.name}\"\n}\n");
    write_file(t.root / "modules/app/main.tf", "");
    const LoadedTree terraform = t.load(Engine::terraform);
    CHECK(child(*terraform.root, "app") == nullptr);
    CHECK(count_code(terraform, code::unknown_module_source) == 1);
    const LoadedTree opentofu = t.load(Engine::opentofu);
    CHECK(child(*opentofu.root, "app") != nullptr);
    CHECK(count_code(opentofu, code::unknown_module_source) == 0);
    CHECK(count_code(opentofu, code::module_not_loaded) == 0);
}

TEST_CASE("static sources: a version worked out from a local value", "[config][static-evaluation]") {
    Tree t;
    write_file(t.root / "main.tf",
               "locals {\n  vpc_version = \"5.1.0\"\n}\n"
               "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n"
               "  version = local.vpc_version\n}\n");
    const LoadedTree tree = t.load(Engine::opentofu);
    // No resolver: a registry module is not followed. The only errors are
    // those of releases before static evaluation, which the lint keeps for
    // them alone (lint/engine_gate.hpp).
    for (const auto& d : tree.diagnostics) {
        if (d.diagnostic.severity == Severity::error)
            CHECK(d.diagnostic.code == code::module_source_variables_not_allowed);
    }
    REQUIRE(tree.root);
    const auto& call = tree.root->module->module_calls.at("vpc");
    REQUIRE(call.dynamic_version);
    StaticScope scope;
    scope.module = tree.root->module.get();
    scope.engine = Engine::opentofu;
    const StaticResult v = evaluate_static(call.dynamic_version->expr, scope);
    REQUIRE(v.value);
    CHECK(v.value->as_string() == "5.1.0");
}

TEST_CASE("static sources: functions tfsift does not evaluate are named", "[config][static-evaluation]") {
    Tree t;
    write_file(t.root / "main.tf",
               "variable \"name\" {\n  type    = string\n  const   = true\n  default = \"app\"\n}\n"
               "module \"app\" {\n  source = \"./modules/${sha1(var.name)}\"\n}\n");
    const LoadedTree tree = t.load();
    CHECK(child(*tree.root, "app") == nullptr);
    CHECK(detail_of(tree, code::module_not_loaded).find("sha1()") != std::string::npos);
}
