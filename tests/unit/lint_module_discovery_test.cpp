#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "tfsift/config/module_tree.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_discovery.hpp"

namespace fs = std::filesystem;
using namespace tfsift;
using namespace tfsift::lint;

namespace {

struct Tree {
    fs::path root = fs::temp_directory_path() / ("tfsift-discovery-" + std::to_string(::getpid()));
    Tree() { fs::create_directories(root); }
    ~Tree() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    void write(const std::string& rel, const std::string& text = "") const {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << text;
    }
    [[nodiscard]] std::string at(const std::string& rel) const { return (root / rel).string(); }
};

std::vector<std::string> names(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& p : paths) out.push_back(fs::path(p).filename().string());
    return out;
}

}  // namespace

TEST_CASE("configuration files of a module, with OpenTofu shadowing", "[lint][discovery]") {
    Tree t;
    t.write("m/main.tf");
    t.write("m/vars.tf");
    t.write("m/vars.tofu");
    t.write("m/extra.tf.json", "{}");
    t.write("m/.hidden.tf");
    t.write("m/backup.tf~");
    t.write("m/README.md");
    Settings none;
    CHECK(names(module_config_files(t.at("m"), Engine::terraform, none)) ==
          std::vector<std::string>{"extra.tf.json", "main.tf", "vars.tf"});
    CHECK(names(module_config_files(t.at("m"), Engine::opentofu, none)) ==
          std::vector<std::string>{"extra.tf.json", "main.tf", "vars.tofu"});
    CHECK(detect_engine(t.at("m")) == Engine::opentofu);
}

TEST_CASE("engine detection from the lock file header", "[lint][discovery]") {
    Tree t;
    t.write("a/main.tf");
    t.write("a/.terraform.lock.hcl", "# This file is maintained automatically by \"tofu init\".\n");
    t.write("b/main.tf");
    t.write("b/.terraform.lock.hcl", "# This file is maintained automatically by \"terraform init\".\n");
    CHECK(detect_engine(t.at("a")) == Engine::opentofu);
    CHECK(detect_engine(t.at("b")) == Engine::terraform);
}

TEST_CASE("module directories below a root skip hidden and excluded ones", "[lint][discovery]") {
    Tree t;
    t.write("main.tf");
    t.write("modules/net/main.tf");
    t.write("modules/empty/README.md");
    t.write(".terraform/modules/x/main.tf");
    t.write("examples/demo/main.tf");
    auto settings = parse_settings(t.at(".tfsift.toml"), "exclude = [\"examples\"]\n");
    REQUIRE(settings.ok());
    auto dirs = find_module_dirs(t.root.string(), settings.settings);
    REQUIRE(dirs.size() == 2);
    CHECK(dirs[0] == t.root.string());
    CHECK(fs::path(dirs[1]).filename() == "net");
}

TEST_CASE("the listings of module discovery serve the later steps of the scan", "[lint][discovery]") {
    Tree t;
    t.write("a/main.tf");
    t.write("a/.terraform.lock.hcl", "# This file is maintained automatically by \"tofu init\".\n");
    t.write("b/main.tf");
    t.write(".hidden/main.tf");
    std::vector<std::string> problems;
    ScanListings listings;
    const auto dirs = find_module_dirs(t.root.string(), Settings{}, problems, &listings);
    REQUIRE(dirs.size() == 2);
    REQUIRE(problems.empty());
    // Every directory listed is kept by its absolute path, the hidden one
    // (never descended into) not.
    const auto a = listings.find(t.at("a"));
    REQUIRE(a);
    CHECK(a->size() == 2);
    CHECK(listings.find(t.root.string()));
    CHECK_FALSE(listings.find(t.at(".hidden")));
    CHECK(detect_engine(t.at("a"), &listings) == Engine::opentofu);
    CHECK(detect_engine(t.at("b"), &listings) == Engine::terraform);
    // Files do not change within a scan: what the scan listed is taken as
    // it was, and a later scan lists again.
    t.write("b/extra.tofu");
    CHECK(detect_engine(t.at("b"), &listings) == Engine::terraform);
    CHECK(detect_engine(t.at("b")) == Engine::opentofu);
}

TEST_CASE("listings of a root named through a link are found by real path too", "[lint][discovery]") {
    Tree t;
    t.write("real/a/main.tf");
    t.write("real/a/inner/main.tf");
    fs::create_directory_symlink(t.root / "real", t.root / "link");
    std::vector<std::string> problems;
    ScanListings listings;
    const auto dirs = find_module_dirs(t.at("link"), Settings{}, problems, &listings);
    REQUIRE(dirs.size() == 2);
    // As named, and as the loader knows them (symbolic links resolved).
    const std::string real = fs::canonical(t.root / "real").string();
    for (const std::string rel : {"", "/a", "/a/inner"}) {
        CAPTURE(rel);
        const auto named = listings.find(t.at("link") + rel);
        REQUIRE(named);
        CHECK(listings.find(real + rel) == named);
    }
}

TEST_CASE("module directories are found alike on one thread and on several", "[lint][discovery]") {
    Tree t;
    // A tree wide and deep enough that several threads share it.
    for (int i = 0; i < 30; ++i) {
        const std::string branch = "b" + std::to_string(i);
        t.write(branch + "/main.tf");
        t.write(branch + "/deep/er/still/main.tf.json", "{}");
        t.write(branch + "/docs/README.md");
        if (i % 3 == 0) t.write(branch + "/.terraform/modules/x/main.tf");
    }
    auto settings = parse_settings(t.at(".tfsift.toml"), "exclude = [\"b1*\"]\n");
    REQUIRE(settings.ok());
    std::vector<std::string> problems;
    ScanListings one;
    ScanListings four;
    const auto serial = find_module_dirs(t.root.string(), settings.settings, problems, &one, 1);
    const auto parallel = find_module_dirs(t.root.string(), settings.settings, problems, &four, 4);
    CHECK(problems.empty());
    // b1 and b10-b19 excluded: 19 branches of two module directories each.
    CHECK(serial.size() == 38);
    CHECK(parallel == serial);
    CHECK(std::is_sorted(parallel.begin(), parallel.end()));
    for (const auto& dir : serial) CHECK(four.find(dir));
}

TEST_CASE("the loader takes a module directory's files from the scan's listing", "[lint][discovery]") {
    Tree t;
    t.write("main.tf", "module \"net\" {\n  source = \"./net\"\n}\n");
    t.write("net/main.tf", "variable \"a\" {}\n");
    // Listings are kept by real path: discovery starts from the real one.
    const std::string root = fs::canonical(t.root).string();
    std::vector<std::string> problems;
    ScanListings listings;
    REQUIRE(find_module_dirs(root, Settings{}, problems, &listings).size() == 2);
    // A file that appears after the listing is not part of this scan.
    t.write("net/later.tf", "variable \"b\" {}\n");
    const std::uint64_t scan = config::new_scan_id();
    auto within = load_for_lint(root, Engine::terraform, Settings{}, {}, nullptr, nullptr, scan, &listings);
    REQUIRE(within.root != nullptr);
    const config::LoadedModule& net = within.root->children.at("net");
    CHECK(net.module->variables.size() == 1);
    CHECK(net.files.size() == 1);
    // A load outside the scan lists the directory again.
    auto later = load_for_lint(root, Engine::terraform, Settings{});
    REQUIRE(later.root != nullptr);
    CHECK(later.root->children.at("net").module->variables.size() == 2);
}
