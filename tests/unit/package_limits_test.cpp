// Reading provider packages defensively (issue 16): a symlinked package
// directory must stay inside the package sources, special files are not
// opened, and hashing is bounded per run in bytes, time and count.
#include <catch2/catch.hpp>

#include "support/scratch_dir.hpp"

#include <sys/stat.h>
#include <zip.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "tfsift/providers/hash.hpp"
#include "tfsift/providers/lock_repair.hpp"
#include "tfsift/providers/package_audit.hpp"
#include "tfsift/providers/unpack.hpp"

using namespace tfsift;
using namespace tfsift::providers;
namespace fs = std::filesystem;

namespace {

using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

Provider provider(const std::string& type) {
    return *parse_provider_source("hashicorp/" + type, Engine::terraform).provider;
}
Platform platform(const std::string& p) { return *parse_platform(p).platform; }

ProviderRequirements require(const std::string& type) {
    ProviderRequirements out;
    out[provider(type)].provider = provider(type);
    return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A zip whose one entry is `size` zero bytes, deflated (about 1000:1).
void write_zip_bomb(const fs::path& path, std::size_t size) {
    static const std::string zeros(size, '\0');
    int err = 0;
    zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    REQUIRE(archive != nullptr);
    zip_source_t* source = zip_source_buffer(archive, zeros.data(), zeros.size(), 0);
    REQUIRE(source != nullptr);
    REQUIRE(zip_file_add(archive, "terraform-provider-bomb", source, ZIP_FL_ENC_UTF_8) >= 0);
    REQUIRE(zip_close(archive) == 0);
}

// Restores the default hashing limits (and zero usage) when a test ends.
struct DefaultHashLimitsAfter {
    DefaultHashLimitsAfter() = default;
    DefaultHashLimitsAfter(const DefaultHashLimitsAfter&) = delete;
    DefaultHashLimitsAfter& operator=(const DefaultHashLimitsAfter&) = delete;
    ~DefaultHashLimitsAfter() { set_hash_limits(HashLimits{}); }
};

}  // namespace

TEST_CASE("a package directory that is a symlink must stay inside the package sources", "[lock-integrity][hash]") {
    // Defect 12: a package directory linked to `/` or a home directory made
    // everything there "inside the package".
    ScratchDir scratch;
    const std::string tail = "registry.terraform.io/hashicorp/aws/5.1.0/linux_amd64";
    const fs::path cache = scratch.path / "cache";
    const fs::path cache_package = cache / tail;
    write_file(cache_package / "terraform-provider-aws", "aws\n");
    const fs::path secrets = scratch.path / "home";
    write_file(secrets / ".ssh" / "id_ed25519", "private key\n");
    const fs::path providers_dir = scratch.path / "work/.terraform/providers";
    const fs::path installed = providers_dir / tail;
    fs::create_directories(installed.parent_path());

    SECTION("linked into the plugin cache, as Terraform links it: read") {
        fs::create_symlink(cache_package, installed);
        auto packages = scan_unpacked_packages(providers_dir, Engine::terraform, {cache});
        REQUIRE(packages.size() == 1);
        CHECK(packages[0].refused.empty());
        auto audit =
            audit_packages(ProviderLock{provider("aws"), *parse_version("5.1.0").version, {}, {}, std::nullopt},
                           packages, providers_dir);
        REQUIRE(audit.packages.size() == 1);
        CHECK(audit.packages[0].h1 == h1_of_directory(cache_package).value);
    }
    SECTION("linked anywhere else: listed as refused, never hashed") {
        fs::create_symlink(secrets, installed);
        auto packages = scan_unpacked_packages(providers_dir, Engine::terraform, {cache});
        REQUIRE(packages.size() == 1);
        CHECK(
            contains(packages[0].refused, "the package directory is a symlink to " + fs::canonical(secrets).string()));
        CHECK(contains(packages[0].refused, "outside the package sources"));
        RepairOptions options;
        options.platforms = {platform("linux_amd64")};
        auto result = repair_lock(LockFile{}, require("aws"), packages, options);
        CHECK(result.locks.providers.empty());
        REQUIRE(!result.problems.empty());
        CHECK(contains(result.problems[0], "cannot be hashed"));
        CHECK(contains(result.problems[0], "outside the package sources"));
    }
    SECTION("a FIFO inside a package is not opened") {
        REQUIRE(::mkfifo((cache_package / "pipe").c_str(), 0644) == 0);
        const auto start = std::chrono::steady_clock::now();
        auto h1 = h1_of_directory(cache_package);
        CHECK(!h1.ok());
        CHECK(contains(h1.error, "not a regular file"));
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    }
}

TEST_CASE("zip bombs are bounded in bytes, time and count per run", "[lock-integrity][hash]") {
    DefaultHashLimitsAfter restore;
    ScratchDir scratch;
    const fs::path bomb = scratch.path / "bomb.zip";
    write_zip_bomb(bomb, std::size_t{64} << 20);
    REQUIRE(fs::file_size(bomb) < (std::size_t{1} << 20));

    SECTION("bytes decompressed per run") {
        HashLimits limits;
        limits.max_bytes = std::uint64_t{16} << 20;
        set_hash_limits(limits);
        const auto start = std::chrono::steady_clock::now();
        auto h1 = h1_of_zip(bomb);
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
        CHECK(!h1.ok());
        CHECK(contains(h1.error, bomb.string() + ": hashing stopped: this run read or decompressed 16 MiB"));
        CHECK(contains(h1.error, "TFSIFT_HASH_MAX_BYTES"));
    }
    SECTION("time per package") {
        HashLimits limits;
        limits.max_package_time = std::chrono::milliseconds(0);
        set_hash_limits(limits);
        auto h1 = h1_of_zip(bomb);
        CHECK(!h1.ok());
        CHECK(contains(h1.error, "hashing stopped after 0 s, the limit for one package"));
    }
    SECTION("time per run, added over packages") {
        HashLimits limits;
        limits.max_run_time = std::chrono::milliseconds(1);
        set_hash_limits(limits);
        auto first = h1_of_zip(bomb);
        auto second = h1_of_zip(bomb);
        CHECK(!second.ok());
        CHECK(contains(first.error + second.error, "TFSIFT_HASH_MAX_SECONDS"));
    }
    SECTION("packages hashed per run") {
        HashLimits limits;
        limits.max_packages = 1;
        set_hash_limits(limits);
        CHECK(h1_of_zip(bomb).ok());
        auto second = h1_of_zip(bomb);
        CHECK(!second.ok());
        CHECK(contains(second.error, "not hashed: this run already hashed 1 packages"));
    }
    SECTION("unpacking is bounded by the time for one package too") {
        HashLimits limits;
        limits.max_package_time = std::chrono::milliseconds(0);
        set_hash_limits(limits);
        auto result = unpack_zip(bomb, scratch.path / "unpacked");
        CHECK(!result.ok());
        CHECK(contains(result.error, "took longer than 0 ms, the limit for one package"));
    }
    SECTION("within the limits the hash is computed") {
        set_hash_limits(HashLimits{});
        auto h1 = h1_of_zip(bomb);
        CHECK(h1.ok());
        CHECK(h1.value.rfind("h1:", 0) == 0);
    }
}
