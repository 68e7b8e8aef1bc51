// Remote module sources taken apart for fetching.
#include <catch2/catch.hpp>

#include "tfsift/config/module_package.hpp"

using namespace tfsift::config;

TEST_CASE("registry addresses with and without host, with a subdirectory", "[module_package]") {
    auto p = classify_module_package("terraform-aws-modules/vpc/aws", true);
    REQUIRE(p.kind == ModulePackageKind::registry);
    CHECK(p.host == "registry.terraform.io");
    CHECK(p.namespace_ == "terraform-aws-modules");
    CHECK(p.name == "vpc");
    CHECK(p.system == "aws");
    CHECK(p.package == "registry.terraform.io/terraform-aws-modules/vpc/aws");
    CHECK(p.subdir.empty());

    p = classify_module_package("127.0.0.1:8443/example/net/aws//modules/sub", true);
    REQUIRE(p.kind == ModulePackageKind::registry);
    CHECK(p.host == "127.0.0.1:8443");
    CHECK(p.package == "127.0.0.1:8443/example/net/aws");
    CHECK(p.subdir == "modules/sub");
    CHECK(p.display_host() == "127.0.0.1:8443");

    // A version argument allows only registry addresses.
    CHECK(classify_module_package("git::https://example.com/x.git", true).kind == ModulePackageKind::invalid);
}

TEST_CASE("git sources: forced, shorthands, scp-like, ref and depth", "[module_package]") {
    auto p = classify_module_package("git::https://example.com/net.git//modules/vpc?ref=v1.2.0&depth=1", false);
    REQUIRE(p.kind == ModulePackageKind::git);
    CHECK(p.url == "https://example.com/net.git");
    CHECK(p.ref == "v1.2.0");
    REQUIRE(p.depth);
    CHECK(*p.depth == 1);
    CHECK(p.subdir == "modules/vpc");
    CHECK(p.display_host() == "example.com");

    p = classify_module_package("github.com/hashicorp/example?ref=main", false);
    REQUIRE(p.kind == ModulePackageKind::git);
    CHECK(p.url == "https://github.com/hashicorp/example.git");
    CHECK(p.ref == "main");

    p = classify_module_package("git@github.com:hashicorp/example.git//sub?ref=abc1234", false);
    REQUIRE(p.kind == ModulePackageKind::git);
    CHECK(p.url == "ssh://git@github.com/hashicorp/example.git");
    CHECK(p.ref == "abc1234");
    CHECK(p.subdir == "sub");
    CHECK(p.display_host() == "github.com");

    p = classify_module_package("git::file:///srv/repos/mod.git?ref=v2", false);
    REQUIRE(p.kind == ModulePackageKind::git);
    CHECK(p.url == "file:///srv/repos/mod.git");

    p = classify_module_package("git::ssh://git@example.com/x.git", false);
    REQUIRE(p.kind == ModulePackageKind::git);
    CHECK(p.ref.empty());
    CHECK_FALSE(p.depth);
}

TEST_CASE("git sources that are refused", "[module_package]") {
    CHECK(classify_module_package("git::ext::sh -c touch% /tmp/pwned", false).kind != ModulePackageKind::git);
    CHECK(classify_module_package("git::https://example.com/x.git?ref=--upload-pack=evil", false).kind ==
          ModulePackageKind::invalid);
    CHECK(classify_module_package("git::https://example.com/x.git?depth=zero", false).kind ==
          ModulePackageKind::invalid);
    auto p = classify_module_package("git::https://example.com/x.git?sshkey=AAAA", false);
    CHECK(p.kind == ModulePackageKind::unsupported);
    CHECK_THAT(p.reason, Catch::Contains("SSH agent"));
}

TEST_CASE("https archives by extension or archive=, other URLs as pages", "[module_package]") {
    auto p = classify_module_package("https://example.com/mods/net-1.0.zip", false);
    REQUIRE(p.kind == ModulePackageKind::http_archive);
    CHECK(p.archive == ArchiveFormat::zip);
    CHECK(p.url == "https://example.com/mods/net-1.0.zip");

    CHECK(classify_module_package("https://example.com/a.tar.gz", false).archive == ArchiveFormat::tar_gz);
    CHECK(classify_module_package("https://example.com/a.tgz", false).archive == ArchiveFormat::tar_gz);
    CHECK(classify_module_package("https://example.com/a.tar.bz2", false).archive == ArchiveFormat::tar_bz2);
    CHECK(classify_module_package("https://example.com/a.txz", false).archive == ArchiveFormat::tar_xz);

    p = classify_module_package("https://example.com/get?id=7&archive=tar.xz//inner", false);
    REQUIRE(p.kind == ModulePackageKind::http_archive);
    CHECK(p.archive == ArchiveFormat::tar_xz);
    CHECK(p.url == "https://example.com/get?id=7");
    CHECK(p.subdir == "inner");

    p = classify_module_package("https://example.com/modules/net", false);
    CHECK(p.kind == ModulePackageKind::http_page);
    CHECK(classify_module_package("https://example.com/x.zip?archive=false", false).kind ==
          ModulePackageKind::http_page);
    CHECK(classify_module_package("https://example.com/x.gz", false).kind == ModulePackageKind::unsupported);
    CHECK(classify_module_package("http://example.com/x.zip", false).kind == ModulePackageKind::unsupported);
}

TEST_CASE("sources tfsift does not fetch say why", "[module_package]") {
    for (const char* source : {"s3::https://s3.amazonaws.com/bucket/x.zip", "bucket.s3.amazonaws.com/x.zip",
                               "gcs::https://www.googleapis.com/storage/v1/b/x.zip", "hg::https://example.com/repo",
                               "bitbucket.org/team/repo", "oci://registry.example.com/org/mod"}) {
        INFO(source);
        auto p = classify_module_package(source, false);
        CHECK(p.kind == ModulePackageKind::unsupported);
        CHECK_FALSE(p.reason.empty());
    }
}

TEST_CASE("a registry may only hand out direct package addresses", "[module_package]") {
    CHECK(classify_package_location("example/net/aws").kind == ModulePackageKind::invalid);
    CHECK(classify_package_location("./local").kind == ModulePackageKind::invalid);
    auto p = classify_package_location("git::https://example.com/net.git//modules/a?ref=v1.0.0");
    REQUIRE(p.kind == ModulePackageKind::git);
    CHECK(p.subdir == "modules/a");
    CHECK(classify_package_location("https://example.com/net.tar.gz").kind == ModulePackageKind::http_archive);
}
