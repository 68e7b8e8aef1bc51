// Offline lock file repair: what `lint --fix` and `tfsift lock` decide for
// each entry, and how the file is (not) written.
#include <catch2/catch.hpp>

#include "support/scratch_dir.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfsift/providers/hash.hpp"
#include "tfsift/providers/lock_repair.hpp"

using namespace tfsift;
using namespace tfsift::providers;
namespace fs = std::filesystem;

namespace {

using tfsift::testing::ScratchDir;

void write(const fs::path& p, const std::string& content) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Provider provider(const std::string& type) {
    return *parse_provider_source("hashicorp/" + type, Engine::terraform).provider;
}
Version version(const std::string& v) { return *parse_version(v).version; }
VersionConstraints constraints(const std::string& c) { return *parse_constraints(c).constraints; }
Platform platform(const std::string& p) { return *parse_platform(p).platform; }

// An unpacked mirror package; returns its h1.
std::string add_package(const fs::path& mirror, const std::string& type, const std::string& v, const std::string& p) {
    fs::path dir = mirror / "registry.terraform.io/hashicorp" / type / v / p;
    write(dir / ("terraform-provider-" + type), type + " " + v + " " + p + "\n");
    return h1_of_directory(dir).value;
}

ProviderRequirements require(std::initializer_list<std::pair<std::string, std::string>> items) {
    ProviderRequirements out;
    for (const auto& [type, c] : items) {
        auto& r = out[provider(type)];
        r.provider = provider(type);
        if (!c.empty()) r.constraints = constraints(c);
    }
    return out;
}

}  // namespace

TEST_CASE("repair keeps an acceptable locked version with every hash", "[providers][lock-repair]") {
    ScratchDir scratch;
    fs::path mirror = scratch.path / "mirror";
    std::string old_linux = add_package(mirror, "aws", "5.1.0", "linux_amd64");
    std::string old_darwin = add_package(mirror, "aws", "5.1.0", "darwin_arm64");
    add_package(mirror, "aws", "5.9.0", "linux_amd64");
    auto packages = scan_filesystem_mirror(mirror, Engine::terraform);

    LockFile old;
    old.providers[provider("aws")] = ProviderLock{
        provider("aws"), version("5.1.0"), constraints("~> 4.0"), {old_linux, "xx:unknown-scheme"}, std::nullopt};
    RepairOptions options;
    options.platforms = {platform("linux_amd64"), platform("darwin_arm64")};
    auto result = repair_lock(old, require({{"aws", "~> 5.0"}}), packages, options);
    const ProviderLock* aws = result.locks.find(provider("aws"));
    REQUIRE(aws != nullptr);
    CHECK(aws->version.to_string() == "5.1.0");  // not the newer 5.9.0
    CHECK(render_constraints(aws->constraints) == "~> 5.0");
    std::vector<std::string> want{old_darwin, old_linux, "xx:unknown-scheme"};
    std::sort(want.begin(), want.end());
    CHECK(aws->hashes == want);
    CHECK(result.problems.empty());
    CHECK(result.changes.size() == 2);  // constraints, checksums for darwin_arm64
}

TEST_CASE("repair selects the newest acceptable version and reports what it cannot do", "[providers][lock-repair]") {
    ScratchDir scratch;
    fs::path mirror = scratch.path / "mirror";
    add_package(mirror, "aws", "4.67.0", "linux_amd64");
    std::string newest = add_package(mirror, "aws", "4.68.0", "linux_amd64");
    add_package(mirror, "aws", "5.0.0", "linux_amd64");
    add_package(mirror, "aws", "4.69.0-beta1", "linux_amd64");
    auto packages = scan_filesystem_mirror(mirror, Engine::terraform);

    LockFile old;
    old.providers[provider("aws")] = ProviderLock{provider("aws"), version("3.0.0"), {}, {"h1:old"}, std::nullopt};
    old.providers[provider("null")] = ProviderLock{provider("null"), version("3.2.2"), {}, {}, std::nullopt};
    RepairOptions options;
    options.platforms = {platform("linux_amd64"), platform("windows_amd64")};
    auto result = repair_lock(old, require({{"aws", "~> 4.0"}, {"random", ""}}), packages, options);

    const ProviderLock* aws = result.locks.find(provider("aws"));
    REQUIRE(aws != nullptr);
    CHECK(aws->version.to_string() == "4.68.0");
    CHECK(aws->hashes == std::vector<std::string>{newest});   // a new version starts from scratch
    CHECK(result.locks.find(provider("null")) == nullptr);    // stale
    CHECK(result.locks.find(provider("random")) == nullptr);  // nothing available
    REQUIRE(result.problems.size() == 2);
    CHECK(result.problems[0].find("windows_amd64") != std::string::npos);
    CHECK(result.problems[1].find("registry.terraform.io/hashicorp/random") == 0);

    SECTION("partial requirements keep unrequired entries and recorded constraints") {
        options.requirements_partial = true;
        old.providers[provider("aws")].version = version("4.67.0");
        old.providers[provider("aws")].constraints = constraints(">= 4.1.0");
        auto partial = repair_lock(old, require({{"aws", "~> 4.0"}}), packages, options);
        CHECK(partial.locks.find(provider("null")) != nullptr);
        CHECK(render_constraints(partial.locks.find(provider("aws"))->constraints) == ">= 4.1.0");
    }
}

TEST_CASE("a contradicting package's hash is never added", "[providers][lock-repair]") {
    ScratchDir scratch;
    fs::path mirror = scratch.path / "mirror";
    std::string linux = add_package(mirror, "tls", "4.0.5", "linux_amd64");
    add_package(mirror, "tls", "4.0.5", "darwin_arm64");
    auto packages = scan_filesystem_mirror(mirror, Engine::terraform);
    LockFile old;
    old.providers[provider("tls")] =
        ProviderLock{provider("tls"), version("4.0.5"), {}, {linux, "h1:recorded-for-another-build="}, std::nullopt};
    RepairOptions options;
    options.platforms = {platform("linux_amd64"), platform("darwin_arm64")};
    auto result = repair_lock(old, require({{"tls", ""}}), packages, options);
    CHECK(result.locks.find(provider("tls"))->hashes == old.find(provider("tls"))->hashes);
    REQUIRE(result.problems.size() == 1);
    CHECK(result.problems[0].find("matches none of the recorded hashes") != std::string::npos);
}

TEST_CASE("a package that cannot be hashed is said to be one", "[providers][lock-repair]") {
    ScratchDir scratch;
    fs::path mirror = scratch.path / "mirror";
    write(mirror / "registry.terraform.io/hashicorp/tls/terraform-provider-tls_4.0.5_linux_amd64.zip",
          "this is not a zip archive\n");
    auto packages = scan_filesystem_mirror(mirror, Engine::terraform);
    LockFile old;
    old.providers[provider("tls")] =
        ProviderLock{provider("tls"), version("4.0.5"), {}, {"h1:recorded-for-another-build="}, std::nullopt};
    RepairOptions options;
    options.platforms = {platform("linux_amd64")};
    auto result = repair_lock(old, require({{"tls", ""}}), packages, options);
    REQUIRE(result.problems.size() == 1);
    INFO(result.problems[0]);
    CHECK(result.problems[0].find("cannot be hashed: ") != std::string::npos);
    CHECK(result.problems[0].find("matches none") == std::string::npos);
}

TEST_CASE("writing the repaired lock file", "[providers][lock-repair]") {
    ScratchDir scratch;
    fs::path mirror = scratch.path / "mirror";
    std::string h1 = add_package(mirror, "aws", "5.1.0", "linux_amd64");
    auto packages = scan_filesystem_mirror(mirror, Engine::terraform);
    RepairOptions options;
    options.platforms = {platform("linux_amd64")};
    fs::path lock = scratch.path / ".terraform.lock.hcl";

    SECTION("no requirement, no file: nothing is created") {
        auto update = update_lock_file(scratch.path, {}, packages, options);
        CHECK(!update.written);
        CHECK(!fs::exists(lock));
    }
    SECTION("a new file, then an unchanged one") {
        auto update = update_lock_file(scratch.path, require({{"aws", "~> 5.0"}}), packages, options);
        CHECK(update.written);
        CHECK(read(lock) ==
              "# This file is maintained automatically by \"terraform init\".\n"
              "# Manual edits may be lost in future updates.\n"
              "\n"
              "provider \"registry.terraform.io/hashicorp/aws\" {\n"
              "  version     = \"5.1.0\"\n"
              "  constraints = \"~> 5.0\"\n"
              "  hashes = [\n"
              "    \"" +
                  h1 +
                  "\",\n"
                  "  ]\n"
                  "}\n");
        auto again = update_lock_file(scratch.path, require({{"aws", "~> 5.0"}}), packages, options);
        CHECK(!again.written);
        CHECK(again.changes.empty());
    }
    SECTION("an OpenTofu lock file keeps its header") {
        write(lock,
              "# This file is maintained automatically by \"tofu init\".\n"
              "# Manual edits may be lost in future updates.\n");
        auto update = update_lock_file(scratch.path, require({{"aws", ""}}), packages, options);
        CHECK(update.written);
        CHECK(read(lock).rfind("# This file is maintained automatically by \"tofu init\".\n", 0) == 0);
    }
    SECTION("a lock file with errors is left alone") {
        const std::string broken = "provider \"hashicorp/aws\" {\n  version = \"5.1.0\"\n}\n";
        write(lock, broken);
        auto update = update_lock_file(scratch.path, require({{"aws", ""}}), packages, options);
        CHECK(!update.written);
        CHECK(!update.error.empty());
        CHECK(read(lock) == broken);
    }
    SECTION("all or nothing: a problem leaves the file alone") {
        options.all_or_nothing = true;
        options.platforms.push_back(platform("darwin_arm64"));
        auto update = update_lock_file(scratch.path, require({{"aws", ""}}), packages, options);
        CHECK(!update.written);
        CHECK(update.problems.size() == 1);
        CHECK(!fs::exists(lock));
    }
}
