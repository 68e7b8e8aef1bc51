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
    CHECK(refused.errors[0].file == s.at("repo/.tfsift.toml"));
    CHECK(refused.errors[0].line == 1);
    CHECK(refused.errors[0].message ==
          "`extend` names " + s.at("outside/base.toml") + ", which resolves outside the repository root " +
              s.at("repo") +
              "; refused: only a settings file given with --config may extend a file outside the repository");
}

TEST_CASE("a repository's settings cannot widen what is read; the user's can", "[file-read][settings]") {
    Scratch s;
    (void)s.write("repo/.git/HEAD", "");
    (void)s.write("outside/base.toml", "engine = \"opentofu\"\nfollow_external_symlinks = true\n");
    // The repository's own file asks for both: both refused, the run told where.
    (void)s.write("repo/.tfsift.toml", "engine = \"terraform\"\nfollow_external_symlinks = true\n");
    auto repo_file = lint::load_settings(s.at("repo/.tfsift.toml"));
    CHECK(repo_file.ok());
    CHECK_FALSE(repo_file.settings.follow_external_symlinks);
    REQUIRE(repo_file.warnings.size() == 1);
    CHECK(repo_file.warnings[0].to_string() ==
          s.at("repo/.tfsift.toml") +
              ":2:28: warning: `follow_external_symlinks = true` is ignored: a settings file in the repository may "
              "not widen what is read; give it in a file named with --config");
    // `false` is no widening.
    (void)s.write("repo/off.toml", "follow_external_symlinks = false\n");
    CHECK(lint::load_settings(s.at("repo/off.toml")).warnings.empty());
    // A file inside the repository extended by the repository's file is no better.
    (void)s.write("repo/.tfsift.toml", "extend = \"base.toml\"\n");
    (void)s.write("repo/base.toml", "follow_external_symlinks = true\n");
    auto inherited = lint::load_settings(s.at("repo/.tfsift.toml"));
    CHECK_FALSE(inherited.settings.follow_external_symlinks);
    REQUIRE(inherited.warnings.size() == 1);
    CHECK(inherited.warnings[0].file == s.at("repo/base.toml"));

    // The same file named with --config is the user's: it may extend a
    // file outside and switch following on; the file it extends may not.
    (void)s.write("repo/.tfsift.toml", "extend = \"../outside/base.toml\"\nfollow_external_symlinks = true\n");
    auto users = lint::load_settings(s.at("repo/.tfsift.toml"), true);
    INFO((users.errors.empty() ? std::string() : users.errors[0].to_string()));
    CHECK(users.ok());
    CHECK(users.settings.engine == Engine::opentofu);
    CHECK(users.settings.follow_external_symlinks);
    REQUIRE(users.warnings.size() == 1);
    CHECK(users.warnings[0].file == s.at("outside/base.toml"));

    // An unknown key in a file outside the repository is not quoted.
    (void)s.write("outside/base.toml", "API_TOKEN = \"abc\"\n[rules.x]\nSECRET_KEY = 1\n");
    auto hidden = lint::load_settings(s.at("repo/.tfsift.toml"), true);
    REQUIRE(hidden.errors.size() == 2);
    for (const auto& e : hidden.errors) {
        CHECK(e.to_string().find("API_TOKEN") == std::string::npos);
        CHECK(e.to_string().find("SECRET_KEY") == std::string::npos);
        CHECK(e.message.find("not shown") != std::string::npos);
    }
    CHECK(hidden.errors[0].line == 1);
    // Nor is the text of a syntax error there.
    (void)s.write("outside/base.toml", "PASSWORD=hunter2 hunter3\n");
    auto syntax = lint::load_settings(s.at("repo/.tfsift.toml"), true);
    REQUIRE(syntax.errors.size() == 1);
    CHECK(syntax.errors[0].to_string().find("hunter") == std::string::npos);
    // Inside the repository, keys are named as usual.
    (void)s.write("repo/typo.toml", "presett = \"strict\"\n");
    auto typo = lint::load_settings(s.at("repo/typo.toml"));
    REQUIRE(typo.errors.size() == 1);
    CHECK(typo.errors[0].message.find("unknown setting `presett`") == 0);
}

TEST_CASE("max_file_size bounds the settings file reads", "[file-read][settings]") {
    Scratch s;
    (void)s.write("repo/.git/HEAD", "");
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
