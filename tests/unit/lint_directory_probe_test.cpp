// A directory probe answers as the free functions do, and remembers each
// directory's answer for as long as it lives.
#include <catch2/catch.hpp>

#include <filesystem>

#include "../support/scratch_dir.hpp"
#include "tfsift/lint/directory_probe.hpp"
#include "tfsift/lint/module_discovery.hpp"
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

TEST_CASE("directory probe: settings files and repository roots", "[lint][probe]") {
    ScratchDir s("tfsift-probe");
    write_file(s.path / "repo/.git/HEAD", "");
    write_file(s.path / "repo/.tfsift.toml", "");
    write_file(s.path / "repo/modules/a/main.tf", "");
    write_file(s.path / "repo/modules/b/.tfsift.toml", "engine = \"opentofu\"\n");
    write_file(s.path / "repo/modules/b/c/main.tf", "");
    write_file(s.path / "mono/.tfsift.toml", "root = true\n");
    write_file(s.path / "mono/team/svc/main.tf", "");
    write_file(s.path / "loose/x/main.tf", "");
    // The settings file of a directory outside any repository lies above it.
    write_file(s.path / "outside/.tfsift.toml", "");
    write_file(s.path / "outside/repo/.git/HEAD", "");
    write_file(s.path / "outside/repo/modules/a/main.tf", "");

    DirectoryProbe probe;
    for (const char* rel :
         {"repo/modules/a", "repo/modules/a/main.tf", "repo/modules/b/c", "repo/modules/b", "repo", "mono/team/svc",
          "loose/x", "loose/x/main.tf", "outside/repo/modules/a", "outside/repo/modules/a/main.tf"}) {
        const std::string start = (s.path / rel).string();
        INFO(rel);
        // Asked twice: the second answer comes from what the probe remembers.
        for (int round = 0; round < 2; ++round) {
            CHECK(probe.settings_file(start) == find_settings_file(start));
            CHECK(probe.marked_repository_root(start) == find_marked_repository_root(start));
            CHECK(probe.repository_root(start) == find_repository_root(start));
            CHECK(probe.repository_root(start, s.path.string()) == find_repository_root(start, s.path.string()));
        }
    }
    CHECK(probe.settings_file((s.path / "repo/modules/a").string()) == abs(s.path / "repo/.tfsift.toml"));
    CHECK(probe.settings_file((s.path / "repo/modules/b/c").string()) == abs(s.path / "repo/modules/b/.tfsift.toml"));
    // The search stops at the repository root.
    CHECK(probe.settings_file((s.path / "outside/repo/modules/a").string()).empty());
    CHECK(probe.repository_root((s.path / "mono/team/svc").string()) == abs(s.path / "mono"));
    CHECK(probe.repository_root((s.path / "loose/x/main.tf").string()) == abs(s.path / "loose/x"));
    CHECK_FALSE(probe.marked_repository_root((s.path / "loose/x").string()));
}

TEST_CASE("directory probe: answers last as long as the probe", "[lint][probe]") {
    ScratchDir s("tfsift-probe");
    write_file(s.path / "top/.git/HEAD", "");
    write_file(s.path / "top/mid/low/main.tf", "");
    const std::string low = (s.path / "top/mid/low").string();
    DirectoryProbe probe;
    CHECK(probe.repository_root(low) == abs(s.path / "top"));
    CHECK(probe.settings_file(low).empty());
    // A repository and a settings file appear below the one seen: this
    // probe keeps its answers, a new one (a new run) sees the change.
    write_file(s.path / "top/mid/.git/HEAD", "");
    write_file(s.path / "top/mid/low/.tfsift.toml", "");
    CHECK(probe.repository_root(low) == abs(s.path / "top"));
    CHECK(probe.settings_file(low).empty());
    DirectoryProbe fresh;
    CHECK(fresh.repository_root(low) == abs(s.path / "top/mid"));
    CHECK(fresh.settings_file(low) == abs(s.path / "top/mid/low/.tfsift.toml"));
}

TEST_CASE("module directories: symlinks, hidden names, paths as named", "[lint][discovery]") {
    ScratchDir s("tfsift-discovery");
    const fs::path r = s.path / "root";
    write_file(r / "a/main.tf", "");
    write_file(r / "a/b/vars.tf.json", "{}");
    write_file(r / "only-readme/README.md", "");
    write_file(r / ".hidden/main.tf", "");
    write_file(r / "elsewhere/real.tf", "");
    // A link to a directory is not descended into; a link to a file counts.
    fs::create_directory_symlink(r / "a", r / "link-to-a");
    fs::create_directories(r / "linked-file");
    fs::create_symlink(r / "elsewhere/real.tf", r / "linked-file/main.tf");
    fs::create_directories(r / "dangling");
    fs::create_symlink(r / "missing.tf", r / "dangling/main.tf");
    Settings none;
    std::vector<std::string> problems;
    // Named with a trailing slash, the paths keep the name as given.
    const std::string root = r.string() + "/";
    const auto dirs = find_module_dirs(root, none, problems);
    CHECK(problems.empty());
    CHECK(dirs == std::vector<std::string>{root + "a", root + "a/b", root + "elsewhere", root + "linked-file"});
    CHECK(detect_engine(root + "a") == Engine::terraform);
}

TEST_CASE("module directories: a root that cannot be listed is named", "[lint][discovery]") {
    ScratchDir s("tfsift-discovery");
    write_file(s.path / "file.tf", "");
    std::vector<std::string> problems;
    const std::string root = (s.path / "file.tf").string();
    CHECK(find_module_dirs(root, Settings{}, problems).empty());
    CHECK(problems == std::vector<std::string>{root + ": cannot read the directory: Not a directory"});
    problems.clear();
    CHECK(find_module_dirs((s.path / "missing").string(), Settings{}, problems).empty());
    CHECK(problems == std::vector<std::string>{(s.path / "missing").string() +
                                               ": cannot read the directory: No such file or directory"});
}

TEST_CASE("directory probe: the run's listings answer for the directories they hold", "[lint][probe]") {
    ScratchDir s("tfsift-probe");
    write_file(s.path / "repo/.git/HEAD", "");
    write_file(s.path / "repo/.tfsift.toml", "");
    write_file(s.path / "repo/modules/a/main.tf", "");
    write_file(s.path / "mono/.tfsift.toml", "root = true\n");
    write_file(s.path / "mono/svc/main.tf", "");
    // A `.git` link that leads nowhere does not make a repository.
    write_file(s.path / "linked/svc/main.tf", "");
    fs::create_directory_symlink(s.path / "missing", s.path / "linked/.git");
    ScanListings listings;
    std::vector<std::string> problems;
    for (const char* top : {"repo", "mono", "linked"}) {
        (void)find_module_dirs((s.path / top).string(), Settings{}, problems, &listings);
    }
    REQUIRE(problems.empty());
    DirectoryProbe probe;
    probe.use_listings(&listings);
    for (const char* rel : {"repo/modules/a", "repo/modules/a/main.tf", "repo", "mono/svc", "linked/svc"}) {
        const std::string start = (s.path / rel).string();
        INFO(rel);
        CHECK(probe.settings_file(start) == find_settings_file(start));
        CHECK(probe.marked_repository_root(start) == find_marked_repository_root(start));
        CHECK(probe.repository_root(start) == find_repository_root(start));
    }
    // What was listed is taken as it was: files do not change within a run.
    write_file(s.path / "repo/modules/a/.tfsift.toml", "");
    write_file(s.path / "mono/svc/.git/HEAD", "");
    DirectoryProbe later;
    later.use_listings(&listings);
    CHECK(later.settings_file((s.path / "repo/modules/a").string()) == abs(s.path / "repo/.tfsift.toml"));
    CHECK(later.repository_root((s.path / "mono/svc").string()) == abs(s.path / "mono"));
    // Without the listings, the file system is asked.
    DirectoryProbe fresh;
    CHECK(fresh.settings_file((s.path / "repo/modules/a").string()) == abs(s.path / "repo/modules/a/.tfsift.toml"));
    CHECK(fresh.repository_root((s.path / "mono/svc").string()) == abs(s.path / "mono/svc"));
}
