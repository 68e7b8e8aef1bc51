// The one way tfsift reads a file: only regular files, inside the trusted
// root unless allowed, bounded, and every failure named.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "tfsift/file_read.hpp"

namespace fs = std::filesystem;
using namespace tfsift;

namespace {

struct Scratch {
    fs::path path;
    Scratch() {
        path = fs::temp_directory_path() / ("tfsift-read-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        fs::create_directories(path);
        path = fs::canonical(path);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    [[nodiscard]] std::string write(const std::string& rel, const std::string& text) const {
        fs::create_directories((path / rel).parent_path());
        std::ofstream(path / rel, std::ios::binary) << text;
        return (path / rel).string();
    }
    [[nodiscard]] std::string at(const std::string& rel) const { return (path / rel).string(); }
};

ReadPolicy inside(const Scratch& s) { return ReadPolicy{s.at("repo"), false, default_max_file_size}; }

}  // namespace

TEST_CASE("a regular file inside the root is read whole", "[file-read]") {
    Scratch s;
    std::string big(300000, 'x');
    auto path = s.write("repo/main.tf", big);
    auto content = read_regular_file(path, inside(s));
    REQUIRE(content.ok());
    CHECK(content.bytes == big);
    CHECK(content.message.empty());
}

TEST_CASE("a missing file, a directory and a dangling link are told apart", "[file-read]") {
    Scratch s;
    (void)s.write("repo/keep", "");
    CHECK(read_regular_file(s.at("repo/none.tf"), inside(s)).failure == ReadFailure::missing);
    auto dir = read_regular_file(s.at("repo"), inside(s));
    CHECK(dir.failure == ReadFailure::directory);
    CHECK(dir.message == s.at("repo") + ": is a directory, not a file");
    fs::create_symlink("gone/.terraform.lock.hcl", s.at("repo/.terraform.lock.hcl"));
    auto dangling = read_regular_file(s.at("repo/.terraform.lock.hcl"), inside(s));
    CHECK(dangling.failure == ReadFailure::dangling_symlink);
    CHECK(dangling.message ==
          s.at("repo/.terraform.lock.hcl") + ": a symbolic link to gone/.terraform.lock.hcl, which does not exist");
}

TEST_CASE("a FIFO is refused at once, never opened for reading", "[file-read]") {
    Scratch s;
    (void)s.write("repo/keep", "");
    REQUIRE(::mkfifo(s.at("repo/x.tf").c_str(), 0600) == 0);
    auto start = std::chrono::steady_clock::now();
    auto content = read_regular_file(s.at("repo/x.tf"), inside(s));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK(content.failure == ReadFailure::not_regular);
    CHECK(content.message == s.at("repo/x.tf") + ": is a FIFO; only regular files are read");
}

TEST_CASE("devices are refused with what they are, also through a link", "[file-read]") {
    Scratch s;
    (void)s.write("repo/keep", "");
    fs::create_symlink("/dev/zero", s.at("repo/zero.tf"));
    auto zero = read_regular_file(s.at("repo/zero.tf"), ReadPolicy{});
    CHECK(zero.failure == ReadFailure::not_regular);
    CHECK(zero.message ==
          s.at("repo/zero.tf") + " (a symbolic link to /dev/zero): is a character device; only regular files are read");
    CHECK(zero.bytes.empty());
}

TEST_CASE("a link leading outside the root is refused unless allowed", "[file-read]") {
    Scratch s;
    auto secret = s.write("outside/secret.txt", "TOKEN=abc\n");
    (void)s.write("repo/keep", "");
    fs::create_symlink(secret, s.at("repo/x.tf"));
    auto refused = read_regular_file(s.at("repo/x.tf"), inside(s));
    CHECK(refused.failure == ReadFailure::outside_root);
    CHECK(refused.bytes.empty());
    CHECK(refused.message ==
          s.at("repo/x.tf") + " (a symbolic link to " + secret + "): resolves to " + secret +
              ", outside the repository root " + s.at("repo") +
              "; not read (the setting follow_external_symlinks = true, in a settings file given with "
              "--config, allows it)");
    // A `..` path leaves the root as surely as a link.
    auto dotdot = read_regular_file(s.at("repo/../outside/secret.txt"), inside(s));
    CHECK(dotdot.failure == ReadFailure::outside_root);
    ReadPolicy allowed = inside(s);
    allowed.follow_external = true;
    auto read = read_regular_file(s.at("repo/x.tf"), allowed);
    REQUIRE(read.ok());
    CHECK(read.bytes == "TOKEN=abc\n");
    // A link that stays inside is followed.
    auto target = s.write("repo/real.tf", "locals {}\n");
    fs::create_symlink("real.tf", s.at("repo/alias.tf"));
    CHECK(read_regular_file(s.at("repo/alias.tf"), inside(s)).bytes == "locals {}\n");
    CHECK(resolves_inside(s.at("repo/alias.tf"), s.at("repo")));
    CHECK_FALSE(resolves_inside(s.at("repo/x.tf"), s.at("repo")));
    CHECK_FALSE(resolves_inside(target + ".missing", s.at("repo")));
}

TEST_CASE("files over the size limit are refused, before and while reading", "[file-read]") {
    Scratch s;
    auto path = s.write("repo/big.tf", std::string(1001, 'a'));
    ReadPolicy policy = inside(s);
    policy.max_size = 1000;
    auto content = read_regular_file(path, policy);
    CHECK(content.failure == ReadFailure::too_large);
    CHECK(content.message == path + ": 1001 bytes, more than the limit of 1000 bytes (the setting max_file_size)");
    policy.max_size = 1001;
    CHECK(read_regular_file(path, policy).ok());
    // /proc files report a size of 0 and are read to their end, under the same bound.
    auto status = read_regular_file("/proc/self/status", ReadPolicy{});
    REQUIRE(status.ok());
    CHECK(status.bytes.find("Pid:") != std::string::npos);
    auto small = read_regular_file("/proc/self/status", ReadPolicy{std::string(), false, 10});
    CHECK(small.failure == ReadFailure::too_large);
}

TEST_CASE("a file that cannot be opened names the reason", "[file-read]") {
    if (::geteuid() == 0) return;  // root reads anything; the CLI test drops root with setpriv
    Scratch s;
    auto path = s.write("repo/locked.tf", "locals {}\n");
    fs::permissions(path, fs::perms::none);
    auto content = read_regular_file(path, inside(s));
    CHECK(content.failure == ReadFailure::io_error);
    CHECK(content.message == path + ": Permission denied");
}

TEST_CASE("the trusted root is the nearest repository, else the start itself", "[file-read]") {
    Scratch s;
    (void)s.write("plain/a/main.tf", "");
    CHECK(trusted_root_of(s.at("plain/a")) == s.at("plain/a"));
    CHECK(trusted_root_of(s.at("plain/a/main.tf")) == s.at("plain/a"));
    (void)s.write("repo/.git/HEAD", "");
    (void)s.write("repo/env/prod/main.tf", "");
    CHECK(trusted_root_of(s.at("repo/env/prod")) == s.at("repo"));
}

TEST_CASE("SourceFile::read refuses special files with a system_error", "[file-read]") {
    CHECK_THROWS_AS(SourceFile::read("/dev/zero"), std::system_error);
    Scratch s;
    auto path = s.write("x.tf", "a = 1\n");
    CHECK(SourceFile::read(path)->text() == "a = 1\n");
}

TEST_CASE("reading by name inside an open directory answers as reading by path", "[file-read]") {
    Scratch s;
    auto secret = s.write("outside/secret.txt", "TOKEN=abc\n");
    (void)s.write("repo/main.tf", "locals {}\n");
    (void)s.write("repo/real.tf", "variable \"a\" {}\n");
    (void)s.write("repo/big.tf", std::string(2000, 'a'));
    fs::create_symlink("real.tf", s.at("repo/alias.tf"));
    fs::create_symlink(secret, s.at("repo/x.tf"));
    fs::create_symlink("gone.tf", s.at("repo/dangling.tf"));
    fs::create_directory(s.at("repo/sub.tf"));
    REQUIRE(::mkfifo(s.at("repo/pipe.tf").c_str(), 0600) == 0);
    ReadPolicy policy = inside(s);
    policy.max_size = 1000;

    OpenDirectory dir;
    REQUIRE(dir.open(s.at("repo")));
    DirectoryFileReader reader(dir, policy);
    for (const std::string name :
         {"main.tf", "alias.tf", "x.tf", "dangling.tf", "sub.tf", "pipe.tf", "big.tf", "missing.tf"}) {
        CAPTURE(name);
        const std::string path = s.at("repo/" + name);
        FileContent by_name;
        std::optional<FileStamp> stamp;
        auto read = reader.read(name, path, by_name, "shown/" + name, &stamp);
        FileContent by_path;
        auto expected = read_source_file(path, policy, by_path, "shown/" + name);
        REQUIRE((read == nullptr) == (expected == nullptr));
        CHECK(by_name.failure == by_path.failure);
        CHECK(by_name.message == by_path.message);
        if (read) {
            CHECK(read->text() == expected->text());
            CHECK(read->path() == "shown/" + name);
            REQUIRE(stamp);
            struct stat st {};
            REQUIRE(::stat(path.c_str(), &st) == 0);
            CHECK(stamp->size == static_cast<std::uint64_t>(st.st_size));
            CHECK(stamp->modified_ns == st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec);
        }
    }
    CHECK(dir.stamp("main.tf")->size == 10);
    CHECK_FALSE(dir.stamp("sub.tf"));
    CHECK_FALSE(dir.stamp("missing.tf"));

    // The open directory keeps naming the directory it opened: a rename of
    // its path afterwards changes nothing.
    fs::rename(s.at("repo"), s.at("moved"));
    FileContent failure;
    auto moved = reader.read("main.tf", s.at("repo/main.tf"), failure);
    REQUIRE(moved);
    CHECK(moved->text() == "locals {}\n");
}

TEST_CASE("an open directory outside the root reads nothing by name", "[file-read]") {
    Scratch s;
    (void)s.write("outside/secret.tf", "TOKEN=abc\n");
    (void)s.write("repo/keep", "");
    fs::create_directory_symlink(s.at("outside"), s.at("repo/linked"));
    OpenDirectory dir;
    REQUIRE(dir.open(s.at("repo/linked")));
    CHECK(dir.real_path() == s.at("outside"));
    DirectoryFileReader reader(dir, inside(s));
    FileContent failure;
    CHECK(reader.read("secret.tf", s.at("repo/linked/secret.tf"), failure) == nullptr);
    CHECK(failure.failure == ReadFailure::outside_root);
    // The real path the caller already knows is trusted as given.
    DirectoryFileReader told(dir, inside(s), s.at("outside"));
    FileContent again;
    CHECK(told.read("secret.tf", s.at("repo/linked/secret.tf"), again) == nullptr);
    CHECK(again.failure == ReadFailure::outside_root);
    ReadPolicy allowed = inside(s);
    allowed.follow_external = true;
    DirectoryFileReader follows(dir, allowed);
    FileContent none;
    auto read = follows.read("secret.tf", s.at("repo/linked/secret.tf"), none);
    REQUIRE(read);
    CHECK(read->text() == "TOKEN=abc\n");
}
