// Package hashes against Terraform's own results:
// ../shared/conformance/providers/hashes.json (zips and directory trees) and
// ../shared/tools/oracle/expected/h1/hashes.json (the Go dirhash oracle).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "support/reference_data.hpp"
#include "support/scratch_dir.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "tfsift/providers/hash.hpp"

using namespace tfsift::providers;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using tfsift::testing::build_tree;
using tfsift::testing::read_json;
using tfsift::testing::ScratchDir;

const std::string kShared = TFSIFT_SHARED_DIR;

}  // namespace

TEST_CASE("h1 and zh of every reference package match Terraform's", "[providers][hash]") {
    const json doc = read_json(kShared + "/conformance/providers/hashes.json");
    REQUIRE(doc["packages"].size() == 26);
    ScratchDir scratch;
    for (const auto& pkg : doc["packages"]) {
        const auto name = pkg["name"].get<std::string>();
        INFO("package: " << name);
        fs::path location;
        if (pkg["kind"] == "zip") {
            location = kShared + "/" + pkg["file"].get<std::string>();
            CHECK(zh_of_zip(location).value == pkg["zh"].get<std::string>());
        } else {
            location = scratch.path / name;
            if (pkg.value("package_path_is_symlink", false)) {
                build_tree(scratch.path / (name + "_target"), pkg["tree"]);
                fs::create_symlink(name + "_target", location);
            } else {
                build_tree(location, pkg["tree"]);
            }
        }
        const PackageHash h1 = h1_of_package(location);
        if (pkg.contains("h1") && !pkg["h1"].is_null()) {
            INFO("error: " << h1.error);
            CHECK(h1.value == pkg["h1"].get<std::string>());
        } else {
            REQUIRE_FALSE(h1.ok());
            std::string expected = pkg["h1_error"].get<std::string>();
            if (auto at = expected.find("<PACKAGE>"); at != std::string::npos) {
                expected.replace(at, 9, location.string());
            }
            CHECK(h1.error == expected);
        }
    }
}

TEST_CASE("h1 manifests of the oracle zips match Go's dirhash", "[providers][hash]") {
    const std::string dir = kShared + "/tools/oracle/expected/h1";
    const json doc = read_json(dir + "/hashes.json");
    REQUIRE_FALSE(doc.empty());
    for (const auto& [file, expected] : doc.items()) {
        INFO("zip: " << file);
        const PackageHash h1 = h1_of_zip(dir + "/" + file);
        CHECK(h1.value == expected["h1"].get<std::string>());
        CHECK(h1.manifest == expected["manifest"].get<std::vector<std::string>>());
        CHECK(zh_of_zip(dir + "/" + file).value == expected["zh"].get<std::string>());
    }
}

TEST_CASE("directory hashing refuses symlinks leading out of the package", "[providers][hash]") {
    ScratchDir scratch;
    std::ofstream(scratch.path / "secret") << "outside";
    fs::create_directories(scratch.path / "pkg");
    std::ofstream(scratch.path / "pkg" / "terraform-provider-x") << "hello\n";
    fs::create_symlink("../secret", scratch.path / "pkg" / "leak");
    const PackageHash h1 = h1_of_directory(scratch.path / "pkg");
    CHECK_FALSE(h1.ok());
    CHECK(h1.error.find("outside the package") != std::string::npos);
}

TEST_CASE("a file that is not a zip gives an error, not a hash", "[providers][hash]") {
    ScratchDir scratch;
    std::ofstream(scratch.path / "bogus.zip") << "not a zip";
    CHECK_FALSE(h1_of_zip(scratch.path / "bogus.zip").ok());
    CHECK_FALSE(h1_of_zip(scratch.path / "missing.zip").ok());
    CHECK_FALSE(zh_of_zip(scratch.path / "missing.zip").ok());
}
