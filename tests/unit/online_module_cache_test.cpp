// The module package cache and git packages fetched from a repository made
// here, through the fetcher the commands use.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>

#include "support/scoped_env.hpp"
#include "support/scratch_dir.hpp"
#include "tfsift/online/git_fetcher.hpp"
#include "tfsift/online/module_cache.hpp"
#include "tfsift/online/module_fetcher.hpp"

namespace fs = std::filesystem;
using namespace tfsift::online;
using tfsift::testing::read_file;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

namespace {

int sh(const std::string& command) { return std::system(command.c_str()); }  // NOLINT(cert-env33-c)

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

tfsift::providers::Environment env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
        auto it = vars.find(std::string(name));
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}

// A repository with tags v1.0.0 and v1.1.0 whose variables differ, and a
// later commit on main.
fs::path make_repository(const fs::path& dir) {
    const fs::path repo = dir / "repo";
    const std::string git =
        "git -C " + quoted(repo) +
        " -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false -c tag.gpgsign=false ";
    REQUIRE(sh("git init -q -b main " + quoted(repo)) == 0);
    write_file(repo / "main.tf", "variable \"one\" {}\n");
    REQUIRE(sh(git + "add -A && " + git + "commit -q -m one && " + git + "tag v1.0.0") == 0);
    write_file(repo / "main.tf", "variable \"two\" {}\n");
    write_file(repo / "sub" / "main.tf", "variable \"sub\" {}\n");
    REQUIRE(sh(git + "add -A && " + git + "commit -q -m two && " + git + "tag v1.1.0") == 0);
    write_file(repo / "main.tf", "variable \"three\" {}\n");
    REQUIRE(sh(git + "add -A && " + git + "commit -q -m three") == 0);
    return repo;
}

}  // namespace

TEST_CASE("tree digests see content, executability and links", "[module_cache]") {
    ScratchDir scratch;
    write_file(scratch.path / "t" / "a.tf", "a");
    std::string error;
    const auto first = tree_digest(scratch.path / "t", error);
    REQUIRE(first.starts_with("sha256:"));
    write_file(scratch.path / "t" / "a.tf", "b");
    CHECK(tree_digest(scratch.path / "t", error) != first);
    write_file(scratch.path / "t" / "a.tf", "a");
    CHECK(tree_digest(scratch.path / "t", error) == first);
    fs::create_symlink("a.tf", scratch.path / "t" / "l.tf");
    CHECK(tree_digest(scratch.path / "t", error) != first);
}

TEST_CASE("a cached package is verified, a changed one reported", "[module_cache]") {
    ScratchDir scratch;
    ModuleCache cache(scratch.path / "cache");
    const auto id = ModuleCache::package_id("example.com/ns/net/aws", "1.2.0");
    CHECK_FALSE(cache.find(id).tree);
    CHECK(cache.find(id).corrupt.empty());
    std::string error;
    const auto staging = cache.new_staging_dir(error);
    REQUIRE_FALSE(staging.empty());
    write_file(staging / "tree" / "main.tf", "variable \"x\" {}\n");
    ModuleManifest manifest;
    manifest.package = "example.com/ns/net/aws";
    manifest.resolved = "1.2.0";
    REQUIRE(cache.install(id, staging, manifest).empty());
    CHECK_FALSE(fs::exists(staging));
    auto found = cache.find(id);
    REQUIRE(found.tree);
    CHECK(found.manifest.resolved == "1.2.0");
    CHECK(read_file(*found.tree / "main.tf") == "variable \"x\" {}\n");

    write_file(*found.tree / "main.tf", "variable \"tampered\" {}\n");
    found = cache.find(id);
    CHECK_FALSE(found.tree);
    CHECK_THAT(found.corrupt, Catch::Contains("no longer match the recorded digest"));

    cache.remember("registry example.com/ns/net/aws ~> 1.2", "1.2.0");
    REQUIRE(cache.recall("registry example.com/ns/net/aws ~> 1.2"));
    CHECK(cache.recall("registry example.com/ns/net/aws ~> 1.2")->answer == "1.2.0");
    CHECK_FALSE(cache.recall("registry example.com/ns/net/aws ~> 2.0"));
}

TEST_CASE("a cached package whose stamp is unchanged is not hashed again; any change is hashed", "[module_cache]") {
    ScratchDir scratch;
    ModuleCache cache(scratch.path / "cache");
    const auto id = ModuleCache::package_id("example.com/ns/net/aws", "1.0.0");
    std::string error;
    const auto staging = cache.new_staging_dir(error);
    REQUIRE_FALSE(staging.empty());
    write_file(staging / "tree" / "main.tf", "variable \"x\" {}\n");
    write_file(staging / "tree" / "sub" / "main.tf", "variable \"y\" {}\n");
    ModuleManifest manifest;
    manifest.package = "example.com/ns/net/aws";
    manifest.resolved = "1.0.0";
    REQUIRE(cache.install(id, staging, manifest).empty());
    const fs::path tree = scratch.path / "cache" / "packages" / id / "tree";
    CHECK(manifest.stamp.starts_with("stamp:"));
    CHECK(tree_stamp(tree, error) == manifest.stamp);  // renaming the package into place changed nothing below tree/
    REQUIRE(cache.find(id).tree);

    // The same size and modification time, other content: the change time
    // moved, so the tree is hashed and the change found.
    const auto mtime = fs::last_write_time(tree / "main.tf");
    write_file(tree / "main.tf", "variable \"z\" {}\n");
    fs::last_write_time(tree / "main.tf", mtime);
    CHECK(tree_stamp(tree, error) != manifest.stamp);
    auto found = cache.find(id);
    CHECK_FALSE(found.tree);
    CHECK_THAT(found.corrupt, Catch::Contains("no longer match the recorded digest"));

    // Content put back: the stamp differs, the digest matches, the package is good.
    write_file(tree / "main.tf", "variable \"x\" {}\n");
    CHECK(cache.find(id).tree);
    // A file added to a subdirectory changes the stamp, and the digest.
    write_file(tree / "sub" / "extra.tf", "");
    CHECK_FALSE(cache.find(id).tree);
}

TEST_CASE("the git environment never prompts and allows four transports", "[git_fetcher]") {
    auto env = git_environment(
        {"HOME=/home/u", "GIT_ASKPASS=/usr/bin/ksshaskpass", "GIT_ALLOW_PROTOCOL=ext", "SSH_AUTH_SOCK=/run/agent"});
    auto has = [&](const std::string& e) { return std::find(env.begin(), env.end(), e) != env.end(); };
    CHECK(has("GIT_TERMINAL_PROMPT=0"));
    CHECK(has("GIT_ALLOW_PROTOCOL=https:ssh:git:file"));
    CHECK(has("GIT_SSH_COMMAND=ssh -o BatchMode=yes"));
    CHECK(has("SSH_AUTH_SOCK=/run/agent"));
    CHECK_FALSE(has("GIT_ASKPASS=/usr/bin/ksshaskpass"));
    CHECK_FALSE(has("GIT_ALLOW_PROTOCOL=ext"));
    env = git_environment({"GIT_SSH_COMMAND=ssh -i key"});
    CHECK(std::find(env.begin(), env.end(), "GIT_SSH_COMMAND=ssh -i key -o BatchMode=yes") != env.end());
    CHECK(redact_url_credentials("fatal: https://user:s3cret@example.com/x.git failed") ==
          "fatal: https://REDACTED@example.com/x.git failed");
}

TEST_CASE("git packages at a tag, a branch and a commit, from the cache offline", "[git_fetcher]") {
    ScratchDir scratch;
    const fs::path repo = make_repository(scratch.path);
    const std::string url = "file://" + repo.string();
    std::string warning;
    auto settings = git_settings_from(env_of({}), warning);

    auto tag = resolve_git_ref(settings, url, "v1.0.0");
    REQUIRE(tag.ok());
    auto branch = resolve_git_ref(settings, url, "main");
    REQUIRE(branch.ok());
    CHECK(tag.commit != branch.commit);
    auto missing = resolve_git_ref(settings, url, "v9.9.9");
    CHECK_THAT(missing.error, Catch::Contains("git ref \"v9.9.9\" not found"));

    const auto env = env_of({{"HOME", scratch.path.string()}});
    ModuleFetchOptions options;
    options.cache_dir = scratch.path / "cache";
    options.online = true;
    {
        ModuleFetcher fetcher(options, env);
        auto r = fetcher.fetch("git::" + url + "?ref=v1.0.0", "");
        INFO(r.summary << ": " << r.detail);
        REQUIRE(r.ok());
        CHECK(r.fetched);
        CHECK(read_file(r.dir / "main.tf") == "variable \"one\" {}\n");
        CHECK_FALSE(fs::exists(r.dir / ".git"));
        auto sub = fetcher.fetch("git::" + url + "//sub?ref=v1.1.0", "");
        REQUIRE(sub.ok());
        CHECK(read_file(sub.dir / "main.tf") == "variable \"sub\" {}\n");
        auto head = fetcher.fetch("git::" + url + "?ref=" + branch.commit, "");
        REQUIRE(head.ok());
        CHECK(read_file(head.dir / "main.tf") == "variable \"three\" {}\n");
        auto shallow = fetcher.fetch("git::" + url + "?ref=v1.1.0&depth=1", "");
        REQUIRE(shallow.ok());
        CHECK(read_file(shallow.dir / "main.tf") == "variable \"two\" {}\n");
        auto bad = fetcher.fetch("git::" + url + "?ref=nope", "");
        CHECK(bad.status == ModuleFetchStatus::failed);
        CHECK_THAT(bad.detail, Catch::Contains("git ref \"nope\" not found"));
        // Asked again in the same run: the same answer, nothing fetched again.
        const auto downloads = fetcher.downloads();
        CHECK(fetcher.fetch("git::" + url + "?ref=v1.0.0", "").dir == r.dir);
        CHECK(fetcher.downloads() == downloads);
    }
    // Offline, with the repository gone: from the cache.
    fs::remove_all(repo);
    options.online = false;
    ModuleFetcher offline(options, env);
    auto r = offline.fetch("git::" + url + "?ref=v1.0.0", "");
    REQUIRE(r.ok());
    CHECK_FALSE(r.fetched);
    CHECK(read_file(r.dir / "main.tf") == "variable \"one\" {}\n");
    CHECK(offline.fetch("git::" + url + "?ref=v2.0.0", "").status == ModuleFetchStatus::not_cached);

    // A damaged cache entry is detected offline.
    write_file(r.dir / "main.tf", "variable \"changed\" {}\n");
    ModuleFetcher again(options, env);
    auto corrupt = again.fetch("git::" + url + "?ref=v1.0.0", "");
    CHECK(corrupt.status == ModuleFetchStatus::failed);
    CHECK(corrupt.summary == "Corrupt module cache entry");
}

TEST_CASE("git runs no hooks of the user's configuration or templates", "[git_fetcher]") {
    ScratchDir scratch;
    const fs::path repo = make_repository(scratch.path);
    const fs::path home = scratch.path / "home";
    const fs::path hooks = scratch.path / "hooks";
    const fs::path marker = scratch.path / "hook-ran";
    for (const char* hook : {"post-checkout", "post-merge", "reference-transaction"}) {
        write_file(hooks / hook, "#!/bin/sh\ntouch " + quoted(marker) + "\n");
        fs::permissions(hooks / hook, fs::perms::owner_all);
    }
    write_file(home / ".gitconfig", "[core]\n\thooksPath = " + hooks.string() +
                                        "\n[init]\n\ttemplateDir = " + (scratch.path / "template").string() + "\n");
    fs::create_directories(scratch.path / "template");
    fs::create_symlink(hooks, scratch.path / "template" / "hooks");
    // The hooks would run for a plain git clone with this configuration.
    REQUIRE(sh("HOME=" + quoted(home) + " git clone -q " + quoted(repo) + " " + quoted(scratch.path / "plain")) == 0);
    REQUIRE(fs::exists(marker));
    fs::remove(marker);

    const tfsift::testing::ScopedEnv scoped_home("HOME", home.c_str());  // git gets this process's environment
    std::string warning;
    auto settings = git_settings_from(env_of({}), warning);
    auto clone = clone_git_package(settings, "file://" + repo.string(), "v1.0.0", std::nullopt, scratch.path / "c");
    REQUIRE(clone.ok());
    CHECK_FALSE(fs::exists(marker));
}

TEST_CASE("a git server that never answers is cut off", "[git_fetcher]") {
    // A git daemon that accepts the connection and never says a word: a
    // listening socket on 127.0.0.1 nobody reads from.
    const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(server >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(server, 8) == 0);
    socklen_t len = sizeof addr;
    REQUIRE(::getsockname(server, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    const std::string url = "git://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/mod.git";

    std::string warning;
    auto settings = git_settings_from(env_of({{"TFSIFT_GIT_TIMEOUT", "2"}}), warning);
    REQUIRE(warning.empty());
    const auto start = std::chrono::steady_clock::now();
    auto ref = resolve_git_ref(settings, url, "v1.0.0");
    const auto took = std::chrono::steady_clock::now() - start;
    ::close(server);
    CHECK_THAT(ref.error, Catch::Contains("did not finish within 2 seconds"));
    CHECK(took < std::chrono::seconds(10));

    auto bad = git_settings_from(env_of({{"TFSIFT_GIT_TIMEOUT", "soon"}}), warning);
    CHECK_FALSE(warning.empty());
    CHECK(bad.timeout == std::chrono::seconds(300));
}
