// Verifying packages against lock hashes and unpacking them, against
// Terraform's own results: the `installed`, `h1_installed` and `checks`
// fields of ../shared/conformance/providers/hashes.json and `h1_unpacked_dir`
// of ../shared/tools/oracle/expected/h1/hashes.json.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "support/reference_data.hpp"
#include "support/scratch_dir.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "tfsift/providers/hash.hpp"
#include "tfsift/providers/package_check.hpp"
#include "tfsift/providers/unpack.hpp"

using namespace tfsift::providers;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using tfsift::testing::build_tree;
using tfsift::testing::read_json;
using tfsift::testing::ScratchDir;

const std::string kShared = TFSIFT_SHARED_DIR;

// The vectors write <PACKAGE> where a message named the package's path.
std::string with_placeholder(std::string text, const fs::path& package) {
    const std::string path = package.string();
    for (auto at = text.find(path); at != std::string::npos; at = text.find(path, at + 9)) {
        text.replace(at, path.size(), "<PACKAGE>");
    }
    return text;
}

std::string or_empty(const json& j) { return j.is_null() ? std::string() : j.get<std::string>(); }

}  // namespace

TEST_CASE("every reference package verifies and installs as Terraform decides", "[providers][package]") {
    const json doc = read_json(kShared + "/conformance/providers/hashes.json");
    REQUIRE(doc["packages"].size() == 26);
    ScratchDir scratch;
    int checks = 0;
    int target_number = 0;
    for (const auto& pkg : doc["packages"]) {
        const auto name = pkg["name"].get<std::string>();
        INFO("package: " << name);
        const bool is_zip = pkg["kind"] == "zip";
        const PackageKind kind = is_zip ? PackageKind::zip : PackageKind::directory;
        fs::path location;
        if (is_zip) {
            location = kShared + "/" + pkg["file"].get<std::string>();
        } else {
            location = scratch.path / name;
            if (pkg.value("package_path_is_symlink", false)) {
                build_tree(scratch.path / (name + "_target"), pkg["tree"]);
                fs::create_symlink(name + "_target", location);
            } else {
                build_tree(location, pkg["tree"]);
            }
        }
        const PackageIdentity identity{"registry.terraform.io/hashicorp/example", "1.0.0", location.string()};

        // Installing without hashes, then hashing what was installed. An
        // unpacked directory is linked, so its installed h1 is its own.
        const fs::path installed = scratch.path / ("installed-" + std::to_string(target_number++));
        std::string install_error;
        if (is_zip) install_error = unpack_zip(location, installed).error;
        CHECK(install_error.empty() == pkg["installed"].get<bool>());
        CHECK(with_placeholder(install_error, location) == or_empty(pkg["install_error"]));
        if (install_error.empty()) {
            const auto h1 = is_zip ? h1_of_directory(installed) : h1_of_directory(location);
            if (!pkg["h1_installed"].is_null()) {
                CHECK(h1.value == pkg["h1_installed"].get<std::string>());
            } else {
                CHECK(with_placeholder(h1.error, is_zip ? installed : location) ==
                      pkg["h1_installed_error"].get<std::string>());
            }
        }

        for (const auto& check : pkg["checks"]) {
            const auto hashes = check["hashes"].get<std::vector<std::string>>();
            INFO("hashes: " << check["hashes"].dump());
            for (const auto& one : check["per_hash"]) {
                const auto got = package_matches_hash(location, kind, one["hash"].get<std::string>());
                CHECK(got.matches == one["matches"].get<bool>());
                CHECK(with_placeholder(got.error, location) == or_empty(one["error"]));
            }
            const auto any = package_matches_any_hash(location, kind, hashes);
            CHECK(any.matches == check["matches_any"].get<bool>());
            CHECK(with_placeholder(any.error, location) == or_empty(check["matches_any_error"]));

            auto verdict = verify_package_for_install(location, kind, hashes, identity);
            if (verdict.ok && is_zip) {
                const fs::path target = scratch.path / ("installed-" + std::to_string(target_number++));
                const auto unpacked = unpack_zip(location, target);
                verdict = {unpacked.ok(), unpacked.error};
            }
            CHECK(verdict.ok == check["install_ok"].get<bool>());
            CHECK(with_placeholder(verdict.error, location) == or_empty(check["install_error"]));
            ++checks;
        }
    }
    CHECK(checks > 200);
}

TEST_CASE("the oracle zips unpack to directories with the oracle's h1", "[providers][package]") {
    const std::string dir = kShared + "/tools/oracle/expected/h1";
    const json doc = read_json(dir + "/hashes.json");
    REQUIRE(doc.size() == 5);
    ScratchDir scratch;
    for (const auto& [file, expected] : doc.items()) {
        INFO("zip: " << file);
        const fs::path target = scratch.path / file;
        REQUIRE(unpack_zip(dir + "/" + file, target).ok());
        CHECK(h1_of_directory(target).value == expected["h1_unpacked_dir"].get<std::string>());
    }
}

TEST_CASE("unpacking never writes outside the target", "[providers][package]") {
    ScratchDir scratch;
    // A planted symlink inside the target is not followed.
    const fs::path target = scratch.path / "target";
    fs::create_directories(target);
    fs::create_directories(scratch.path / "elsewhere");
    fs::create_symlink(scratch.path / "elsewhere", target / "sub");
    const auto zips = kShared + "/tools/oracle/expected/h1/unordered_with_dir_entry.zip";
    const auto result = unpack_zip(zips, target);
    CHECK_FALSE(result.ok());
    CHECK(fs::is_empty(scratch.path / "elsewhere"));
    // A target that is itself a symlink is refused, as Terraform refuses it.
    fs::create_symlink(scratch.path / "elsewhere", scratch.path / "link");
    CHECK(unpack_zip(zips, scratch.path / "link").error.find("because it is a symlink") != std::string::npos);
    CHECK(fs::is_empty(scratch.path / "elsewhere"));
}
