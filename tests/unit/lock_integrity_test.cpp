// Lock file integrity (issue 16): no entry without checksums, no lost
// update while repairing, stale temporary files removed.
#include <catch2/catch.hpp>

#include "support/scratch_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfsift/atomic_write.hpp"
#include "tfsift/providers/lock_repair.hpp"

using namespace tfsift;
using namespace tfsift::providers;
namespace fs = std::filesystem;

namespace {

using tfsift::testing::read_file;
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

// A process that has ended: its pid names no process (until reused).
pid_t ended_process() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

void set_age(const fs::path& p, std::chrono::seconds age) {
    const auto when = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() - age);
    struct utimbuf times {
        when, when
    };
    REQUIRE(::utime(p.c_str(), &times) == 0);
}

}  // namespace

TEST_CASE("a corrupt only package gives no lock entry and says why", "[lock-integrity]") {
    // Defect 6: `tfsift lock` and `lint --fix` used to add the entry without
    // `hashes`, print "Added" and succeed.
    ScratchDir scratch;
    const fs::path mirror = scratch.path / "mirror";
    const fs::path zip = mirror / "registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.1.0_linux_amd64.zip";
    write_file(zip, "this is not a zip archive\n");
    auto packages = scan_filesystem_mirror(mirror, Engine::terraform);
    REQUIRE(packages.size() == 1);
    RepairOptions options;
    options.platforms = {platform("linux_amd64")};

    SECTION("repair: no entry, a problem naming provider, version, platform and package") {
        auto result = repair_lock(LockFile{}, require("aws"), packages, options);
        CHECK(result.locks.providers.empty());
        CHECK(result.changes.empty());
        REQUIRE(result.problems.size() == 2);
        CHECK(contains(result.problems[0], "registry.terraform.io/hashicorp/aws 5.1.0: the linux_amd64 package at"));
        CHECK(contains(result.problems[0], zip.string()));
        CHECK(contains(result.problems[0], "cannot be hashed"));
        CHECK(contains(result.problems[1], "no checksum could be recorded for any platform, so no entry was added"));
    }
    SECTION("lint --fix: nothing is written") {
        auto update = update_lock_file(scratch.path, require("aws"), packages, options);
        CHECK(!update.written);
        CHECK(update.changes.empty());
        CHECK(!update.problems.empty());
        CHECK(!fs::exists(scratch.path / ".terraform.lock.hcl"));
    }
    SECTION("an existing entry without hashes is left as it is") {
        const std::string old =
            "# This file is maintained automatically by \"terraform init\".\n"
            "# Manual edits may be lost in future updates.\n\n"
            "provider \"registry.terraform.io/hashicorp/aws\" {\n"
            "  version = \"5.1.0\"\n"
            "}\n";
        write_file(scratch.path / ".terraform.lock.hcl", old);
        auto update = update_lock_file(scratch.path, require("aws"), packages, options);
        CHECK(!update.written);
        CHECK(read_file(scratch.path / ".terraform.lock.hcl") == old);
        REQUIRE(!update.problems.empty());
        CHECK(contains(update.problems.back(), "the entry is left as it is"));
    }
}

TEST_CASE("lock repair does not overwrite a lock file edited meanwhile", "[lock-integrity]") {
    // Defect 10: an edit made while `--fix` ran was overwritten.
    ScratchDir scratch;
    const fs::path mirror = scratch.path / "mirror";
    write_file(mirror / "registry.terraform.io/hashicorp/aws/5.1.0/linux_amd64/terraform-provider-aws", "aws\n");
    auto packages = scan_filesystem_mirror(mirror, Engine::terraform);
    RepairOptions options;
    options.platforms = {platform("linux_amd64")};
    const fs::path lock = scratch.path / ".terraform.lock.hcl";
    const std::string edited = "# edited by hand while tfsift ran\n";

    SECTION("an existing file") {
        write_file(lock, "# This file is maintained automatically by \"terraform init\".\n");
        LockUpdate opening;
        auto held = HeldLockFile::open(scratch.path, opening);
        REQUIRE(held);
        write_file(lock, edited);  // between reading and writing
        auto update = update_held_lock_file(*held, require("aws"), packages, options);
        CHECK(!update.written);
        CHECK(update.failure == LockUpdateFailure::changed);
        CHECK(update.write_failed());
        CHECK(contains(update.error, "changed on disk while tfsift worked on it; not overwritten"));
        CHECK(read_file(lock) == edited);
    }
    SECTION("a file created meanwhile") {
        LockUpdate opening;
        auto held = HeldLockFile::open(scratch.path, opening);
        REQUIRE(held);
        CHECK(!held->exists());
        write_file(lock, edited);
        auto update = update_held_lock_file(*held, require("aws"), packages, options);
        CHECK(update.failure == LockUpdateFailure::changed);
        CHECK(read_file(lock) == edited);
    }
    SECTION("unchanged: written") {
        LockUpdate opening;
        auto held = HeldLockFile::open(scratch.path, opening);
        REQUIRE(held);
        auto update = update_held_lock_file(*held, require("aws"), packages, options);
        CHECK(update.written);
        CHECK(update.failure == LockUpdateFailure::none);
        CHECK(contains(read_file(lock), "registry.terraform.io/hashicorp/aws"));
    }
    SECTION("a second repair waits for the advisory lock, then gives up") {
        write_file(lock, "# This file is maintained automatically by \"terraform init\".\n");
        // Another process (an open file description of its own) holds the lock.
        const int other = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC);
        REQUIRE(other >= 0);
        REQUIRE(::flock(other, LOCK_EX | LOCK_NB) == 0);
        LockUpdate opening;
        const auto start = std::chrono::steady_clock::now();
        auto held = HeldLockFile::open(scratch.path, opening, std::chrono::milliseconds(300));
        const auto waited = std::chrono::steady_clock::now() - start;
        CHECK(!held);
        CHECK(opening.failure == LockUpdateFailure::busy);
        CHECK(contains(opening.error, "is locked by another process"));
        CHECK(waited >= std::chrono::milliseconds(300));
        CHECK(waited < std::chrono::seconds(5));
        ::close(other);
        auto again = HeldLockFile::open(scratch.path, opening, std::chrono::milliseconds(300));
        CHECK(again);
    }
}

TEST_CASE("stale temporary files of the lock file are removed by the next repair", "[lock-integrity]") {
    ScratchDir scratch;
    const fs::path lock = scratch.path / ".terraform.lock.hcl";
    write_file(lock, "# This file is maintained automatically by \"terraform init\".\n");
    const pid_t gone = ended_process();
    const fs::path dead = scratch.path / ("..terraform.lock.hcl.tfsift-" + std::to_string(gone) + "-123.tmp");
    const fs::path old_form = scratch.path / "..terraform.lock.hcl.tmp4242";      // as `kill -9` left them
    const fs::path fresh_old_form = scratch.path / "..terraform.lock.hcl.tmp77";  // may be in use
    const fs::path alive = scratch.path / ("..terraform.lock.hcl.tfsift-" + std::to_string(::getppid()) + "-9.tmp");
    const fs::path unrelated = scratch.path / ".terraform.lock.hcl.tmp-notes";
    for (const auto& p : {dead, old_form, fresh_old_form, alive, unrelated}) write_file(p, "partial");
    set_age(old_form, std::chrono::minutes(5));

    CHECK(is_temp_file_name(dead.filename().string(), ".terraform.lock.hcl"));
    CHECK(is_temp_file_name(old_form.filename().string(), ".terraform.lock.hcl"));
    CHECK(!is_temp_file_name(unrelated.filename().string(), ".terraform.lock.hcl"));

    LockUpdate opening;
    auto held = HeldLockFile::open(scratch.path, opening);
    REQUIRE(held);
    CHECK(!fs::exists(dead));
    CHECK(!fs::exists(old_form));
    CHECK(fs::exists(fresh_old_form));
    CHECK(fs::exists(alive));
    CHECK(fs::exists(unrelated));

    set_age(alive, std::chrono::hours(2));  // its process hung, or the pid was reused
    CHECK(remove_stale_temp_files(lock) == 1);
    CHECK(!fs::exists(alive));
}
