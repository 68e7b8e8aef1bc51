// Directories git ignores, as `lint --recursive` leaves them out: the
// patterns of one .gitignore, and the verdict over a repository's files.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "tfsift/lint/gitignore.hpp"
#include "tfsift/lint/module_discovery.hpp"

using namespace tfsift;
using namespace tfsift::lint;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

TEST_CASE("gitignore patterns: anchoring, negation, directories", "[lint][gitignore]") {
    const GitignoreFile f("# build output\nbuild/\n/vendor\n**/generated\ncache*\n!cache-keep\n");
    CHECK(f.verdict("build") == 1);
    CHECK(f.verdict("deep/build") == 1);  // unanchored: at any depth
    CHECK(f.verdict("vendor") == 1);
    CHECK(f.verdict("deep/vendor") == 0);  // anchored to the file's directory
    CHECK(f.verdict("a/b/generated") == 1);
    CHECK(f.verdict("cache-old") == 1);
    CHECK(f.verdict("cache-keep") == -1);  // the later `!` pattern re-includes it
    CHECK(f.verdict("src") == 0);
}

TEST_CASE("gitignored module directories, with and without the scan's listings", "[lint][gitignore]") {
    ScratchDir s("tfsift-gitignore");
    const std::string root = s.path.string();
    write_file(s.path / ".git/HEAD", "");
    write_file(s.path / ".gitignore", "out/\n");
    write_file(s.path / "main.tf", "");
    write_file(s.path / "out/main.tf", "");
    write_file(s.path / "mods/a/main.tf", "");
    write_file(s.path / "mods/b/main.tf", "");
    write_file(s.path / "mods/.gitignore", "b\n");
    std::vector<std::string> problems;
    ScanListings listings;
    const auto dirs = find_module_dirs(root, Settings{}, problems, &listings);
    REQUIRE(dirs.size() == 4);
    const std::vector<std::string> kept{root, root + "/mods/a"};
    CHECK(drop_gitignored(dirs, root) == kept);
    CHECK(drop_gitignored(dirs, root, &listings) == kept);
    // A directory the scan listed without a .gitignore has none for this
    // scan: files do not change within one. A new scan reads the new file.
    write_file(s.path / "mods/a/.gitignore", "sub/\n");
    write_file(s.path / "mods/a/sub/main.tf", "");
    GitignoreFilter same_scan(root, &listings);
    CHECK(same_scan.ignored(root + "/mods/b"));
    CHECK_FALSE(same_scan.ignored(root + "/mods/a/sub"));
    GitignoreFilter next_scan(root);
    CHECK(next_scan.ignored(root + "/mods/a/sub"));
    CHECK_FALSE(next_scan.ignored(root + "/mods/a"));
}
