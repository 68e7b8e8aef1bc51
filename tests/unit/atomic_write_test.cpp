// atomic_write_file: replaces content completely, keeps the old file and
// leaves no temporary file behind when it fails.
#include <catch2/catch.hpp>

#include "support/scratch_dir.hpp"

#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfsift/atomic_write.hpp"

namespace fs = std::filesystem;

namespace {

using tfsift::testing::ScratchDir;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t entries_in(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("atomic_write_file creates and replaces files", "[atomic_write]") {
    ScratchDir dir;
    const auto file = dir.path / "lock.hcl";
    REQUIRE(tfsift::atomic_write_file(file, "first\n").ok());
    CHECK(slurp(file) == "first\n");

    ::chmod(file.c_str(), 0600);
    const std::string big(1 << 20, 'x');
    REQUIRE(tfsift::atomic_write_file(file, big).ok());
    CHECK(slurp(file) == big);
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);  // an existing file keeps its mode
    CHECK(entries_in(dir.path) == 1);    // no temporary file left

    const auto fresh = dir.path / "new.hcl";
    REQUIRE(tfsift::atomic_write_file(fresh, "", 0640).ok());
    REQUIRE(::stat(fresh.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);
    CHECK(slurp(fresh).empty());
}

TEST_CASE("a replaced file keeps its extended attributes", "[atomic_write]") {
    ScratchDir dir;
    const auto file = dir.path / "main.tf";
    REQUIRE(tfsift::atomic_write_file(file, "old\n").ok());
    // user.* needs a file system that takes it; trusted.* needs root. One of
    // them works on the file systems tests run on (ext4, overlayfs, tmpfs as root).
    std::string name;
    for (const char* candidate : {"user.tfsift-test", "trusted.tfsift-test"}) {
        if (::setxattr(file.c_str(), candidate, "kept", 4, 0) == 0) {
            name = candidate;
            break;
        }
    }
    if (name.empty()) {
        WARN("extended attributes cannot be set in " << dir.path.string() << "; nothing to check");
        return;
    }
    REQUIRE(tfsift::atomic_write_file(file, "new\n").ok());
    CHECK(slurp(file) == "new\n");
    char value[16] = {};
    const ssize_t n = ::getxattr(file.c_str(), name.c_str(), value, sizeof value);
    CHECK(n == 4);
    CHECK(std::string(value, n > 0 ? static_cast<std::size_t>(n) : 0) == "kept");
}

TEST_CASE("a failed atomic write leaves the old content and no temporary file", "[atomic_write]") {
    ScratchDir dir;
    // A directory in the file's place is refused before anything is written:
    // the directory must survive and no temporary file may appear.
    const auto target = dir.path / "occupied";
    fs::create_directories(target / "inside");
    const auto result = tfsift::atomic_write_file(target, "new content");
    CHECK_FALSE(result.ok());
    CHECK(result.failure == tfsift::WriteFailure::refused);
    CHECK(result.error.find("is not a regular file") != std::string::npos);
    CHECK(fs::is_directory(target / "inside"));
    CHECK(entries_in(dir.path) == 1);

    // A failure after the temporary file was written (here the caller's
    // last check objects) removes it and keeps the old content.
    const auto file = dir.path / "kept.hcl";
    REQUIRE(tfsift::atomic_write_file(file, "old").ok());
    tfsift::AtomicWriteOptions options;
    options.before_replace = [] { return std::string("changed meanwhile"); };
    CHECK_FALSE(tfsift::atomic_write_file(file, "new", options).ok());
    CHECK(slurp(file) == "old");
    CHECK(entries_in(dir.path) == 2);

    // A directory that does not exist: nothing is created anywhere.
    const auto missing = dir.path / "no-such-dir" / "lock.hcl";
    CHECK_FALSE(tfsift::atomic_write_file(missing, "x").ok());
    CHECK_FALSE(fs::exists(missing.parent_path()));
}
