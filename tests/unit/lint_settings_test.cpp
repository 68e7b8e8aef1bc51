// .tfsift.toml: values, inheritance through `extend`, and errors that point
// at the TOML line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tfsift/lint/settings.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;
using namespace tfsift;
using namespace tfsift::lint;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("tfsift-settings-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    void write(const std::string& rel, const std::string& text) const {
        fs::create_directories((path / rel).parent_path());
        std::ofstream(path / rel) << text;
    }
};

}  // namespace

TEST_CASE("settings read rules, engine, platforms, ignores and excludes", "[lint][settings]") {
    auto r = parse_settings("/repo/.tfsift.toml", R"(
engine = "opentofu"
platforms = ["linux_amd64", "darwin_arm64"]
exclude = ["examples/**"]

[rules]
syntax-error = "warning"
unused-ignore = "off"

[[ignore]]
paths = ["legacy/*.tf"]
rules = ["syntax-error"]
)");
    REQUIRE(r.ok());
    const Settings& s = r.settings;
    CHECK(s.engine == Engine::opentofu);
    CHECK(s.platforms == std::vector<std::string>{"linux_amd64", "darwin_arm64"});
    CHECK(s.rules.at("syntax-error").severity == Severity::warning);
    CHECK(s.rules.at("syntax-error").enabled == true);
    CHECK(s.rules.at("unused-ignore").enabled == false);
    CHECK(s.excluded("/repo/examples/a/main.tf"));
    CHECK_FALSE(s.excluded("/repo/modules/a/main.tf"));
    CHECK(s.ignored("syntax-error", "/repo/legacy/main.tf"));
    CHECK_FALSE(s.ignored("unused-ignore", "/repo/legacy/main.tf"));
    CHECK_FALSE(s.ignored("syntax-error", "/repo/legacy/sub/main.tf"));
    CHECK_FALSE(s.ignored("syntax-error", "/elsewhere/legacy/main.tf"));
}

TEST_CASE("settings name the test directory below each module", "[lint][settings]") {
    CHECK(parse_settings("a.toml", "").settings.test_directory == "tests");
    auto r = parse_settings("a.toml", "test_directory = \"./spec/unit/\"\n");
    REQUIRE(r.ok());
    CHECK(r.settings.test_directory == "spec/unit");
}

TEST_CASE("settings errors carry file, line and column", "[lint][settings]") {
    SECTION("TOML syntax") {
        auto r = parse_settings("a.toml", "engine = \"terraform\"\nplatforms = [\n");
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].file == "a.toml");
        CHECK(r.errors[0].line >= 2);
        CHECK(r.errors[0].to_string().rfind("a.toml:", 0) == 0);
    }
    SECTION("unknown key") {
        auto r = parse_settings("a.toml", "\nenginee = \"terraform\"\n");
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].line == 2);
        CHECK(r.errors[0].column == 1);
        CHECK_THAT(r.errors[0].message, Catch::Contains("enginee"));
    }
    SECTION("bad engine") {
        auto r = parse_settings("a.toml", "engine = \"pulumi\"\n");
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].line == 1);
        CHECK(r.errors[0].column == 10);
    }
    SECTION("unknown rule id") {
        auto r = parse_settings("a.toml", "[rules]\nsyntax-error = \"off\"\nno-such-rule = \"error\"\n",
                                lint::builtin_rules());
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].line == 3);
        CHECK_THAT(r.errors[0].message, Catch::Contains("no-such-rule"));
    }
    SECTION("invalid RE2 pattern points at its line") {
        auto r = parse_settings("a.toml", "[[policy]]\nid = \"names\"\nkind = \"naming\"\npattern = \"^[a-z\"\n");
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].line == 4);
        CHECK(r.errors[0].column == 11);
        CHECK_THAT(r.errors[0].message, Catch::Contains("invalid RE2 pattern"));
        CHECK(r.errors[0].to_string() == "a.toml:4:11: error: " + r.errors[0].message);
    }
    SECTION("policy without its required keys") {
        auto r = parse_settings("a.toml", "[[policy]]\nkind = \"required-attributes\"\n");
        REQUIRE(r.errors.size() == 2);  // id and attributes
        CHECK(r.errors[0].line == 1);
    }
    SECTION("a key of another policy kind") {
        auto r = parse_settings(
            "a.toml", "[[policy]]\nid = \"x\"\nkind = \"module-source\"\nallowed = [\"^a\"]\npattern = \"b\"\n");
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].line == 5);
    }
    SECTION("a test directory outside the module directory") {
        for (const char* written : {"../tests", "/srv/tests", "."}) {
            INFO(written);
            auto r = parse_settings("a.toml", std::string("\ntest_directory = \"") + written + "\"\n");
            REQUIRE(r.errors.size() == 1);
            CHECK(r.errors[0].line == 2);
            CHECK_THAT(r.errors[0].message, Catch::StartsWith("`test_directory` must"));
            CHECK(r.settings.test_directory == "tests");
        }
    }
    SECTION("policy id clashing with a built-in rule") {
        auto r = parse_settings("a.toml", "[[policy]]\nid = \"syntax-error\"\nkind = \"naming\"\npattern = \"a\"\n",
                                lint::builtin_rules());
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].line == 2);
    }
}

TEST_CASE("policies are parsed with their patterns compiled", "[lint][settings]") {
    auto r = parse_settings("a.toml", R"(
[[policy]]
id = "tags"
kind = "required-attributes"
resource-types = "^aws_"
attributes = ["tags"]
severity = "error"
message = "Tag it"
)");
    REQUIRE(r.ok());
    REQUIRE(r.settings.policies.size() == 1);
    const Policy& p = r.settings.policies[0];
    CHECK(p.id == "tags");
    CHECK(p.kind == PolicyKind::required_attributes);
    CHECK(p.severity == Severity::error);
    CHECK(p.line == 2);
    REQUIRE(p.resource_types);
    CHECK(p.resource_types->search("aws_instance"));
    CHECK_FALSE(p.resource_types->search("google_aws_thing"));
}

TEST_CASE("extend inherits and the extending file wins", "[lint][settings]") {
    TempDir tmp;
    // One repository holds both files: extend targets must lie inside it.
    tmp.write(".git/HEAD", "ref: refs/heads/main\n");
    tmp.write("base/common.toml", R"(
platforms = ["linux_amd64"]
exclude = ["vendor"]
[rules]
syntax-error = "warning"
unused-ignore = "off"
[[policy]]
id = "names"
kind = "naming"
pattern = "^[a-z]"
)");
    tmp.write("repo/.tfsift.toml", R"(
extend = "../base/common.toml"
[rules]
unused-ignore = "on"
)");
    auto r = load_settings((tmp.path / "repo/.tfsift.toml").string());
    INFO((r.errors.empty() ? std::string() : r.errors[0].to_string()));
    REQUIRE(r.ok());
    CHECK(r.settings.files.size() == 2);
    CHECK(r.settings.platforms == std::vector<std::string>{"linux_amd64"});
    CHECK(r.settings.rules.at("syntax-error").severity == Severity::warning);
    CHECK(r.settings.rules.at("unused-ignore").enabled == true);
    REQUIRE(r.settings.policies.size() == 1);
    // The inherited glob stays relative to the file that wrote it.
    std::string base = absolute_normal_path((tmp.path / "base").string());
    CHECK(r.settings.excluded(base + "/vendor/x/main.tf"));
    CHECK_FALSE(r.settings.excluded(absolute_normal_path((tmp.path / "repo/vendor/main.tf").string())));
}

TEST_CASE("extend cycles and missing files are errors", "[lint][settings]") {
    TempDir tmp;
    tmp.write("a.toml", "extend = \"b.toml\"\n");
    tmp.write("b.toml", "extend = \"a.toml\"\n");
    auto r = load_settings((tmp.path / "a.toml").string());
    CHECK_FALSE(r.ok());
    auto missing = load_settings((tmp.path / "nope.toml").string());
    CHECK_FALSE(missing.ok());
}

TEST_CASE("the nearest settings file is found up to the repository root", "[lint][settings]") {
    TempDir tmp;
    tmp.write("outside/.tfsift.toml", "");
    tmp.write("outside/repo/.git/HEAD", "ref: refs/heads/main\n");
    tmp.write("outside/repo/modules/a/main.tf", "");
    // Nothing inside the repository: the file above the repository root is not used.
    CHECK(find_settings_file((tmp.path / "outside/repo/modules/a").string()).empty());
    tmp.write("outside/repo/.tfsift.toml", "");
    CHECK(find_settings_file((tmp.path / "outside/repo/modules/a/main.tf").string()) ==
          (fs::path(absolute_normal_path((tmp.path / "outside/repo").string())) / ".tfsift.toml").generic_string());
    tmp.write("outside/repo/modules/.tfsift.toml", "");
    CHECK(fs::path(find_settings_file((tmp.path / "outside/repo/modules/a").string())).parent_path().filename() ==
          "modules");
}

TEST_CASE("engine_version is a version the required_version check can use", "[lint][settings]") {
    auto ok = parse_settings("a.toml", "engine_version = \"1.9.5\"\n");
    REQUIRE(ok.ok());
    CHECK(ok.settings.engine_version == std::optional<std::string>("1.9.5"));
    CHECK(!parse_settings("a.toml", "").settings.engine_version);

    auto bad = parse_settings("a.toml", "\nengine_version = \"latest\"\n");
    REQUIRE(bad.errors.size() == 1);
    CHECK(bad.errors[0].line == 2);
    CHECK_THAT(bad.errors[0].message, Catch::Contains("engine_version"));
    CHECK(parse_settings("a.toml", "engine_version = 1.9\n").errors.size() == 1);
}

TEST_CASE("absolute_normal_path agrees with the lexically normal absolute path", "[lint][settings]") {
    // What the by-hand normalization has to reproduce.
    auto reference = [](const std::string& path) {
        std::string out = std::filesystem::absolute(std::filesystem::path(path)).lexically_normal().generic_string();
        while (out.size() > 1 && out.back() == '/') out.pop_back();
        return out;
    };
    const std::vector<std::string> paths = {"/",
                                            "//",
                                            "/a",
                                            "/a/",
                                            "/a//b",
                                            "//a/b",
                                            "/a/./b",
                                            "/a/b/.",
                                            "/a/b/..",
                                            "/a/../..",
                                            "/..",
                                            "/../a",
                                            "/a/b/../../c/./d/",
                                            "/a/.b/..c/...",
                                            "a",
                                            "a/b",
                                            "./a",
                                            "../a",
                                            "../../..",
                                            ".",
                                            "..",
                                            "a/../..",
                                            "a//b/./c/",
                                            "env/prod/../../modules/vpc",
                                            "x/.terraform.lock.hcl"};
    for (const auto& p : paths) {
        INFO(p);
        CHECK(absolute_normal_path(p) == reference(p));
    }
}
