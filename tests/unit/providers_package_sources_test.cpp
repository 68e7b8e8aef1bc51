// Finding provider packages offline (spec 7-8): filesystem mirrors in both
// layouts, installed packages, the plugin cache, implied mirror directories
// and the CLI configuration's provider_installation block.
#include <catch2/catch.hpp>

#include "support/scratch_dir.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "tfsift/config/paths.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/providers/installation_methods.hpp"
#include "tfsift/providers/package_sources.hpp"

using namespace tfsift::providers;
namespace fs = std::filesystem;

namespace {

using tfsift::testing::ScratchDir;

const std::string kShared = TFSIFT_SHARED_DIR;

void write(const fs::path& p, const std::string& content) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
}

void copy_zip(const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(kShared + "/tools/oracle/expected/h1/single_file.zip", to);
}

Environment environment(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
        auto it = vars.find(std::string(name));
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}

std::vector<std::string> describe(const std::vector<LocalPackage>& packages) {
    std::vector<std::string> out;
    for (const auto& p : packages) {
        out.push_back(p.provider.to_string() + " " + p.version.to_string() + " " + p.platform.to_string() + " " +
                      (p.kind == PackageKind::zip ? "zip" : "dir"));
    }
    return out;
}

}  // namespace

TEST_CASE("a filesystem mirror lists packed and unpacked packages", "[providers][sources]") {
    ScratchDir scratch;
    const fs::path mirror = scratch.path / "mirror";
    const fs::path null_dir = mirror / "registry.terraform.io" / "hashicorp" / "null";
    write(null_dir / "2.0.0" / "linux_amd64" / "terraform-provider-null_v2.0.0", "hello\n");
    copy_zip(null_dir / "terraform-provider-null_2.0.0_linux_amd64.zip");  // shadowed by the directory
    copy_zip(null_dir / "terraform-provider-null_2.1.0_linux_amd64.zip");
    copy_zip(null_dir / "Terraform-Provider-Null_2.2.0_darwin_arm64_extra.zip");  // lower-cased, extra ignored
    copy_zip(null_dir / "terraform-provider-null_invalid.zip");
    copy_zip(null_dir / "terraform-provider-other_1.0.0_linux_amd64.zip");
    write(null_dir / "not-a-version" / "linux_amd64" / "f", "x");
    write(null_dir / "2.0.0" / "linux" / "f", "x");
    write(mirror / "example.com" / "HashiCorp" / "thing" / "1.0.0" / "linux_amd64" / "f", "x");
    write(mirror / "example.com" / "-" / "legacy" / "1.0.0" / "linux_amd64" / "f", "x");
    write(mirror / "registry.terraform.io" / "-" / "legacy" / "1.0.0" / "linux_amd64" / "f", "x");
    write(mirror / "xn--mnchen-3ya.example" / "ns" / "t" / "1.0.0" / "linux_amd64" / "f", "x");
    // A symlink below the base leading elsewhere is not walked.
    write(scratch.path / "outside" / "ns" / "t" / "1.0.0" / "linux_amd64" / "f", "x");
    fs::create_symlink(scratch.path / "outside", mirror / "evil.example");

    const auto found = describe(scan_filesystem_mirror(mirror, Engine::terraform));
    CHECK(found == std::vector<std::string>{
                       "example.com/hashicorp/thing 1.0.0 linux_amd64 dir",
                       "registry.terraform.io/-/legacy 1.0.0 linux_amd64 dir",
                       "registry.terraform.io/hashicorp/null 2.2.0 darwin_arm64 zip",
                       "registry.terraform.io/hashicorp/null 2.0.0 linux_amd64 dir",
                       "registry.terraform.io/hashicorp/null 2.1.0 linux_amd64 zip",
                   });
    // Only unpacked packages count in an install or cache directory.
    CHECK(scan_unpacked_packages(mirror, Engine::terraform).size() == 3);
    // The base itself may be a symlink.
    fs::create_symlink(mirror, scratch.path / "mirror-link");
    CHECK(scan_filesystem_mirror(scratch.path / "mirror-link", Engine::terraform).size() == 5);
    CHECK(scan_filesystem_mirror(scratch.path / "absent", Engine::terraform).empty());
}

TEST_CASE("include and exclude patterns pick the providers a method handles", "[providers][sources]") {
    const auto aws = *parse_provider_source("hashicorp/aws", Engine::terraform).provider;
    const auto thing = *parse_provider_source("example.com/acme/thing", Engine::terraform).provider;
    InstallationMethod method{InstallationMethod::Kind::filesystem_mirror, "/m", {"example.com/*/*"}, {}};
    CHECK(method_handles(method, thing, Engine::terraform));
    CHECK_FALSE(method_handles(method, aws, Engine::terraform));
    method = {InstallationMethod::Kind::direct, "", {}, {"hashicorp/*"}};
    CHECK_FALSE(method_handles(method, aws, Engine::terraform));
    CHECK(method_handles(method, thing, Engine::terraform));
    method = {InstallationMethod::Kind::direct, "", {"*/*"}, {}};  // the default host only
    CHECK(method_handles(method, aws, Engine::terraform));
    CHECK_FALSE(method_handles(method, thing, Engine::terraform));
    method = {InstallationMethod::Kind::direct, "", {"*/aws"}, {}};  // invalid: matches nothing
    CHECK_FALSE(method_handles(method, aws, Engine::terraform));
}

TEST_CASE("the CLI configuration and environment decide where packages are found", "[providers][sources]") {
    ScratchDir scratch;
    const fs::path home = scratch.path / "home";
    const fs::path work = scratch.path / "work";
    const fs::path mirror = scratch.path / "mirror";
    write(mirror / "example.com" / "acme" / "thing" / "1.0.0" / "linux_amd64" / "f", "x");
    write(mirror / "registry.terraform.io" / "hashicorp" / "aws" / "5.0.0" / "linux_amd64" / "f", "x");
    write(scratch.path / "cache" / "registry.terraform.io" / "hashicorp" / "null" / "3.0.0" / "linux_amd64" / "f", "x");
    write(work / "data" / "providers" / "registry.terraform.io" / "hashicorp" / "time" / "0.9.1" / "linux_amd64" /
              "terraform-provider-time_v0.9.1",
          "x");
    write(home / ".terraform.d" / "plugins" / "example.com" / "acme" / "implied" / "1.0.0" / "linux_amd64" / "f", "x");
    const fs::path rc = scratch.path / "custom.tfrc";
    write(rc,
          "plugin_cache_dir = \"$ROOT/cache\"\n"
          "provider_installation {\n"
          "  filesystem_mirror {\n"
          "    path    = \"" +
              mirror.string() +
              "\"\n"
              "    include = [\"example.com/*/*\"]\n"
              "  }\n"
              "  direct {\n"
              "    exclude = [\"example.com/*/*\"]\n"
              "  }\n"
              "}\n");

    const auto env = environment({{"HOME", home.string()},
                                  {"ROOT", scratch.path.string()},
                                  {"TF_CLI_CONFIG_FILE", rc.string()},
                                  {"TF_DATA_DIR", "data"}});
    CHECK(cli_config_files(env, Engine::terraform) == std::vector<fs::path>{rc});
    const auto config = read_cli_config({rc}, env);
    CHECK(config.diagnostics.empty());
    REQUIRE(config.plugin_cache_dir);
    CHECK(*config.plugin_cache_dir == scratch.path / "cache");
    REQUIRE(config.provider_installation);
    REQUIRE(config.provider_installation->size() == 2);
    CHECK((*config.provider_installation)[0].location == mirror.string());

    const auto packages = find_local_packages(work, env, Engine::terraform);
    CHECK(describe(packages.installed) ==
          std::vector<std::string>{"registry.terraform.io/hashicorp/time 0.9.1 linux_amd64 dir"});
    CHECK(describe(packages.cache) ==
          std::vector<std::string>{"registry.terraform.io/hashicorp/null 3.0.0 linux_amd64 dir"});
    CHECK(describe(packages.mirrors) == std::vector<std::string>{"example.com/acme/thing 1.0.0 linux_amd64 dir"});

    // Without a provider_installation block the implied directories are used.
    const auto implied_env = environment({{"HOME", home.string()}, {"XDG_DATA_DIRS", "relative/ignored"}});
    CHECK(implied_mirror_directories(implied_env, Engine::terraform, work) ==
          std::vector<fs::path>{home / ".terraform.d" / "plugins"});
    const auto implied = find_local_packages(work, implied_env, Engine::terraform);
    CHECK(describe(implied.mirrors) == std::vector<std::string>{"example.com/acme/implied 1.0.0 linux_amd64 dir"});
    CHECK(implied.cache.empty());
    // The environment's cache directory beats the files'.
    const auto cache_env =
        environment({{"HOME", home.string()}, {"TF_PLUGIN_CACHE_DIR", (scratch.path / "cache").string()}});
    CHECK(find_local_packages(work, cache_env, Engine::terraform).cache.size() == 1);

    // OpenTofu reads ~/.tofurc first and falls back to ~/.terraformrc.
    write(home / ".terraformrc", "plugin_cache_dir = \"/x\"\n");
    CHECK(cli_config_files(implied_env, Engine::opentofu) == std::vector<fs::path>{home / ".terraformrc"});
    write(home / ".tofurc", "");
    CHECK(cli_config_files(implied_env, Engine::opentofu) == std::vector<fs::path>{home / ".tofurc"});
    CHECK(cli_config_files(implied_env, Engine::terraform) == std::vector<fs::path>{home / ".terraformrc"});
}

TEST_CASE("a package finder reads what every working directory shares once", "[providers][sources]") {
    ScratchDir scratch;
    const fs::path home = scratch.path / "home";
    const fs::path first = scratch.path / "first";
    const fs::path second = scratch.path / "second";
    const fs::path cache = scratch.path / "cache";
    write(cache / "registry.terraform.io" / "hashicorp" / "null" / "3.0.0" / "linux_amd64" / "f", "x");
    write(home / ".terraform.d" / "plugins" / "example.com" / "acme" / "user" / "1.0.0" / "linux_amd64" / "f", "x");
    // Each working directory's own implied mirror and installed packages.
    write(first / "terraform.d" / "plugins" / "example.com" / "acme" / "own" / "2.0.0" / "linux_amd64" / "f", "x");
    write(second / ".terraform" / "providers" / "registry.terraform.io" / "hashicorp" / "time" / "0.9.1" /
              "linux_amd64" / "terraform-provider-time_v0.9.1",
          "x");
    const auto env = environment({{"HOME", home.string()}, {"TF_PLUGIN_CACHE_DIR", cache.string()}});

    const LocalPackageFinder finder(env);
    for (const fs::path& work : {first, second}) {
        // The same answer as a search of its own, for either engine.
        for (const Engine engine : {Engine::terraform, Engine::opentofu}) {
            const auto alone = find_local_packages(work, env, engine);
            const auto shared = finder.find(work, engine);
            CHECK(describe(shared.installed) == describe(alone.installed));
            CHECK(describe(shared.cache) == describe(alone.cache));
            CHECK(describe(shared.mirrors) == describe(alone.mirrors));
        }
    }
    // The working directory's own mirror comes before the user's.
    CHECK(describe(finder.find(first, Engine::terraform).mirrors) ==
          std::vector<std::string>{"example.com/acme/own 2.0.0 linux_amd64 dir",
                                   "example.com/acme/user 1.0.0 linux_amd64 dir"});
    CHECK(describe(finder.find(second, Engine::terraform).installed) ==
          std::vector<std::string>{"registry.terraform.io/hashicorp/time 0.9.1 linux_amd64 dir"});

    // What the working directories share was read once: a package added to
    // the plugin cache or the user's mirror now is not seen by this finder,
    // while the working directory's own packages are read at every call.
    write(cache / "registry.terraform.io" / "hashicorp" / "random" / "3.1.0" / "linux_amd64" / "f", "x");
    write(home / ".terraform.d" / "plugins" / "example.com" / "acme" / "later" / "1.0.0" / "linux_amd64" / "f", "x");
    write(first / "terraform.d" / "plugins" / "example.com" / "acme" / "own" / "2.1.0" / "linux_amd64" / "f", "x");
    const auto again = finder.find(first, Engine::terraform);
    CHECK(describe(again.cache) ==
          std::vector<std::string>{"registry.terraform.io/hashicorp/null 3.0.0 linux_amd64 dir"});
    CHECK(describe(again.mirrors) == std::vector<std::string>{"example.com/acme/own 2.0.0 linux_amd64 dir",
                                                              "example.com/acme/own 2.1.0 linux_amd64 dir",
                                                              "example.com/acme/user 1.0.0 linux_amd64 dir"});
    // A new finder, as the next run makes, sees them.
    CHECK(LocalPackageFinder(env).find(first, Engine::terraform).cache.size() == 2);
    CHECK(LocalPackageFinder(env).find(first, Engine::terraform).mirrors.size() == 4);
}

TEST_CASE("a package finder for a scan answers from its listings", "[providers][sources]") {
    ScratchDir scratch;
    const fs::path home = scratch.path / "home";
    const fs::path work = scratch.path / "work";
    write(work / "terraform.d" / "plugins" / "example.com" / "acme" / "own" / "2.0.0" / "linux_amd64" / "f", "x");
    write(work / ".terraform" / "providers" / "registry.terraform.io" / "hashicorp" / "time" / "0.9.1" / "linux_amd64" /
              "terraform-provider-time_v0.9.1",
          "x");
    const auto env = environment({{"HOME", home.string()}});
    const std::string key = tfsift::config::absolute_normal_path(work.string());

    // Listed with both: found as without listings.
    tfsift::ScanListings listings;
    std::vector<tfsift::DirectoryEntry> entries;
    REQUIRE(tfsift::list_directory_entries(work.string(), entries));
    listings.add(key, entries);
    const auto listed = LocalPackageFinder(env, &listings).find(work, Engine::terraform);
    CHECK(describe(listed.installed) ==
          std::vector<std::string>{"registry.terraform.io/hashicorp/time 0.9.1 linux_amd64 dir"});
    CHECK(describe(listed.mirrors) == std::vector<std::string>{"example.com/acme/own 2.0.0 linux_amd64 dir"});

    // A listing without them is the scan's answer: neither is looked for.
    tfsift::ScanListings bare;
    bare.add(key, {});
    const auto unlisted = LocalPackageFinder(env, &bare).find(work, Engine::terraform);
    CHECK(unlisted.installed.empty());
    CHECK(unlisted.mirrors.empty());

    // TF_DATA_DIR names another data directory: it is looked for.
    write(work / "data" / "providers" / "registry.terraform.io" / "hashicorp" / "null" / "3.0.0" / "linux_amd64" /
              "terraform-provider-null_v3.0.0",
          "x");
    const auto custom = environment({{"HOME", home.string()}, {"TF_DATA_DIR", "data"}});
    CHECK(describe(LocalPackageFinder(custom, &bare).find(work, Engine::terraform).installed) ==
          std::vector<std::string>{"registry.terraform.io/hashicorp/null 3.0.0 linux_amd64 dir"});
}

TEST_CASE("bad provider_installation blocks are reported", "[providers][sources]") {
    ScratchDir scratch;
    const fs::path rc = scratch.path / "bad.tfrc";
    write(rc,
          "provider_installation {\n  filesystem_mirror {\n  }\n  carrier_pigeon {\n  }\n"
          "  dev_overrides {\n  }\n}\nprovider_installation {\n}\n");
    const auto config = read_cli_config({rc}, environment({}));
    REQUIRE(config.diagnostics.size() == 4);
    CHECK(config.diagnostics[0].detail.find("\"path\" argument is required") != std::string::npos);
    CHECK(config.diagnostics[1].detail.find("Unknown provider installation method \"carrier_pigeon\"") !=
          std::string::npos);
    CHECK(config.diagnostics[2].detail.find("must appear before all other installation methods") != std::string::npos);
    CHECK(config.diagnostics[3].detail == "No more than one provider_installation block may be specified.");
    const auto missing = read_cli_config({scratch.path / "absent.tfrc"}, environment({}));
    REQUIRE(missing.diagnostics.size() == 1);
    CHECK(missing.diagnostics[0].summary == "Unable to open CLI configuration file");
}

TEST_CASE("installation methods: the configured block, or the implied one", "[providers][sources]") {
    ScratchDir scratch;
    const fs::path home = scratch.path / "home";
    const fs::path work = scratch.path / "work";
    write(home / ".terraform.d" / "plugins" / "example.com" / "acme" / "implied" / "1.0.0" / "linux_amd64" / "f", "x");
    write(home / ".terraform.d" / "plugins" / "example.com" / "acme" / "implied" / "1.1.0" / "darwin_arm64" / "f", "x");
    const auto env = environment({{"HOME", home.string()}, {"XDG_DATA_DIRS", "relative/ignored"}});
    const auto aws = parse_provider_source("hashicorp/aws", Engine::terraform).provider;
    const auto implied = parse_provider_source("example.com/acme/implied", Engine::terraform).provider;
    REQUIRE(aws);
    REQUIRE(implied);

    // No block: each implied directory, then direct for what they do not hold.
    const auto methods = installation_methods(CliConfig{}, env, Engine::terraform, work);
    REQUIRE(methods.size() == 2);
    CHECK(methods[0].kind == InstallationMethod::Kind::filesystem_mirror);
    CHECK(methods[0].location == (home / ".terraform.d" / "plugins").string());
    CHECK(methods[1].kind == InstallationMethod::Kind::direct);
    CHECK(methods[1].exclude == std::vector<std::string>{"example.com/acme/implied"});
    CHECK(method_handles(methods[1], *aws, Engine::terraform));
    CHECK_FALSE(method_handles(methods[1], *implied, Engine::terraform));

    // A block is taken as written, with no automatic exclusion.
    CliConfig config;
    config.provider_installation = std::vector<InstallationMethod>{
        {InstallationMethod::Kind::network_mirror, "https://mirror.example.com/", {"hashicorp/*"}, {}},
        {InstallationMethod::Kind::direct, "", {}, {}}};
    const auto configured = installation_methods(config, env, Engine::terraform, work);
    REQUIRE(configured.size() == 2);
    CHECK(configured[0].location == "https://mirror.example.com/");
    CHECK(configured[1].exclude.empty());
}
