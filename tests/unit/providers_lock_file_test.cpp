// The lock file reader and writer against Terraform's own results:
// ../shared/conformance/locks/cases (83 hand-made files with diagnostics and
// written bytes), ../shared/conformance/expected/locks/roundtrip.jsonl (every
// corpus lock file re-written by SaveLocksToBytes), the lock_label and
// lockfile fields of addresses.jsonl and constraints.jsonl, and spec 3.5.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "support/reference_data.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "tfsift/providers/lock_file.hpp"

using namespace tfsift;
using namespace tfsift::providers;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kShared = TFSIFT_SHARED_DIR;

using tfsift::testing::read_jsonl;

LockFileRead read_text(std::string text, Engine engine = Engine::terraform) {
    LockReadOptions options;
    options.engine = engine;
    options.core_version = "1.3.10";  // the version the vectors were recorded with
    return read_lock_file(std::make_shared<const SourceFile>(std::string(kLockFileName), std::move(text)), options);
}

// Our diagnostics in the vectors' shape.
json as_json(const LockFileRead& read) {
    json out = json::array();
    for (const auto& d : read.diagnostics) {
        json j{{"severity", d.severity == Severity::warning ? "warning" : "error"},
               {"summary", d.summary},
               {"detail", d.detail},
               {"line", nullptr},
               {"column", nullptr}};
        if (d.subject) {
            const auto pos = read.source->resolve(d.subject->start);
            j["line"] = pos.line;
            j["column"] = pos.column;
        }
        out.push_back(j);
    }
    return out;
}

// Where current Terraform differs from the v1.3.10 recording
// (docs/reference-differences.md): it accepts "_" in namespaces.
void apply_current_terraform(const std::string& name, json& expected) {
    if (name != "err_addr_bad_namespace") return;
    auto& diags = expected["diagnostics"];
    REQUIRE(diags.at(0)["line"] == 4);  // provider "example.com/my_org/foo"
    diags.erase(diags.begin());
    const std::string block = "\nprovider \"example.com/my_org/foo\" {\n  version = \"1.0.0\"\n}\n";
    expected["partial"] = expected["partial"].get<std::string>() + block;
}

}  // namespace

TEST_CASE("every hand-made lock file reads and writes as Terraform's depsfile does", "[providers][lock]") {
    const fs::path dir = kShared + "/conformance/locks/cases";
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const auto file = entry.path().filename().string();
        if (file.ends_with(".hcl")) names.insert(file.substr(0, file.size() - 4));
    }
    REQUIRE(names.size() == 83);
    int rewritten = 0;
    int partial = 0;
    int panics = 0;
    for (const auto& name : names) {
        INFO("case " << name);
        auto expected = json::parse(tfsift::testing::read_file_bytes(dir / (name + ".expected.json")));
        apply_current_terraform(name, expected);
        const auto read = read_text(tfsift::testing::read_file_bytes(dir / (name + ".hcl")));
        if (expected.contains("panic")) {
            // Terraform crashes on a number above 2^64-1; tfsift reports it.
            CHECK(read.has_errors());
            ++panics;
            continue;
        }
        CHECK(as_json(read).dump(1) == expected["diagnostics"].dump(1));
        const std::string written = write_lock_file(read.locks, Engine::terraform);
        if (!expected["rewritten"].is_null()) {
            CHECK_FALSE(read.has_errors());
            CHECK(written == expected["rewritten"].get<std::string>());
            ++rewritten;
        }
        if (expected.contains("partial")) {
            CHECK(read.has_errors());
            CHECK(written == expected["partial"].get<std::string>());
            ++partial;
        }
    }
    CHECK(panics == 2);
    CHECK(rewritten + partial + panics == 83);
}

TEST_CASE("every corpus lock file round-trips as SaveLocksToBytes writes it", "[providers][lock]") {
    const auto vectors = read_jsonl(kShared + "/conformance/expected/locks/roundtrip.jsonl");
    REQUIRE(vectors.size() == 113);
    int identical = 0;
    for (const auto& v : vectors) {
        const auto path = v["path"].get<std::string>();
        INFO("corpus file " << path);
        const auto input = tfsift::testing::read_file_bytes(kShared + "/corpus/" + path);
        const auto read = read_text(input);
        CHECK(as_json(read).dump(1) == v["diagnostics"].dump(1));
        const auto written = write_lock_file(read.locks, Engine::terraform);
        CHECK(written == v["rewritten"].get<std::string>());
        CHECK((written == input) == v["identical"].get<bool>());
        if (written == input) ++identical;
    }
    CHECK(identical == 112);
}

TEST_CASE("every recorded address reads as a lock label as Terraform reads it", "[providers][lock]") {
    const auto vectors = read_jsonl(kShared + "/conformance/providers/addresses.jsonl");
    REQUIRE(vectors.size() == 233);
    for (const auto& v : vectors) {
        const auto input = v["input"].get<std::string>();
        INFO("label " << input);
        const auto read = read_text("provider \"" + hcl_escape_string(input) + "\" {\n  version = \"1.0.0\"\n}\n");
        if (v.contains("current_differs") &&
            v["current_differs"].get<std::string>().find("'_' in namespaces") != std::string::npos) {
            // Current Terraform parses these (docs/reference-differences.md).
            CHECK(read.has_errors() == (read.locks.providers.empty()));
            continue;
        }
        const auto& label = v["lock_label"];
        CHECK(read.has_errors() == !label["accepted"].get<bool>());
        CHECK(as_json(read).dump(1) == label["diagnostics"].dump(1));
    }
}

TEST_CASE("every recorded constraints string reads as a lock entry's constraints", "[providers][lock]") {
    const auto vectors = read_jsonl(kShared + "/conformance/providers/constraints.jsonl");
    REQUIRE(vectors.size() == 229);
    for (const auto& v : vectors) {
        const auto input = v["input"].get<std::string>();
        INFO("constraints " << input);
        const auto read = read_text(
            "provider \"registry.terraform.io/hashicorp/example\" {\n  version     = "
            "\"1.0.0\"\n  constraints = \"" +
            hcl_escape_string(input) + "\"\n}\n");
        const auto& lockfile = v["lockfile"];
        if (lockfile.contains("panic")) {
            CHECK(read.has_errors());
            continue;
        }
        CHECK(read.has_errors() == !lockfile["accepted"].get<bool>());
        CHECK(as_json(read).dump(1) == lockfile["diagnostics"].dump(1));
    }
}

TEST_CASE("the spec's example is written byte for byte in both engines", "[providers][lock]") {
    auto parse = [](std::string_view s) { return *parse_provider_source(s, Engine::terraform).provider; };
    auto version = [](std::string_view s) { return *parse_version(s).version; };
    auto constraints = [](std::string_view s) { return *parse_constraints(s).constraints; };
    LockFile locks;
    auto add = [&](ProviderLock lock) { locks.providers.emplace(lock.provider, std::move(lock)); };
    VersionConstraints aws_constraints = constraints("~> 5.0");
    for (auto c : constraints(">= 4.0")) aws_constraints.push_back(c);
    add(make_provider_lock(
        parse("hashicorp/aws"), version("5.31.0"), aws_constraints,
        {"zh:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
         "h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse0=",
         "zh:8739c76e681f900923b900c9df0ef75cf421d39cabb54650c4b9ad19b6a76d85",
         "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse0="}));
    add(make_provider_lock(parse("hashicorp/random"), version("3.6.0"), {},
                           {"h1:w9tym9krrjcTH8grkpoiQYYV30CRpNeCVW0atYgG2Ns="}));
    add(make_provider_lock(parse("hashicorp/time"), version("0.9.1"), {}, {}));
    add(make_provider_lock(parse("example.com/acme/widget"), version("0.1.0-beta.2"), constraints("0.1.0-beta.2"),
                           {"h1:4tYJH0mr+wGqyBTvEzhjQuRN8RuzvgeIMw5DoGDBa5Y="}));
    const std::string expected =
        "# This file is maintained automatically by \"terraform init\".\n"
        "# Manual edits may be lost in future updates.\n"
        "\n"
        "provider \"example.com/acme/widget\" {\n"
        "  version     = \"0.1.0-beta.2\"\n"
        "  constraints = \"0.1.0-beta.2\"\n"
        "  hashes = [\n"
        "    \"h1:4tYJH0mr+wGqyBTvEzhjQuRN8RuzvgeIMw5DoGDBa5Y=\",\n"
        "  ]\n"
        "}\n"
        "\n"
        "provider \"registry.terraform.io/hashicorp/aws\" {\n"
        "  version     = \"5.31.0\"\n"
        "  constraints = \">= 4.0.0, ~> 5.0\"\n"
        "  hashes = [\n"
        "    \"h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\",\n"
        "    \"h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse0=\",\n"
        "    \"zh:8739c76e681f900923b900c9df0ef75cf421d39cabb54650c4b9ad19b6a76d85\",\n"
        "    \"zh:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\",\n"
        "  ]\n"
        "}\n"
        "\n"
        "provider \"registry.terraform.io/hashicorp/random\" {\n"
        "  version = \"3.6.0\"\n"
        "  hashes = [\n"
        "    \"h1:w9tym9krrjcTH8grkpoiQYYV30CRpNeCVW0atYgG2Ns=\",\n"
        "  ]\n"
        "}\n"
        "\n"
        "provider \"registry.terraform.io/hashicorp/time\" {\n"
        "  version = \"0.9.1\"\n"
        "}\n";
    CHECK(write_lock_file(locks, Engine::terraform) == expected);
    // Reading it back and writing again changes nothing.
    const auto again = read_text(expected);
    CHECK(again.diagnostics.empty());
    CHECK(write_lock_file(again.locks, Engine::terraform) == expected);

    std::string tofu = expected;
    tofu.replace(tofu.find("\"terraform init\""), 16, "\"tofu init\"");
    CHECK(write_lock_file(locks, Engine::opentofu) == tofu);
    CHECK(engine_of_lock_header(tofu) == Engine::opentofu);
    CHECK(engine_of_lock_header(expected) == Engine::terraform);
    CHECK(write_lock_file(LockFile{}, Engine::opentofu) ==
          "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n");
}

TEST_CASE("OpenTofu reads its own registry's addresses and names itself", "[providers][lock]") {
    const auto read = read_text(
        "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.31.0\"\n}\n"
        "provider \"opentofu.org/builtin/terraform\" {\n  version = \"1.0.0\"\n}\n"
        "module \"x\" {\n}\n",
        Engine::opentofu);
    REQUIRE(read.diagnostics.size() == 2);
    CHECK(read.diagnostics[0].summary == "Invalid provider source address");
    CHECK(read.diagnostics[0].detail.find("bundled inside OpenTofu itself") != std::string::npos);
    CHECK(read.diagnostics[1].detail.starts_with("OpenTofu v1.3.10 only supports"));
    CHECK(read.locks.providers.size() == 1);
}

TEST_CASE("a missing lock file is an empty set and a directory is an error", "[providers][lock]") {
    const auto tmp = fs::temp_directory_path() / ("tfsift-lock-test-" + std::to_string(::getpid()));
    fs::create_directories(tmp / "dir.hcl");
    const auto missing = load_lock_file(tmp / "absent.hcl");
    CHECK(missing.diagnostics.empty());
    CHECK(missing.locks.providers.empty());
    const auto dir = load_lock_file(tmp / "dir.hcl");
    REQUIRE(dir.diagnostics.size() == 1);
    CHECK(dir.diagnostics[0].summary == "Failed to read file");
    fs::remove_all(tmp);
}
