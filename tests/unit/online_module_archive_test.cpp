// Module package archives: formats, and hostile archives refused.
#include <catch2/catch.hpp>

#include <archive.h>
#include <archive_entry.h>

#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "tfsift/online/module_archive.hpp"

namespace fs = std::filesystem;
using tfsift::online::ModuleArchiveLimits;
using tfsift::online::unpack_module_archive;
using tfsift::testing::ScratchDir;

namespace {

struct Entry {
    std::string name;
    std::string content;  // file content, or the link target for links
    enum Kind { file, dir, symlink, hardlink } kind = file;
};

enum class Format { zip, tar_gz, tar_bz2, tar_xz };

void write_archive(const fs::path& path, Format format, const std::vector<Entry>& entries) {
    archive* a = archive_write_new();
    if (format == Format::zip) {
        archive_write_set_format_zip(a);
    } else {
        archive_write_set_format_pax_restricted(a);
        if (format == Format::tar_gz) archive_write_add_filter_gzip(a);
        if (format == Format::tar_bz2) archive_write_add_filter_bzip2(a);
        if (format == Format::tar_xz) archive_write_add_filter_xz(a);
    }
    REQUIRE(archive_write_open_filename(a, path.c_str()) == ARCHIVE_OK);
    for (const auto& e : entries) {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, e.name.c_str());
        switch (e.kind) {
            case Entry::file:
                archive_entry_set_filetype(entry, AE_IFREG);
                archive_entry_set_perm(entry, 0644);
                archive_entry_set_size(entry, static_cast<la_int64_t>(e.content.size()));
                break;
            case Entry::dir: archive_entry_set_filetype(entry, AE_IFDIR); archive_entry_set_perm(entry, 0755); break;
            case Entry::symlink:
                archive_entry_set_filetype(entry, AE_IFLNK);
                archive_entry_set_perm(entry, 0777);
                archive_entry_set_symlink(entry, e.content.c_str());
                break;
            case Entry::hardlink:
                archive_entry_set_filetype(entry, AE_IFREG);
                archive_entry_set_hardlink(entry, e.content.c_str());
                break;
        }
        archive_write_header(a, entry);
        if (e.kind == Entry::file && !e.content.empty()) archive_write_data(a, e.content.data(), e.content.size());
        archive_entry_free(entry);
    }
    archive_write_close(a);
    archive_write_free(a);
}

}  // namespace

TEST_CASE("every module archive format unpacks", "[module_archive]") {
    for (auto format : {Format::zip, Format::tar_gz, Format::tar_bz2, Format::tar_xz}) {
        ScratchDir scratch;
        write_archive(scratch.path / "a", format,
                      {{"main.tf", "variable \"x\" {}\n"},
                       {"modules/", "", Entry::dir},
                       {"modules/sub/main.tf", "output \"y\" { value = 1 }\n"},
                       {"link.tf", "main.tf", Entry::symlink}});
        auto r = unpack_module_archive(scratch.path / "a", scratch.path / "out");
        INFO(static_cast<int>(format) << ": " << r.error);
        REQUIRE(r.ok());
        CHECK(tfsift::testing::read_file(scratch.path / "out" / "modules/sub/main.tf") ==
              "output \"y\" { value = 1 }\n");
        CHECK(fs::is_symlink(scratch.path / "out" / "link.tf"));
    }
}

TEST_CASE("hostile module archives are refused", "[module_archive]") {
    struct Case {
        const char* what;
        std::vector<Entry> entries;
        const char* message;
    };
    const std::vector<Case> cases{
        {"traversal", {{"main.tf", "x"}, {"../../evil.tf", "pwned"}}, "entry contains '..'"},
        {"absolute symlink", {{"escape", "/etc/passwd", Entry::symlink}}, "points outside the package"},
        {"relative symlink out", {{"a/escape", "../../secret", Entry::symlink}}, "points outside the package"},
        {"link through a link",
         {{"a/", "", Entry::dir}, {"a/b", "..", Entry::symlink}, {"c", "a/b/..", Entry::symlink}},
         "through another link"},
        {"hard link", {{"main.tf", "x"}, {"copy.tf", "main.tf", Entry::hardlink}}, "hard link"},
    };
    for (const auto& c : cases) {
        for (auto format : {Format::zip, Format::tar_gz}) {
            if (format == Format::zip && std::string(c.what) == "hard link") continue;  // zip has none
            ScratchDir scratch;
            write_archive(scratch.path / "a", format, c.entries);
            auto r = unpack_module_archive(scratch.path / "a", scratch.path / "pkg" / "out");
            INFO(c.what << " " << static_cast<int>(format));
            CHECK_THAT(r.error, Catch::Contains(c.message));
            CHECK_FALSE(fs::exists(scratch.path / "evil.tf"));
            CHECK_FALSE(fs::exists(scratch.path / "pkg" / "evil.tf"));
        }
    }
}

TEST_CASE("bombs and oversized archives stop at the caps", "[module_archive]") {
    ScratchDir scratch;
    write_archive(scratch.path / "bomb.tar.gz", Format::tar_gz, {{"zeros", std::string(8 << 20, '\0')}});
    CHECK(fs::file_size(scratch.path / "bomb.tar.gz") < 100000);
    ModuleArchiveLimits limits;
    limits.max_total_bytes = 1 << 20;
    auto r = unpack_module_archive(scratch.path / "bomb.tar.gz", scratch.path / "out", limits);
    CHECK_THAT(r.error, Catch::Contains("decompression bomb"));
    CHECK(r.bytes <= (1 << 20) + (64 << 10));

    std::vector<Entry> many;
    for (int i = 0; i < 50; ++i) many.push_back({"f" + std::to_string(i), "x"});
    write_archive(scratch.path / "many.zip", Format::zip, many);
    limits = {};
    limits.max_entries = 10;
    r = unpack_module_archive(scratch.path / "many.zip", scratch.path / "out2", limits);
    CHECK_THAT(r.error, Catch::Contains("more than 10 entries"));

    write_archive(scratch.path / "empty.tar.gz", Format::tar_gz, {});
    CHECK(unpack_module_archive(scratch.path / "empty.tar.gz", scratch.path / "out3").error == "empty archive");

    tfsift::testing::write_file(scratch.path / "junk.zip", "this is not an archive at all");
    CHECK_FALSE(unpack_module_archive(scratch.path / "junk.zip", scratch.path / "out4").ok());
}
