// The lint session: the modules and files it reports, what it counts, a
// called module checked in each calling context, the same findings for any
// number of jobs, and a clear stop on a path that does not exist.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/session.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

namespace {

// A shared module that needs a second configuration of its provider, and
// two roots that call it: `good` passes that configuration, `bad` does not.
void write_two_roots(const ScratchDir& dir) {
    write_file(dir.path / "modules" / "shared" / "main.tf",
               "terraform {\n"
               "  required_providers {\n"
               "    aws = {\n"
               "      source                = \"hashicorp/aws\"\n"
               "      configuration_aliases = [aws.east]\n"
               "    }\n"
               "  }\n"
               "}\n"
               "resource \"aws_s3_bucket\" \"b\" {\n"
               "  provider = aws.east\n"
               "}\n");
    write_file(dir.path / "roots" / "good" / "main.tf",
               "provider \"aws\" {\n"
               "  alias  = \"east\"\n"
               "  region = \"us-east-1\"\n"
               "}\n"
               "module \"shared\" {\n"
               "  source = \"../../modules/shared\"\n"
               "  providers = {\n"
               "    aws.east = aws.east\n"
               "  }\n"
               "}\n");
    write_file(dir.path / "roots" / "bad" / "main.tf",
               "module \"shared\" {\n"
               "  source = \"../../modules/shared\"\n"
               "}\n");
}

std::vector<std::string> finding_lines(const lint::LintResult& result) {
    std::vector<std::string> out;
    for (const auto& f : result.findings) {
        out.push_back(f.file->path() + ":" + std::to_string(f.file->line(f.range.start)) + " " + f.rule_id + " " +
                      f.message);
    }
    return out;
}

// The findings of severity error, in the result's order.
std::vector<lint::Finding> errors_of(const lint::LintResult& result) {
    std::vector<lint::Finding> out;
    for (const auto& f : result.findings) {
        if (f.severity == Severity::error) out.push_back(f);
    }
    return out;
}

lint::LintResult lint_tree(const ScratchDir& dir, unsigned jobs) {
    lint::LintRequest request;
    request.catalogue = lint::builtin_rules();
    request.paths = {dir.path.string()};
    request.recursive = true;
    request.jobs = jobs;
    request.offline = true;
    return lint::run_session(request);
}

}  // namespace

TEST_CASE("session: a module called by two roots is read once", "[lint][session]") {
    ScratchDir dir;
    write_two_roots(dir);
    const lint::LintResult result = lint_tree(dir, 1);
    REQUIRE(result.completed);
    CHECK(result.modules.size() == 3);
    CHECK(result.files.size() == 3);
    // Five module instances (the three targets, the shared module under
    // each root), three directories read.
    CHECK(result.times.modules_loaded == 3);
    CHECK(result.times.modules_reused == 2);
    CHECK(result.times.files_read == 3);
    CHECK(result.times.load > 0);
}

TEST_CASE("session: a changed file is read again, not taken from an earlier tree", "[lint][session]") {
    ScratchDir dir;
    write_two_roots(dir);
    lint::LintResult first = lint_tree(dir, 1);
    REQUIRE(first.completed);
    // The first result's findings still hold what they point into.
    write_file(dir.path / "modules" / "shared" / "main.tf", "variable \"only\" {\n");
    const lint::LintResult second = lint_tree(dir, 1);
    REQUIRE(second.completed);
    bool syntax_error = false;
    for (const auto& f : second.findings) {
        syntax_error = syntax_error || (f.rule_id == "syntax-error" &&
                                        f.file->path().find("modules/shared/main.tf") != std::string::npos);
    }
    CHECK(syntax_error);
    CHECK(!first.findings.empty());
}

TEST_CASE("session: a shared module is still checked in each calling context", "[lint][session]") {
    ScratchDir dir;
    write_two_roots(dir);
    const lint::LintResult result = lint_tree(dir, 1);
    REQUIRE(result.completed);
    std::size_t in_bad = 0;
    std::size_t in_good = 0;
    for (const auto& f : result.findings) {
        if (f.message.find("requires an additional configuration for provider") == std::string::npos) continue;
        if (f.file->path().find("roots/bad/main.tf") != std::string::npos) ++in_bad;
        if (f.file->path().find("roots/good/main.tf") != std::string::npos) ++in_good;
    }
    CHECK(in_bad == 1);
    CHECK(in_good == 0);
}

TEST_CASE("session: the findings are the same for any number of jobs", "[lint][session]") {
    ScratchDir dir;
    write_two_roots(dir);
    // More roots than jobs, all sharing one module, so that loaders meet.
    for (int i = 0; i < 12; ++i) {
        write_file(dir.path / "roots" / ("r" + std::to_string(i)) / "main.tf",
                   "module \"shared\" {\n  source = \"../../modules/shared\"\n}\nvariable \"v\" {}\n");
    }
    const lint::LintResult one = lint_tree(dir, 1);
    const lint::LintResult four = lint_tree(dir, 4);
    REQUIRE(one.completed);
    REQUIRE(four.completed);
    CHECK(!one.findings.empty());
    CHECK(finding_lines(one) == finding_lines(four));
}

TEST_CASE("session: a path that does not exist stops the run with a message", "[lint][session]") {
    ScratchDir dir;
    lint::LintRequest request;
    request.catalogue = lint::builtin_rules();
    request.paths = {(dir.path / "nothing-here").string()};
    std::vector<std::string> seen;
    request.on_message = [&seen](lint::MessageKind kind, const std::string& text) {
        if (kind == lint::MessageKind::error) seen.push_back(text);
    };
    const lint::LintResult result = lint::run_session(request);
    CHECK(!result.completed);
    REQUIRE(seen.size() == 1);
    CHECK(seen.front().find("nothing-here: no such file or directory") != std::string::npos);
    REQUIRE(result.messages.size() == 1);
    CHECK(result.messages.front().second == seen.front());
}

namespace {

// The messages of one kind a run sent.
std::vector<std::string> messages_of(const lint::LintResult& result, lint::MessageKind kind) {
    std::vector<std::string> out;
    for (const auto& [k, text] : result.messages) {
        if (k == kind) out.push_back(text);
    }
    return out;
}

lint::LintResult lint_targets(std::vector<std::string> paths, bool recursive = false) {
    lint::LintRequest request;
    request.catalogue = lint::builtin_rules();
    request.paths = std::move(paths);
    request.recursive = recursive;
    return lint::run_session(request);
}

}  // namespace

TEST_CASE("session: a named file that is not one tfsift reads stops the run", "[lint][session][nothing-to-lint]") {
    ScratchDir dir;
    write_file(dir.path / "main.tf", "variable \"x\" {\n  type = string\n}\n");
    write_file(dir.path / "README.md", "# A module\n");
    const std::string readme = (dir.path / "README.md").string();
    const lint::LintResult result = lint_targets({readme});
    CHECK(!result.completed);
    const auto errors = messages_of(result, lint::MessageKind::error);
    REQUIRE(errors.size() == 1);
    CHECK(errors.front() ==
          "tfsift: error: " + readme +
              ": not a Terraform or OpenTofu file (tfsift reads .tf, .tf.json, .tofu and .tofu.json "
              "files, test files, mock data files, query files, state migration files, .terraform.lock.hcl, "
              ".tfsift.toml and terraform.tfstate); name a directory to lint its module");
    // The files a lint reads may be named.
    for (const char* name :
         {"main.tf", "x.tf.json", "x.tofu", "x.tofu.json", "web.tftest.hcl", "web.tftest.json", "web.tofutest.hcl",
          "web.tofutest.json", "list.tfquery.hcl", "list.tfquery.json", "from.tfmigrate.hcl", "aws.tfmock.hcl",
          "aws.tfmock.json", ".terraform.lock.hcl", ".tfsift.toml", "terraform.tfstate"}) {
        CHECK(lint::is_lintable_file_name(name));
    }
    for (const char* name :
         {"README.md", "file.txt", "terraform.tfvars", "main.tf.bak", "x.tfstate.backup", "from.tfmigrate.json"}) {
        CHECK_FALSE(lint::is_lintable_file_name(name));
    }
    CHECK(lint_targets({(dir.path / "main.tf").string()}).completed);
}

TEST_CASE("session: a directory with nothing to lint gets a warning, not a failure",
          "[lint][session][nothing-to-lint]") {
    ScratchDir dir;
    write_file(dir.path / "empty" / "README.md", "nothing here\n");
    const std::string empty = (dir.path / "empty").string();
    for (bool recursive : {false, true}) {
        const lint::LintResult result = lint_targets({empty}, recursive);
        CHECK(result.completed);
        CHECK(result.findings.empty());
        CHECK(result.files.empty());
        const auto warnings = messages_of(result, lint::MessageKind::warning);
        REQUIRE(warnings.size() == 1);
        CHECK(warnings.front() ==
              "tfsift: warning: no Terraform or OpenTofu configuration files (.tf, .tf.json, .tofu, .tofu.json) " +
                  std::string(recursive ? "found under " : "in ") + empty);
    }
    // Configuration files only below: the warning says to use --recursive.
    write_file(dir.path / "empty" / "sub" / "main.tf", "locals {}\n");
    const auto hint = messages_of(lint_targets({empty}), lint::MessageKind::warning);
    REQUIRE(hint.size() == 1);
    CHECK(hint.front().find("use --recursive (-r)") != std::string::npos);
    CHECK(messages_of(lint_targets({empty}, true), lint::MessageKind::warning).empty());
}

namespace {

// Whether `result` reports lock-in-shared-module (a lock file beside a
// module that other modules of the run call) for the module in `dir_name`.
bool lock_in_shared_module(const lint::LintResult& result, const std::string& dir_name) {
    for (const auto& f : result.findings) {
        if (f.rule_id == "lock-in-shared-module" &&
            f.file->path().find(dir_name + "/.terraform.lock.hcl") != std::string::npos) {
            return true;
        }
    }
    return false;
}

lint::LintResult lint_paths(const std::vector<std::string>& paths, unsigned jobs) {
    lint::LintRequest request;
    request.paths = paths;
    request.jobs = jobs;
    request.offline = true;
    request.catalogue = lint::builtin_rules();
    return lint::run_session(request);
}

}  // namespace

TEST_CASE("session: a module called only through a module outside the run is linted as called", "[lint][session]") {
    // `a_leaf` comes first and no target's files name it, so it is linted
    // as a root before `b_app` is loaded; b_app calls it through `mid`,
    // which is not a target, so the first lint of a_leaf has to be redone.
    ScratchDir dir;
    std::filesystem::create_directories(dir.path / ".git");  // one repository: calls may leave a target
    write_file(dir.path / "a_leaf" / "main.tf", "variable \"x\" {\n  type = string\n}\n");
    write_file(dir.path / "a_leaf" / ".terraform.lock.hcl", "# no providers\n");
    write_file(dir.path / "mid" / "main.tf", "module \"leaf\" {\n  source = \"../a_leaf\"\n  x      = \"y\"\n}\n");
    write_file(dir.path / "b_app" / "main.tf", "module \"mid\" {\n  source = \"../mid\"\n}\n");
    const std::vector<std::string> paths = {(dir.path / "a_leaf").string(), (dir.path / "b_app").string()};
    for (unsigned jobs : {1U, 3U}) {
        const lint::LintResult result = lint_paths(paths, jobs);
        REQUIRE(result.completed);
        CHECK(lock_in_shared_module(result, "a_leaf"));
    }
}

TEST_CASE("session: a module that only looks called is linted as a root", "[lint][session]") {
    // The string "../lib" in `app` is no module source: `lib` is the root
    // module it is.
    ScratchDir dir;
    std::filesystem::create_directories(dir.path / ".git");
    write_file(dir.path / "lib" / "main.tf", "variable \"x\" {\n  type = string\n}\n");
    write_file(dir.path / "lib" / ".terraform.lock.hcl", "# no providers\n");
    write_file(dir.path / "app" / "main.tf",
               "locals {\n  where = \"../lib\"\n}\noutput \"w\" {\n  value = local.where\n}\n");
    const lint::LintResult alone = lint_paths({(dir.path / "app").string(), (dir.path / "lib").string()}, 1);
    REQUIRE(alone.completed);
    CHECK(!lock_in_shared_module(alone, "lib"));
    // With a real caller in the repository, the same module is a called one
    // (another repository: a process keeps what it learnt of one).
    ScratchDir other;
    std::filesystem::create_directories(other.path / ".git");
    write_file(other.path / "lib" / "main.tf", "variable \"x\" {\n  type = string\n}\n");
    write_file(other.path / "lib" / ".terraform.lock.hcl", "# no providers\n");
    write_file(other.path / "app" / "main.tf", "locals {\n  where = \"../lib\"\n}\n");
    write_file(other.path / "called" / "main.tf", "module \"lib\" {\n  source = \"../lib\"\n  x      = \"y\"\n}\n");
    for (unsigned jobs : {1U, 3U}) {
        const lint::LintResult with_caller = lint_paths(
            {(other.path / "app").string(), (other.path / "called").string(), (other.path / "lib").string()}, jobs);
        REQUIRE(with_caller.completed);
        CHECK(lock_in_shared_module(with_caller, "lib"));
    }
}

TEST_CASE("session: the engine runs the catalogue it is given, and none without one", "[lint][session]") {
    ScratchDir dir;
    write_file(dir.path / "main.tf", "variable \"x\" {}\n");
    lint::LintRequest request;
    request.paths = {dir.path.string()};
    request.offline = true;
    const lint::LintResult none = lint::run_session(request);
    CHECK(!none.completed);
    REQUIRE(none.messages.size() == 1);
    CHECK(none.messages.front().second.find("no rule catalogue") != std::string::npos);

    // A catalogue of one rule: only that rule reports, and it is the result's catalogue.
    const lint::Rule* only = lint::find_builtin_rule("variable-type-missing");
    REQUIRE(only != nullptr);
    request.catalogue = std::span<const lint::Rule>(only, 1);
    const lint::LintResult one = lint::run_session(request);
    REQUIRE(one.completed);
    REQUIRE(one.catalogue.size() == 1);
    CHECK(one.catalogue.front().id == "variable-type-missing");
    REQUIRE(one.findings.size() == 1);
    CHECK(one.findings.front().rule_id == "variable-type-missing");
}

// The module under test of the test-file cases: one variable passed through.
constexpr const char* kPassThroughModule =
    "variable \"name\" {\n"
    "  type = string\n"
    "}\n"
    "output \"name\" {\n"
    "  value = var.name\n"
    "}\n";

TEST_CASE("session: a module whose only problem is in a test file fails on that file", "[lint][session][tests]") {
    ScratchDir dir;
    write_file(dir.path / "main.tf", kPassThroughModule);
    write_file(dir.path / "tests" / "name.tftest.hcl",
               "run \"first\" {\n"
               "  variables {\n"
               "    name = \"a\"\n"
               "  }\n"
               "}\n"
               "run \"first\" {\n"
               "  command = plan\n"
               "}\n"
               "run \"second\" {\n"
               "  assert {\n"
               "    condition     = run.first.nmae == \"a\"\n"
               "    error_message = \"The name is passed through.\"\n"
               "  }\n"
               "}\n");
    const lint::LintResult result = lint_tree(dir, 1);
    REQUIRE(result.completed);
    const std::vector<std::string> lines = finding_lines(result);
    INFO(Catch::Detail::stringify(lines));
    // The errors are the test file's; the configuration has none.
    const std::vector<lint::Finding> errors = errors_of(result);
    REQUIRE(errors.size() == 2);
    for (const auto& f : errors) CHECK(f.file->path().ends_with("tests/name.tftest.hcl"));
    CHECK(errors[0].rule_id == "invalid-configuration");
    CHECK(errors[0].file->line(errors[0].range.start) == 6);
    CHECK(errors[0].message.starts_with("Duplicate \"run\" block names"));
    CHECK(errors[1].rule_id == "test-reference-invalid");
    CHECK(errors[1].file->line(errors[1].range.start) == 11);
    // The test file is one of the files the run read; --fix has nothing to
    // change in it.
    CHECK(std::find_if(result.files.begin(), result.files.end(), [](const std::string& f) {
              return f.ends_with("tests/name.tftest.hcl");
          }) != result.files.end());
    for (const auto& f : result.findings) CHECK_FALSE(f.fix.has_value());
}

TEST_CASE("session: the test directory the settings name holds the module's tests", "[lint][session][tests]") {
    ScratchDir dir;
    write_file(dir.path / ".tfsift.toml", "root = true\ntest_directory = \"spec/unit\"\n");
    write_file(dir.path / "mod" / "main.tf", kPassThroughModule);
    const char* broken =
        "run \"first\" {\n"
        "  assert {\n"
        "    condition     = output.nmae == \"a\"\n"
        "    error_message = \"The name is passed through.\"\n"
        "  }\n"
        "}\n";
    write_file(dir.path / "mod" / "spec" / "unit" / "name.tftest.hcl", broken);
    // `tests` is no longer the test directory: Terraform would not read it.
    write_file(dir.path / "mod" / "tests" / "ignored.tftest.hcl", broken);
    auto errors_of = [](const lint::LintResult& result) {
        std::vector<std::string> out;
        for (const auto& f : result.findings) {
            if (f.severity == Severity::error) out.push_back(f.rule_id + " " + f.file->path());
        }
        return out;
    };
    const lint::LintResult whole = lint_tree(dir, 1);
    REQUIRE(whole.completed);
    INFO(Catch::Detail::stringify(finding_lines(whole)));
    const std::vector<std::string> errors = errors_of(whole);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].starts_with("test-reference-invalid "));
    CHECK(errors[0].ends_with("mod/spec/unit/name.tftest.hcl"));
    // Named on the command line, the test file lints the module above the
    // test directory and reports on itself.
    const lint::LintResult named = lint_targets({(dir.path / "mod" / "spec" / "unit" / "name.tftest.hcl").string()});
    REQUIRE(named.completed);
    CHECK(errors_of(named) == errors);
}

TEST_CASE("session: a module with valid tests gives no finding in them", "[lint][session][tests]") {
    ScratchDir dir;
    write_file(dir.path / "main.tf", kPassThroughModule);
    write_file(dir.path / "main.tftest.hcl",
               "variables {\n"
               "  name = \"a\"\n"
               "}\n"
               "run \"first\" {}\n"
               "run \"second\" {\n"
               "  command = plan\n"
               "  assert {\n"
               "    condition     = run.first.name == var.name\n"
               "    error_message = \"The name is passed through.\"\n"
               "  }\n"
               "}\n");
    const lint::LintResult result = lint_tree(dir, 1);
    REQUIRE(result.completed);
    INFO(Catch::Detail::stringify(finding_lines(result)));
    for (const auto& f : result.findings) CHECK_FALSE(f.file->path().ends_with(".tftest.hcl"));
}

TEST_CASE("session: a module whose only problems are in query and mock data files fails on them",
          "[lint][session][tests]") {
    ScratchDir dir;
    write_file(dir.path / "main.tf", kPassThroughModule);
    // A query file: a list without its provider, and a deprecated
    // interpolation whose fix would rewrite a configuration file.
    write_file(dir.path / "names.tfquery.hcl",
               "list \"aws_instance\" \"all\" {\n"
               "  config {\n"
               "    name = \"${var.name}\"\n"
               "  }\n"
               "}\n");
    // A test file in tests/ whose mock provider reads mocks/aws, relative to
    // the module directory, where a second file mocks the same type again.
    write_file(dir.path / "tests" / "name.tftest.hcl",
               "mock_provider \"aws\" {\n"
               "  source = \"./mocks/aws\"\n"
               "}\n"
               "run \"first\" {\n"
               "  variables {\n"
               "    name = \"a\"\n"
               "  }\n"
               "}\n");
    write_file(dir.path / "mocks" / "aws" / "a.tfmock.hcl", "mock_resource \"aws_instance\" {}\n");
    write_file(dir.path / "mocks" / "aws" / "b.tfmock.hcl", "\nmock_resource \"aws_instance\" {}\n");
    const lint::LintResult result = lint_tree(dir, 1);
    REQUIRE(result.completed);
    const std::vector<std::string> lines = finding_lines(result);
    INFO(Catch::Detail::stringify(lines));
    const std::vector<lint::Finding> errors = errors_of(result);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].file->path().ends_with("mocks/aws/b.tfmock.hcl"));
    CHECK(errors[0].file->line(errors[0].range.start) == 2);
    CHECK(errors[0].message.starts_with("Duplicate mock resource block"));
    CHECK(errors[1].file->path().ends_with("names.tfquery.hcl"));
    CHECK(errors[1].file->line(errors[1].range.start) == 1);
    CHECK(errors[1].message.starts_with("Missing \"provider\" attribute"));
    // Both files are among those the run read; no finding carries a fix, and
    // none is in the query file but the loader's.
    for (const char* name : {"names.tfquery.hcl", "mocks/aws/a.tfmock.hcl", "mocks/aws/b.tfmock.hcl"}) {
        CHECK(std::find_if(result.files.begin(), result.files.end(),
                           [&](const std::string& f) { return f.ends_with(name); }) != result.files.end());
    }
    for (const auto& f : result.findings) {
        CHECK_FALSE(f.fix.has_value());
        if (f.file->path().ends_with(".tfquery.hcl")) CHECK(f.rule_id == "invalid-configuration");
    }
}

TEST_CASE("session: a state migration file is read with its module and never fixed", "[lint][session]") {
    ScratchDir dir;
    write_file(dir.path / "main.tf", kPassThroughModule);
    // A state store without the provider release it needs, and a
    // deprecated interpolation whose fix would rewrite a configuration file.
    write_file(dir.path / "from.tfmigrate.hcl",
               "from {\n"
               "  state_store \"aws_s3\" {\n"
               "    provider \"aws\" {\n"
               "      region = \"${var.name}\"\n"
               "    }\n"
               "  }\n"
               "}\n");
    const lint::LintResult result = lint_tree(dir, 1);
    REQUIRE(result.completed);
    INFO(Catch::Detail::stringify(finding_lines(result)));
    std::vector<lint::Finding> in_file;
    for (const auto& f : result.findings) {
        CHECK_FALSE(f.fix.has_value());
        if (f.file->path().ends_with("from.tfmigrate.hcl")) in_file.push_back(f);
    }
    REQUIRE(in_file.size() == 1);
    CHECK(in_file[0].rule_id == "invalid-configuration");
    CHECK(in_file[0].file->line(in_file[0].range.start) == 2);
    CHECK(in_file[0].message.starts_with("Missing \"state_store_provider\" block for state store migration"));
    CHECK(std::find_if(result.files.begin(), result.files.end(),
                       [](const std::string& f) { return f.ends_with("from.tfmigrate.hcl"); }) != result.files.end());
}
