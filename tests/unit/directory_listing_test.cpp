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

TEST_CASE("a listed directory's real path is found from the listings, \"..\" only where they show it",
          "[directory-listing]") {
    const ScratchDir s("tfsift-listing-real");
    // The real tree: top/{a/b, c}, with top/link a link to top/a; the scan
    // names top through a link of its own (named -> top).
    const fs::path top = fs::canonical(s.path) / "top";
    fs::create_directories(top / "a" / "b");
    fs::create_directories(top / "c");
    fs::create_directory_symlink(top / "a", top / "link");
    const fs::path named = fs::canonical(s.path) / "named";
    fs::create_directory_symlink(top, named);

    // What a walk from `named` records: each directory it lists, by the name
    // it reached it by and by its real path; links are not followed.
    ScanListings listings;
    for (const fs::path& below : {fs::path(), fs::path("a"), fs::path("a/b"), fs::path("c")}) {
        std::vector<DirectoryEntry> entries;
        REQUIRE(list_directory_entries((top / below).string(), entries));
        const std::string by_name = below.empty() ? named.string() : (named / below).string();
        const std::string real = below.empty() ? top.string() : (top / below).string();
        listings.add(by_name, real, std::move(entries));
    }

    CHECK(listings.real_path_of((named / "a/b").string()) == (top / "a/b").string());
    CHECK(listings.real_path_of((top / "a/b").string()) == (top / "a/b").string());
    CHECK(listings.real_path_of(named.string() + "/a/b/../../c") == (top / "c").string());
    CHECK(listings.real_path_of(named.string() + "/./a//b/..") == (top / "a").string());
    // Up from the top: its parent was not listed, so the step is not taken.
    CHECK_FALSE(listings.real_path_of(named.string() + "/..").has_value());
    // Through a link: never listed, so nothing is known below or above it.
    CHECK_FALSE(listings.real_path_of(named.string() + "/link/b").has_value());
    CHECK_FALSE(listings.real_path_of(named.string() + "/link/../c").has_value());
    // Not listed, relative, or empty: the caller asks the file system.
    CHECK_FALSE(listings.real_path_of((named / "missing").string()).has_value());
    CHECK_FALSE(listings.real_path_of("named/a").has_value());
    CHECK_FALSE(listings.real_path_of("").has_value());
}
