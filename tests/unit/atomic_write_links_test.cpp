// Atomic writes and `--fix` meet links and owners (issue 16): a symlink is
// written through, a file with several hard links is refused, the owner,
// group and mode are kept, a precondition can cancel the write.
#include <catch2/catch.hpp>

#include "support/scratch_dir.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfsift/atomic_write.hpp"
#include "tfsift/lint/apply_fixes.hpp"

using namespace tfsift;
namespace fs = std::filesystem;

namespace {

using tfsift::testing::read_file;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("atomic writes go through symlinks, refuse hard links and keep the owner", "[lock-integrity][atomic_write]") {
    ScratchDir scratch;
    const fs::path real = scratch.path / "modules" / "main.tf";
    write_file(real, "old\n");

    SECTION("a symlink: the target is replaced, the link stays") {
        const fs::path link = scratch.path / "root" / "main.tf";
        fs::create_directories(link.parent_path());
        fs::create_symlink("../modules/main.tf", link);
        auto result = atomic_write_file(link, "new\n");
        REQUIRE(result.ok());
        CHECK(fs::is_symlink(link));
        CHECK(fs::read_symlink(link) == fs::path("../modules/main.tf"));
        CHECK(read_file(real) == "new\n");
        CHECK(std::distance(fs::directory_iterator(link.parent_path()), fs::directory_iterator()) == 1);
    }
    SECTION("a dangling symlink is refused") {
        const fs::path link = scratch.path / "dangling.tf";
        fs::create_symlink("nowhere.tf", link);
        auto result = atomic_write_file(link, "new\n");
        CHECK(result.failure == WriteFailure::refused);
        CHECK(contains(result.error, "target does not exist"));
        CHECK(!fs::exists(scratch.path / "nowhere.tf"));
    }
    SECTION("several hard links: refused, every name keeps the content") {
        const fs::path other = scratch.path / "copy.tf";
        fs::create_hard_link(real, other);
        auto result = atomic_write_file(real, "new\n");
        CHECK(result.failure == WriteFailure::refused);
        CHECK(contains(result.error, "has 2 hard links"));
        CHECK(read_file(real) == "old\n");
        CHECK(read_file(other) == "old\n");
    }
    SECTION("owner, group and mode are kept") {
        REQUIRE(::chmod(real.c_str(), 0640) == 0);
        if (::geteuid() == 0) REQUIRE(::chown(real.c_str(), 12345, 23456) == 0);
        auto result = atomic_write_file(real, "new\n");
        REQUIRE(result.ok());
        struct stat st {};
        REQUIRE(::stat(real.c_str(), &st) == 0);
        CHECK((st.st_mode & 07777) == 0640);
        if (::geteuid() == 0) {
            CHECK(st.st_uid == 12345U);
            CHECK(st.st_gid == 23456U);
        }
        CHECK(read_file(real) == "new\n");
    }
    SECTION("a failing precondition cancels the write and leaves no temporary file") {
        AtomicWriteOptions options;
        options.before_replace = [] { return std::string("changed meanwhile"); };
        auto result = atomic_write_file(real, "new\n", options);
        CHECK(result.failure == WriteFailure::refused);
        CHECK(result.error == "changed meanwhile");
        CHECK(read_file(real) == "old\n");
        CHECK(std::distance(fs::directory_iterator(real.parent_path()), fs::directory_iterator()) == 1);
    }
    SECTION("a write into a missing directory is an I/O failure") {
        auto result = atomic_write_file(scratch.path / "no-such-dir" / "x.tf", "new\n");
        CHECK(result.failure == WriteFailure::io);
        CHECK(contains(result.error, "cannot create a temporary file"));
    }
}

TEST_CASE("--fix writes through symlinks inside the repository and refuses hard links", "[lock-integrity][fix]") {
    ScratchDir scratch;
    fs::create_directories(scratch.path / "repo" / ".git");
    const fs::path shared = scratch.path / "repo" / "shared" / "versions.tf";
    const fs::path link = scratch.path / "repo" / "app" / "versions.tf";
    write_file(shared, "old\n");
    fs::create_directories(link.parent_path());
    fs::create_symlink("../shared/versions.tf", link);

    auto fix = [](const fs::path& path, const std::string& before, const std::string& after) {
        lint::FixPlan plan;
        plan.old_text[path.string()] = before;
        plan.new_text[path.string()] = after;
        return lint::write_fixes(plan);
    };

    SECTION("a symlink inside the repository") {
        auto result = fix(link, "old\n", "new\n");
        CHECK(result.errors.empty());
        CHECK(result.written.size() == 1);
        CHECK(fs::is_symlink(link));
        CHECK(read_file(shared) == "new\n");
    }
    SECTION("a symlink leading outside the repository") {
        const fs::path outside = scratch.path / "elsewhere.tf";
        write_file(outside, "old\n");
        const fs::path escaping = scratch.path / "repo" / "app" / "escaping.tf";
        fs::create_symlink(outside, escaping);
        auto result = fix(escaping, "old\n", "new\n");
        REQUIRE(result.errors.size() == 1);
        CHECK(contains(result.errors[0], "outside"));
        CHECK(read_file(outside) == "old\n");
    }
    SECTION("a hard-linked file") {
        fs::create_hard_link(shared, scratch.path / "repo" / "shared" / "twin.tf");
        auto result = fix(shared, "old\n", "new\n");
        REQUIRE(result.errors.size() == 1);
        CHECK(contains(result.errors[0], "hard links"));
        CHECK(read_file(shared) == "old\n");
    }
}
