#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <set>

#include "../support/scratch_dir.hpp"
#include "tfsift/lint/module_roles.hpp"
#include "tfsift/lint/repository_root.hpp"
#include "tfsift/lint/settings.hpp"

namespace fs = std::filesystem;
using namespace tfsift;
using namespace tfsift::lint;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

namespace {

std::string abs(const fs::path& p) { return absolute_normal_path(p.string()); }

}  // namespace

TEST_CASE("repository root: .git, else a settings file with root = true", "[lint][roles]") {
    ScratchDir s("tfsift-roles");
    write_file(s.path / "repo/.git/HEAD", "ref: refs/heads/main\n");
    write_file(s.path / "repo/modules/a/main.tf", "");
    write_file(s.path / "mono/.tfsift.toml", "root = true\n");
    write_file(s.path / "mono/team/.tfsift.toml", "engine = \"terraform\"\n");
    write_file(s.path / "mono/team/svc/main.tf", "");
    write_file(s.path / "loose/x/main.tf", "");

    CHECK(find_repository_root((s.path / "repo/modules/a").string()) == abs(s.path / "repo"));
    CHECK(find_repository_root((s.path / "repo/modules/a/main.tf").string()) == abs(s.path / "repo"));
    // A settings file without `root = true` does not stop the search.
    CHECK(find_repository_root((s.path / "mono/team/svc").string()) == abs(s.path / "mono"));
    CHECK(settings_file_marks_root((s.path / "mono/.tfsift.toml").string()));
    CHECK_FALSE(settings_file_marks_root((s.path / "mono/team/.tfsift.toml").string()));
    // Neither: the fallback (the path named on the command line), else the
    // directory itself.
    CHECK_FALSE(find_marked_repository_root((s.path / "loose/x").string()));
    CHECK(find_repository_root((s.path / "loose/x").string()) == abs(s.path / "loose/x"));
    CHECK(find_repository_root((s.path / "loose/x").string(), (s.path / "loose").string()) == abs(s.path / "loose"));
}

TEST_CASE("module roles come from every local caller in the repository", "[lint][roles]") {
    ScratchDir s("tfsift-roles");
    const fs::path r = s.path / "repo";
    write_file(r / ".git/HEAD", "");
    write_file(r / "main.tf", "resource \"null_resource\" \"x\" {}\n");
    // Registry layout: an example calls the repository's root module.
    write_file(r / "examples/basic/main.tf", "module \"this\" {\n  source = \"../..\"\n}\n");
    write_file(r / "modules/net/main.tf", "");
    write_file(r / "modules/unused/main.tf", "");
    write_file(r / "envs/prod/main.tf",
               "module \"net\" {\n  source = \"../../modules/net\"\n}\n"
               "module \"remote\" {\n  source = \"hashicorp/consul/aws\"\n}\n");
    // JSON syntax counts too.
    write_file(r / "envs/dev/main.tf.json", R"({"module": {"db": {"source": "../../modules/db"}}})");
    write_file(r / "modules/db/main.tf", "");
    // Hidden directories (installed modules) are not callers.
    write_file(r / ".terraform/modules/x/main.tf", "module \"u\" {\n  source = \"../../../modules/unused\"\n}\n");
    // A broken file is skipped, not fatal.
    write_file(r / "broken/main.tf", "module \"m\" {\n  source = \n");

    const RepositoryModuleCalls calls = scan_repository_module_calls(r.string());
    CHECK(calls.called == std::set<std::string>{abs(r), abs(r / "modules/net"), abs(r / "modules/db")});

    Settings none;
    CHECK(decide_module_role(abs(r), none, calls) == ModuleRole::called);
    CHECK(decide_module_role(abs(r / "modules/net"), none, calls) == ModuleRole::called);
    CHECK(decide_module_role(abs(r / "modules/unused"), none, calls) == ModuleRole::root);
    CHECK(decide_module_role(abs(r / "envs/prod"), none, calls) == ModuleRole::root);

    // The cache answers the same for any spelling of the directory, whatever
    // else a run scans.
    ModuleRoleCache cache;
    CHECK(cache.role_of((r / "modules/net/").string(), none) == ModuleRole::called);
    CHECK(cache.role_of((r / "envs/../modules/net").string(), none) == ModuleRole::called);
    CHECK(cache.role_of((r / "envs/prod").string(), none) == ModuleRole::root);
}

TEST_CASE("a source worked out from variables and locals calls its module too", "[lint][roles]") {
    ScratchDir s("tfsift-roles");
    const fs::path r = s.path / "repo";
    write_file(r / ".git/HEAD", "");
    // The call and what its source is made of sit in different files, and
    // the call's file shows no local path.
    write_file(r / "envs/prod/main.tf", "module \"app\" {\n  source = local.app_path\n}\n");
    write_file(r / "envs/prod/locals.tf",
               "variable \"app\" {\n  type    = string\n  default = \"app\"\n  const   = true\n}\n"
               "locals {\n  app_path = \"../../modules/${var.app}\"\n}\n");
    write_file(r / "modules/app/main.tf", "");
    // A value known only later calls nothing the scan can see.
    write_file(r / "envs/dev/main.tf",
               "resource \"terraform_data\" \"name\" {\n  input = \"x\"\n}\n"
               "module \"later\" {\n  source = \"../../modules/${terraform_data.name.output}\"\n}\n");
    write_file(r / "modules/x/main.tf", "");

    const RepositoryModuleCalls calls = scan_repository_module_calls(r.string());
    CHECK(calls.called == std::set<std::string>{abs(r / "modules/app")});
    Settings none;
    CHECK(decide_module_role(abs(r / "modules/app"), none, calls) == ModuleRole::called);
    CHECK(decide_module_role(abs(r / "modules/x"), none, calls) == ModuleRole::root);
}

TEST_CASE("declared roles in .tfsift.toml win over callers", "[lint][roles]") {
    ScratchDir s("tfsift-roles");
    const fs::path r = s.path / "repo";
    write_file(r / ".git/HEAD", "");
    write_file(r / "modules/unused/main.tf", "");
    write_file(r / "envs/prod/main.tf", "");
    write_file(r / "stacks/base/main.tf", "");
    write_file(r / "stacks/app/main.tf", "module \"b\" {\n  source = \"../base\"\n}\n");
    const std::string toml = "shared = [\"modules/**\"]\nroots = [\"envs/*\", \"stacks/base\"]\n";
    write_file(r / ".tfsift.toml", toml);
    auto loaded = parse_settings((r / ".tfsift.toml").string(), toml);
    REQUIRE(loaded.ok());
    const RepositoryModuleCalls calls = scan_repository_module_calls(r.string());
    CHECK(decide_module_role(abs(r / "modules/unused"), loaded.settings, calls) == ModuleRole::called);
    CHECK(decide_module_role(abs(r / "envs/prod"), loaded.settings, calls) == ModuleRole::root);
    // Called, but declared a root module.
    CHECK(decide_module_role(abs(r / "stacks/base"), loaded.settings, calls) == ModuleRole::root);

    // "." names the settings file's own directory: a root module its tests call.
    write_file(r / "lib/.tfsift.toml", "roots = [\".\"]\n");
    write_file(r / "lib/main.tf", "");
    write_file(r / "lib/test/main.tf", "module \"t\" {\n  source = \"../\"\n}\n");
    auto lib = parse_settings((r / "lib/.tfsift.toml").string(), "roots = [\".\"]\n");
    REQUIRE(lib.ok());
    const RepositoryModuleCalls calls2 = scan_repository_module_calls(r.string());
    CHECK(calls2.called.count(abs(r / "lib")) == 1);
    CHECK(decide_module_role(abs(r / "lib"), lib.settings, calls2) == ModuleRole::root);
    CHECK(decide_module_role(abs(r / "lib/test"), lib.settings, calls2) == ModuleRole::root);

    auto bad = parse_settings((r / "x.toml").string(), "root = \"yes\"\nshared = \"modules\"\n");
    REQUIRE(bad.errors.size() == 2);
    CHECK(bad.errors[0].message.find("`root` must be true or false") != std::string::npos);
    CHECK(bad.errors[1].line == 2);
}

TEST_CASE("the role cache follows the files a refresh reads again", "[lint][roles]") {
    ScratchDir s("tfsift-roles");
    const fs::path r = s.path / "repo";
    write_file(r / ".git/HEAD", "");
    write_file(r / "modules/net/main.tf", "variable \"cidr\" {}\n");
    write_file(r / "envs/prod/main.tf", "locals {\n  module = 1\n}\n");
    write_file(r / ".hidden/main.tf", "");
    const std::string net = abs(r / "modules/net");
    const std::string prod = abs(r / "envs/prod");
    Settings none;
    ModuleRoleCache cache(true);  // refreshed, as the language server's
    CHECK(cache.role_of(net, none) == ModuleRole::root);
    // Nothing changed: nothing flips.
    CHECK(cache.refresh_directory(prod).empty());

    // A caller saved on disk: the callee's role flips, the caller's does not.
    const std::string call = "module \"net\" {\n  source = \"../../modules/net\"\n}\n";
    write_file(r / "envs/prod/main.tf", call);
    CHECK(cache.role_of(net, none) == ModuleRole::root);  // not read again until refreshed
    CHECK(cache.refresh_directory((r / "envs/prod/").string()) == std::set<std::string>{net});
    CHECK(cache.role_of(net, none) == ModuleRole::called);
    CHECK(cache.role_of(prod, none) == ModuleRole::root);

    // A second caller (created in a new directory), then the first one
    // deleted: the module stays called while one caller is left.
    write_file(r / "envs/dev/net.tf", call);
    CHECK(cache.refresh_directory(abs(r / "envs/dev")).empty());
    fs::remove(r / "envs/prod/main.tf");
    CHECK(cache.refresh_directory(prod).empty());
    CHECK(cache.role_of(net, none) == ModuleRole::called);

    // An unsaved buffer that drops the last call stands in for the file.
    auto overlays = std::make_shared<FileOverlays>();
    (*overlays)[fs::canonical(r / "envs/dev/net.tf").string()] = "# the call is gone\n";
    CHECK(cache.refresh_directory(abs(r / "envs/dev"), overlays) == std::set<std::string>{net});
    CHECK(cache.role_of(net, none) == ModuleRole::root);
    // The buffer closed: the file on disk counts again.
    CHECK(cache.refresh_directory(abs(r / "envs/dev")) == std::set<std::string>{net});
    CHECK(cache.role_of(net, none) == ModuleRole::called);

    // A directory a scan does not reach (hidden) is not counted on refresh either.
    write_file(r / ".hidden/main.tf", "module \"m\" {\n  source = \"../modules/other\"\n}\n");
    CHECK(cache.refresh_directory(abs(r / ".hidden")).empty());
    CHECK(cache.role_of(abs(r / "modules/other"), none) == ModuleRole::root);

    // clear(): scanned afresh, same answer.
    cache.clear();
    CHECK(cache.role_of(net, none) == ModuleRole::called);
    CHECK(cache.role_of(abs(r / "modules/other"), none) == ModuleRole::root);
}

TEST_CASE("the callers of a module, through any depth of local calls", "[lint][roles]") {
    ScratchDir s("tfsift-roles");
    const fs::path r = s.path / "repo";
    write_file(r / ".git/HEAD", "");
    // envs/prod -> modules/app -> modules/bucket; envs/dev -> modules/bucket;
    // modules/a and modules/b call each other.
    write_file(r / "envs/prod/main.tf", "module \"app\" {\n  source = \"../../modules/app\"\n}\n");
    write_file(r / "modules/app/main.tf", "module \"bucket\" {\n  source = \"../bucket\"\n}\n");
    write_file(r / "envs/dev/main.tf", "module \"bucket\" {\n  source = \"../../modules/bucket\"\n}\n");
    write_file(r / "modules/bucket/main.tf", "");
    write_file(r / "modules/a/main.tf", "module \"b\" {\n  source = \"../b\"\n}\n");
    write_file(r / "modules/b/main.tf", "module \"a\" {\n  source = \"../a\"\n}\n");
    write_file(r / "envs/other/main.tf", "");

    ModuleRoleCache cache;
    Settings none;
    // Nothing is known before a scan holds the module.
    CHECK(cache.callers_of((r / "modules/bucket").string()).empty());
    CHECK(cache.role_of((r / "modules/bucket").string(), none) == ModuleRole::called);
    CHECK(cache.callers_of((r / "modules/bucket").string()) ==
          std::set<std::string>{abs(r / "envs/prod"), abs(r / "modules/app"), abs(r / "envs/dev")});
    CHECK(cache.callers_of((r / "modules/app/").string()) == std::set<std::string>{abs(r / "envs/prod")});
    // A cycle ends, and a module is not its own caller.
    CHECK(cache.callers_of((r / "modules/a").string()) == std::set<std::string>{abs(r / "modules/b")});
    CHECK(cache.callers_of((r / "envs/other").string()).empty());
    CHECK(cache.callers_of((r / "envs/prod").string()).empty());
}

TEST_CASE("the scan weighs each directory's configuration text", "[lint][roles]") {
    ScratchDir s("tfsift-roles");
    const fs::path r = s.path / "repo";
    write_file(r / ".git/HEAD", "");
    const std::string main_tf = "module \"net\" {\n  source = \"../../modules/net\"\n}\n";
    const std::string vars_tf = "variable \"region\" {}\n";
    const std::string json = R"({"output": {"id": {"value": "x"}}})";
    write_file(r / "envs/prod/main.tf", main_tf);
    write_file(r / "envs/prod/variables.tf", vars_tf);
    write_file(r / "envs/prod/notes.md", "not configuration\n");
    write_file(r / "modules/net/outputs.tf.json", json);
    write_file(r / "modules/empty/README.md", "no configuration here\n");
    const std::string prod = abs(r / "envs/prod");
    const std::string net = abs(r / "modules/net");
    Settings none;
    ModuleRoleCache cache(true);
    CHECK(cache.text_bytes(prod) == 0);  // nothing scanned yet
    CHECK(cache.role_of(net, none) == ModuleRole::called);
    // Every configuration file counts, whether or not it mentions a module;
    // other files do not.
    CHECK(cache.text_bytes(prod) == main_tf.size() + vars_tf.size());
    CHECK(cache.text_bytes(net) == json.size());
    CHECK(cache.text_bytes(abs(r / "modules/empty")) == 0);
    // A refresh weighs the directory again.
    fs::remove(r / "envs/prod/variables.tf");
    (void)cache.refresh_directory(prod);
    CHECK(cache.text_bytes(prod) == main_tf.size());
    fs::remove(r / "envs/prod/main.tf");
    (void)cache.refresh_directory(prod);
    CHECK(cache.text_bytes(prod) == 0);
}
