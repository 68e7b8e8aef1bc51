// One readdir pass names each entry of a directory and its kind, as
// std::filesystem would tell it, following links for the kind.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "tfsift/directory_listing.hpp"

namespace fs = std::filesystem;
using namespace tfsift;
using tfsift::testing::ScratchDir;

namespace {

std::map<std::string, DirectoryEntry> by_name(const std::vector<DirectoryEntry>& entries) {
    std::map<std::string, DirectoryEntry> out;
    for (const auto& e : entries) out.emplace(e.name, e);
    return out;
}

}  // namespace

TEST_CASE("every entry is listed once with its kind, links followed for the kind", "[directory-listing]") {
    const ScratchDir s("tfsift-listing");
    fs::create_directories(s.path / "sub");
    std::ofstream(s.path / "main.tf") << "x = 1\n";
    std::ofstream(s.path / ".hidden.tf") << "";
    fs::create_directory_symlink(s.path / "sub", s.path / "link-dir");
    fs::create_symlink(s.path / "main.tf", s.path / "link-file");
    fs::create_symlink(s.path / "missing", s.path / "dangling");
    REQUIRE(::mkfifo((s.path / "pipe").c_str(), 0600) == 0);

    std::vector<DirectoryEntry> entries;
    REQUIRE(list_directory_entries(s.path.string(), entries));
    const auto got = by_name(entries);
    REQUIRE(entries.size() == 7);  // no "." or ".."
    REQUIRE(got.size() == 7);

    CHECK(got.at("sub").directory);
    CHECK_FALSE(got.at("sub").symlink);
    CHECK(got.at("main.tf").regular_file);
    CHECK_FALSE(got.at("main.tf").directory);
    CHECK(got.at(".hidden.tf").regular_file);
    CHECK(got.at("link-dir").symlink);
    CHECK(got.at("link-dir").directory);
    CHECK(got.at("link-file").symlink);
    CHECK(got.at("link-file").regular_file);
    CHECK(got.at("dangling").symlink);
    CHECK_FALSE(got.at("dangling").directory);
    CHECK_FALSE(got.at("dangling").regular_file);
    CHECK_FALSE(got.at("pipe").regular_file);
    CHECK_FALSE(got.at("pipe").directory);

    // The same kinds std::filesystem reports.
    for (const auto& [name, e] : got) {
        std::error_code ec;
        CHECK(e.directory == fs::is_directory(s.path / name, ec));
        CHECK(e.regular_file == fs::is_regular_file(s.path / name, ec));
        CHECK(e.symlink == fs::is_symlink(s.path / name, ec));
    }
}

TEST_CASE("a path that is no directory cannot be listed", "[directory-listing]") {
    const ScratchDir s("tfsift-listing");
    std::ofstream(s.path / "file") << "";
    std::vector<DirectoryEntry> entries{DirectoryEntry{"stale"}};
    CHECK_FALSE(list_directory_entries((s.path / "file").string(), entries));
    CHECK(entries.empty());
    CHECK_FALSE(list_directory_entries((s.path / "missing").string(), entries));
    CHECK(list_directory_entries((s.path).string(), entries));
    CHECK(entries.size() == 1);
}
