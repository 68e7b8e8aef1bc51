// The module tree's bounds: cycles cut where they close, a bound on modules,
// and at most max_diagnostics_per_kind diagnostics of one kind per file.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tfsift/config/module_tree.hpp"

using namespace tfsift::config;
using tfsift::Diagnostics;
using tfsift::Engine;
using tfsift::SourceFile;
namespace fs = std::filesystem;

namespace {

struct ScratchDir {
    fs::path path;
    explicit ScratchDir(const std::string& name)
        : path(fs::temp_directory_path() / ("tfsift-" + name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() { fs::remove_all(path); }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

std::size_t count_summary(const LoadedTree& tree, const std::string& summary) {
    std::size_t n = 0;
    for (const auto& d : tree.diagnostics) n += d.diagnostic.summary == summary ? 1 : 0;
    return n;
}

std::size_t count_modules(const LoadedModule& m) {
    std::size_t n = 1;
    for (const auto& [name, child] : m.children) n += count_modules(child);
    return n;
}

}  // namespace

TEST_CASE("module tree: a call cycle is cut where it closes", "[config][bounds]") {
    ScratchDir dir("cycle");
    std::ofstream(dir.path / "main.tf")
        << "module \"a\" {\n  source = \"./\"\n}\nmodule \"b\" {\n  source = \"./\"\n}\n"
           "module \"c\" {\n  source = \"./m\"\n}\n";
    fs::create_directories(dir.path / "m");
    std::ofstream(dir.path / "m" / "main.tf") << "module \"back\" {\n  source = \"../\"\n}\n";
    LoadedTree tree = load_module_tree(dir.path.string());
    REQUIRE(tree.root);
    // The root and module.c: the calls back to the root are not followed.
    CHECK(count_modules(*tree.root) == 2);
    CHECK(tree.root->children.count("c") == 1);
    CHECK(count_summary(tree, "Module call cycle") == 3);
}

TEST_CASE("module tree: a bound on the number of modules", "[config][bounds]") {
    ScratchDir dir("fanout");
    // Each of 8 directories calls the next one 3 times: 3^8 modules without a cycle.
    for (int i = 0; i < 8; ++i) {
        fs::create_directories(dir.path / ("d" + std::to_string(i)));
        std::ofstream out(dir.path / ("d" + std::to_string(i)) / "main.tf");
        for (int k = 0; k < 3; ++k) out << "module \"m" << k << "\" {\n  source = \"../d" << i + 1 << "\"\n}\n";
    }
    fs::create_directories(dir.path / "d8");
    std::ofstream(dir.path / "d8" / "main.tf") << "locals {}\n";
    TreeOptions options;
    options.max_modules = 100;
    LoadedTree tree = load_module_tree((dir.path / "d0").string(), options);
    REQUIRE(tree.root);
    CHECK(count_modules(*tree.root) == 100);
    CHECK(count_summary(tree, "Too many modules") == 1);
    CHECK(tree.has_errors());
}

TEST_CASE("module tree: at most 100 diagnostics of a kind per file, then one for the rest", "[config][bounds]") {
    ScratchDir dir("diags");
    {
        std::ofstream out(dir.path / "main.tf");
        for (int i = 0; i < 250; ++i) out << "bogus_" << i << " {\n}\n";
        out << "locals {\n  a = 1\n  a = 2\n}\n";
    }
    LoadedTree tree = load_module_tree(dir.path.string());
    CHECK(count_summary(tree, "Unsupported block type") == max_diagnostics_per_kind);
    REQUIRE(count_summary(tree, "Too many diagnostics") == 1);
    for (const auto& d : tree.diagnostics) {
        if (d.diagnostic.summary != "Too many diagnostics") continue;
        CHECK(d.diagnostic.detail.find("150 more \"Unsupported block type\" diagnostics") != std::string::npos);
        REQUIRE(d.source);
        CHECK(d.source->line(d.diagnostic.subject->start) == 201);  // the first one left out
    }
    // Other kinds in the same file are counted on their own.
    CHECK(count_summary(tree, "Duplicate local value definition") + count_summary(tree, "Attribute redefined") >= 1);
}

TEST_CASE("decoding keeps 100 diagnostics of a kind and counts the rest as it goes", "[config][bounds]") {
    std::string text;
    for (int i = 0; i < 250; ++i) text += "bogus_" + std::to_string(i) + " {}\n";  // lines 1-250
    for (int i = 0; i < 150; ++i) {                                                // lines 251-400
        text += "variable \"v" + std::to_string(i) + "\" { nope = 1 }\n";
    }
    auto parsed = parse_config_file(std::make_shared<SourceFile>("main.tf", text), FileSyntax::native);
    Diagnostics diags;
    std::vector<LeftOutDiagnostics> left_out;
    const ConfigFile file = decode_config_file(*parsed, false, diags, Engine::terraform, &left_out);
    CHECK(file.variables.size() == 150);
    std::size_t blocks = 0;
    std::size_t arguments = 0;
    for (const auto& d : diags) {
        blocks += d.summary == "Unsupported block type" ? 1 : 0;
        arguments += d.summary == "Unsupported argument" ? 1 : 0;
    }
    CHECK(blocks == max_diagnostics_per_kind);
    CHECK(arguments == max_diagnostics_per_kind);
    REQUIRE(left_out.size() == 2);
    CHECK(left_out[0].first.summary == "Unsupported block type");
    CHECK(left_out[0].count == 150);
    CHECK(parsed->source->line(left_out[0].first.subject->start) == 101);
    CHECK(left_out[1].first.summary == "Unsupported argument");
    CHECK(left_out[1].count == 50);
    CHECK(parsed->source->line(left_out[1].first.subject->start) == 351);

    // Without a place for what is left out, every diagnostic is kept.
    Diagnostics all;
    (void)decode_config_file(*parsed, false, all, Engine::terraform);
    CHECK(all.size() == 400);
}
