// Settings files are read like every other file (tfsift/file_read.hpp): an
// `extend` chain is bounded and stays in the repository unless allowed.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "tfsift/file_read.hpp"
#include "tfsift/lint/settings.hpp"

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

}  // namespace

TEST_CASE("an extend chain is bounded, and its targets stay in the repository", "[file-read][settings]") {
    Scratch s;
    (void)s.write("repo/.git/HEAD", "");
    // 200 files, each extending the next.
    for (int i = 0; i < 200; ++i) {
        (void)s.write("repo/s" + std::to_string(i) + ".toml", "extend = \"s" + std::to_string(i + 1) + ".toml\"\n");
    }
    (void)s.write("repo/s200.toml", "");
    auto long_chain = lint::load_settings(s.at("repo/s0.toml"));
    REQUIRE(long_chain.errors.size() == 1);
    CHECK(long_chain.errors[0].file == s.at("repo/s63.toml"));
    CHECK(long_chain.errors[0].line == 1);
    CHECK(long_chain.errors[0].message == "`extend` chain longer than 64 files (at " + s.at("repo/s64.toml") + ")");
    // 64 files are fine.
    auto ok = lint::load_settings(s.at("repo/s137.toml"));
    INFO((ok.errors.empty() ? std::string() : ok.errors[0].to_string()));
    CHECK(ok.ok());
    CHECK(ok.settings.files.size() == 64);

    (void)s.write("outside/base.toml", "engine = \"opentofu\"\n");
    (void)s.write("repo/.tfsift.toml", "extend = \"../outside/base.toml\"\n");
    auto refused = lint::load_settings(s.at("repo/.tfsift.toml"));
    REQUIRE(refused.errors.size() == 1);
    CHECK(refused.errors[0].message.find("outside the repository root") != std::string::npos);
    (void)s.write("repo/.tfsift.toml", "extend = \"../outside/base.toml\"\nfollow_external_symlinks = true\n");
    auto allowed = lint::load_settings(s.at("repo/.tfsift.toml"));
    CHECK(allowed.ok());
    CHECK(allowed.settings.engine == Engine::opentofu);
    CHECK(allowed.settings.follow_external_symlinks);

    (void)s.write("repo/limits.toml", "max_file_size = 0\n");
    auto bad = lint::load_settings(s.at("repo/limits.toml"));
    REQUIRE(bad.errors.size() == 1);
    CHECK(bad.errors[0].message == "`max_file_size` must be a positive number of bytes");
    (void)s.write("repo/limits.toml", "max_file_size = 4096\n");
    CHECK(lint::load_settings(s.at("repo/limits.toml")).settings.max_file_size == 4096);
    CHECK(lint::load_settings(s.at("repo/limits.toml")).settings.read_policy("/r").max_size == 4096);
}

TEST_CASE("a directory as a settings file is an error", "[file-read][settings]") {
    Scratch s;
    (void)s.write("repo/conf.d/x", "");
    auto r = lint::load_settings(s.at("repo/conf.d"), true);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message ==
          "cannot read the settings file: " + s.at("repo/conf.d") + ": is a directory, not a file");
}
