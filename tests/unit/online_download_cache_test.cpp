// tfsift's download cache: where it lives, its packed filesystem-mirror
// layout, trusted lookups that drop corrupted copies, atomic stores, the
// sidecar documents, and the h1: of a verified zip under size limits.
#include <sys/stat.h>
#include <zip.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <catch2/catch.hpp>

#include "support/gpg_home.hpp"
#include "support/scoped_env.hpp"
#include "support/scratch_dir.hpp"
#include "tfsift/online/download_cache.hpp"
#include "tfsift/providers/package_sources.hpp"

namespace {

namespace fs = std::filesystem;
using tfsift::online::DownloadCache;
using tfsift::providers::Platform;
using tfsift::providers::Provider;
using tfsift::testing::read_binary_file;
using tfsift::testing::ScopedEnv;
using tfsift::testing::ScratchDir;

fs::path write(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// A zip holding the given (name, content) entries, written with libzip.
fs::path make_zip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& entries) {
    int error = 0;
    zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    REQUIRE(archive != nullptr);
    for (const auto& [name, content] : entries) {
        zip_source_t* source = zip_source_buffer(archive, content.data(), content.size(), 0);
        REQUIRE(source != nullptr);
        REQUIRE(zip_file_add(archive, name.c_str(), source, ZIP_FL_ENC_UTF_8) >= 0);
    }
    REQUIRE(zip_close(archive) == 0);
    return path;
}

Provider demo() {
    Provider provider;
    provider.hostname = "localhost:8443";
    provider.namespace_ = "example";
    provider.type = "demo";
    return provider;
}

const Platform kLinux{"linux", "amd64"};
const Platform kDarwin{"darwin", "arm64"};

// Computed with sha256sum, not by tfsift.
const std::string kZipBytes = "not really a zip\n";
const std::string kZipZh = "zh:efc9d4344ac9a8cb535ea4626c8232bf3b0caa6a5f27ef451028e9bc3444bc30";

std::size_t entries_in(const fs::path& dir) {
    std::error_code ec;
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir, ec), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("download cache: where it lives", "[online][cache]") {
    {
        const ScopedEnv dir("TFSIFT_CACHE_DIR", "/srv/cache");
        const ScopedEnv xdg("XDG_CACHE_HOME", "/home/u/.xdg");
        CHECK(tfsift::online::default_cache_dir(tfsift::providers::process_environment()) == fs::path("/srv/cache"));
    }
    {
        const ScopedEnv dir("TFSIFT_CACHE_DIR", nullptr);
        const ScopedEnv xdg("XDG_CACHE_HOME", "/home/u/.xdg");
        CHECK(tfsift::online::default_cache_dir(tfsift::providers::process_environment()) ==
              fs::path("/home/u/.xdg/tfsift/providers"));
    }
    {
        const ScopedEnv dir("TFSIFT_CACHE_DIR", "");
        const ScopedEnv xdg("XDG_CACHE_HOME", "relative/ignored");
        const ScopedEnv home("HOME", "/home/u");
        CHECK(tfsift::online::default_cache_dir(tfsift::providers::process_environment()) ==
              fs::path("/home/u/.cache/tfsift/providers"));
    }
    {
        const ScopedEnv dir("TFSIFT_CACHE_DIR", nullptr);
        const ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
        const ScopedEnv home("HOME", nullptr);
        CHECK(tfsift::online::default_cache_dir(tfsift::providers::process_environment()).empty());
    }
}

TEST_CASE("download cache: a stored package is found, and the cache is a filesystem mirror", "[online][cache]") {
    const ScratchDir dir("tfsift-cache");
    const DownloadCache cache(dir.path / "cache");
    CHECK(cache.package_path(demo(), "1.0.0", kLinux) ==
          dir.path / "cache/localhost:8443/example/demo/terraform-provider-demo_1.0.0_linux_amd64.zip");

    auto download = cache.new_download_file(demo());
    REQUIRE(download.error.empty());
    CHECK(download.path.parent_path() == dir.path / "cache/localhost:8443/example/demo/.tfsift/tmp");
    write(download.path, kZipBytes);
    const auto stored = cache.store_package(demo(), "1.0.0", kLinux, download.path);
    REQUIRE(stored.ok());
    CHECK_FALSE(fs::exists(download.path));
    CHECK(read_binary_file(cache.package_path(demo(), "1.0.0", kLinux)) == kZipBytes);

    // Every directory the cache made is private.
    for (const auto* sub : {"cache", "cache/localhost:8443", "cache/localhost:8443/example",
                            "cache/localhost:8443/example/demo", "cache/localhost:8443/example/demo/.tfsift"}) {
        struct stat st {};
        REQUIRE(::stat((dir.path / sub).c_str(), &st) == 0);
        INFO(sub);
        CHECK((st.st_mode & 0777) == 0700);
    }

    const std::vector<std::string> trusted{"h1:ignored", kZipZh};
    const auto found = cache.find_package(demo(), "1.0.0", kLinux, trusted);
    REQUIRE(found.zip);
    CHECK(*found.zip == cache.package_path(demo(), "1.0.0", kLinux));
    CHECK(found.zh == kZipZh);
    CHECK(found.dropped.empty());
    CHECK_FALSE(cache.find_package(demo(), "1.0.0", kDarwin, trusted).zip);
    CHECK_FALSE(cache.find_package(demo(), "1.0.1", kLinux, trusted).zip);

    // The filesystem-mirror scan sees the zip and nothing from the sidecar.
    const auto mirror = tfsift::providers::scan_filesystem_mirror(cache.root(), tfsift::Engine::terraform);
    REQUIRE(mirror.size() == 1);
    CHECK(mirror[0].provider.to_string() == "localhost:8443/example/demo");
    CHECK(mirror[0].version.to_string() == "1.0.0");
    CHECK(mirror[0].platform.to_string() == "linux_amd64");
    CHECK(mirror[0].path == cache.package_path(demo(), "1.0.0", kLinux));
}

TEST_CASE("download cache: a copy matching no trusted hash is dropped", "[online][cache]") {
    const ScratchDir dir("tfsift-cache");
    const DownloadCache cache(dir.path);
    const auto path = cache.package_path(demo(), "1.0.0", kLinux);
    fs::create_directories(path.parent_path());

    SECTION("corrupted bytes") {
        write(path, "not really a zip, truncat");
        const auto found = cache.find_package(demo(), "1.0.0", kLinux, std::vector<std::string>{kZipZh});
        CHECK_FALSE(found.zip);
        CHECK_THAT(found.dropped, Catch::Contains(path.string()) && Catch::Contains("matches no trusted checksum") &&
                                      Catch::Contains("removed it to download it again"));
        CHECK_FALSE(fs::exists(path));
    }
    SECTION("no trusted hash at all") {
        write(path, kZipBytes);
        const auto found = cache.find_package(demo(), "1.0.0", kLinux, std::vector<std::string>{});
        CHECK_FALSE(found.zip);
        CHECK_FALSE(found.dropped.empty());
    }
    SECTION("a symlink planted in the cache") {
        const auto outside = write(dir.path / "outside.zip", kZipBytes);
        fs::create_symlink(outside, path);
        const auto found = cache.find_package(demo(), "1.0.0", kLinux, std::vector<std::string>{kZipZh});
        CHECK_FALSE(found.zip);
        CHECK_THAT(found.dropped, Catch::Contains("not a regular file"));
        CHECK_FALSE(fs::is_symlink(path));
        CHECK(fs::exists(outside));
    }
}

TEST_CASE("download cache: sidecar documents and remembered h1 hashes", "[online][cache]") {
    const ScratchDir dir("tfsift-cache");
    const DownloadCache cache(dir.path);
    REQUIRE(cache.store_document(demo(), "1.0.0", "SHA256SUMS", "abc  x.zip\n").ok());
    CHECK(cache.load_document(demo(), "1.0.0", "SHA256SUMS") == std::optional<std::string>("abc  x.zip\n"));
    CHECK(fs::exists(dir.path / "localhost:8443/example/demo/.tfsift/1.0.0/SHA256SUMS"));
    CHECK_FALSE(cache.load_document(demo(), "1.0.0", "SHA256SUMS.sig"));
    CHECK_FALSE(cache.store_document(demo(), "1.0.0", "../escape", "x").ok());
    CHECK_FALSE(cache.store_document(demo(), "..", "SHA256SUMS", "x").ok());

    const std::string h1 = "h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse0=";
    REQUIRE(cache.remember_h1(demo(), "1.0.0", kZipZh, h1).ok());
    CHECK(cache.recall_h1(demo(), "1.0.0", kZipZh) == std::optional<std::string>(h1));
    CHECK_FALSE(cache.recall_h1(demo(), "1.0.1", kZipZh));
    CHECK_FALSE(cache.remember_h1(demo(), "1.0.0", "zh:short", h1).ok());
    CHECK_FALSE(cache.remember_h1(demo(), "1.0.0", kZipZh, "h1:not-a-hash").ok());

    Provider hostile = demo();
    hostile.type = "../../etc";
    CHECK(cache.package_path(hostile, "1.0.0", kLinux).empty());
    CHECK_FALSE(cache.store_document(hostile, "1.0.0", "SHA256SUMS", "x").ok());
}

TEST_CASE("download cache: the h1 of a verified zip", "[online][cache]") {
    const ScratchDir dir("tfsift-cache");
    const auto scratch = dir.path / "scratch";
    fs::create_directories(scratch);

    SECTION("the hash Terraform records (spec 4.3's worked example)") {
        const auto zip = make_zip(dir.path / "p.zip", {{"terraform-provider-example_v1.0.0", "hello\n"}});
        const auto result = tfsift::online::h1_of_verified_zip(zip, tfsift::online::kDefaultMaxPackageSize, scratch);
        INFO(result.error);
        CHECK(result.h1 == "h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse0=");
        CHECK(entries_in(scratch) == 0);
    }
    SECTION("zip-slip is refused and nothing is left behind") {
        const auto zip = make_zip(dir.path / "p.zip", {{"../../evil.sh", "#!/bin/sh\n"}});
        const auto result = tfsift::online::h1_of_verified_zip(zip, tfsift::online::kDefaultMaxPackageSize, scratch);
        CHECK(result.error == "entry contains '..': ../../evil.sh");
        CHECK(entries_in(scratch) == 0);
        CHECK_FALSE(fs::exists(dir.path / "evil.sh"));
    }
    SECTION("more than the size limit, counted in bytes actually inflated") {
        const auto zip = make_zip(dir.path / "p.zip", {{"bomb", std::string(std::size_t{2} << 20, '\0')}});
        REQUIRE(fs::file_size(zip) < 100000);  // compresses well
        const auto result = tfsift::online::h1_of_verified_zip(zip, std::uint64_t{1} << 20, scratch);
        CHECK_THAT(result.error, Catch::Contains("beyond the size limit"));
        CHECK(entries_in(scratch) == 0);
        // The same zip is fine under the default limit.
        CHECK(tfsift::online::h1_of_verified_zip(zip, tfsift::online::kDefaultMaxPackageSize, scratch).ok());
    }
    SECTION("an empty archive") {
        const auto zip = write(dir.path / "empty.zip", std::string("PK\x05\x06", 4) + std::string(18, '\0'));
        const auto result = tfsift::online::h1_of_verified_zip(zip, tfsift::online::kDefaultMaxPackageSize, scratch);
        CHECK_THAT(result.error, Catch::StartsWith("empty archive"));
        CHECK(entries_in(scratch) == 0);
    }
}

TEST_CASE("download cache: what interrupted runs left is removed once it is stale", "[online][cache]") {
    const ScratchDir dir("tfsift-cache");
    const DownloadCache cache(dir.path);
    const auto old_download = cache.new_download_file(demo());
    REQUIRE(old_download.error.empty());
    const auto tmp = cache.temporary_dir(demo());
    REQUIRE(tmp == old_download.path.parent_path());
    const auto old_unpack = tmp / "tfsift-unpack-abc123";
    fs::create_directories(old_unpack / "sub");
    write(old_unpack / "sub" / "file", "x");
    const auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
    fs::last_write_time(old_download.path, an_hour_ago);
    fs::last_write_time(old_unpack, an_hour_ago);
    const auto fresh = cache.new_download_file(demo());
    REQUIRE(fresh.error.empty());
    // A zip in the cache proper is never touched.
    REQUIRE(cache.store_package(demo(), "1.0.0", kLinux, write(cache.new_download_file(demo()).path, kZipBytes)).ok());
    fs::last_write_time(cache.package_path(demo(), "1.0.0", kLinux), an_hour_ago);

    CHECK(cache.remove_stale_temporaries(std::chrono::minutes(10)) == 2);
    CHECK_FALSE(fs::exists(old_download.path));
    CHECK_FALSE(fs::exists(old_unpack));
    CHECK(fs::exists(fresh.path));
    CHECK(fs::exists(cache.package_path(demo(), "1.0.0", kLinux)));
    CHECK(cache.remove_stale_temporaries(std::chrono::minutes(10)) == 0);
}

TEST_CASE("download cache: a network mirror's h1 vouches for a cached zip", "[online][cache]") {
    const ScratchDir dir("tfsift-cache");
    const DownloadCache cache(dir.path / "cache");
    // The zip of spec 4.3's worked example, whose h1 is known independently.
    const std::string h1 = "h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse0=";
    const auto zip = make_zip(dir.path / "p.zip", {{"terraform-provider-example_v1.0.0", "hello\n"}});
    REQUIRE(cache.store_package(demo(), "1.0.0", kLinux, zip).ok());
    const auto path = cache.package_path(demo(), "1.0.0", kLinux);

    const auto found = cache.find_package(demo(), "1.0.0", kLinux, std::vector<std::string>{"h1:other=", h1});
    REQUIRE(found.zip);
    CHECK(*found.zip == path);
    CHECK(found.zh.starts_with("zh:"));
    CHECK(found.dropped.empty());

    // An h1 the zip's contents do not have is no reason to keep it.
    const auto refused = cache.find_package(
        demo(), "1.0.0", kLinux, std::vector<std::string>{"h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse1="});
    CHECK_FALSE(refused.zip);
    CHECK_THAT(refused.dropped, Catch::Contains("matches no trusted checksum"));
    CHECK_FALSE(fs::exists(path));
}
