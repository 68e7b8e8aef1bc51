// The load cache: a load takes the parse of every file whose text is
// unchanged, parses the changed ones, and ends with the tree a load without
// the cache makes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "../support/scratch_dir.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/load_cache.hpp"
#include "tfsift/config/module_tree.hpp"

using namespace tfsift;
using namespace tfsift::config;
namespace fs = std::filesystem;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

namespace {

// The parse of each file of the root module and of its child, by name.
std::map<std::string, const ParsedFile*> parses(const LoadedTree& tree) {
    std::map<std::string, const ParsedFile*> out;
    for (const auto& f : tree.files) out[f->source->path()] = f.get();
    return out;
}

std::string diagnostics_text(const LoadedTree& tree) {
    std::string out;
    for (const auto& d : tree.diagnostics) {
        out += d.diagnostic.filename + ": " + d.diagnostic.summary + "\n";
    }
    return out;
}

// What a load says: the effective document and the diagnostics.
std::string outcome(const LoadedTree& tree) {
    REQUIRE(tree.root);
    return module_to_json(*tree.root).dump() + "\n" + diagnostics_text(tree);
}

}  // namespace

TEST_CASE("load cache: only changed files are parsed again, the tree is a fresh load's", "[config][load-cache]") {
    ScratchDir s("tfsift-load-cache");
    const fs::path root = fs::canonical(s.path);
    write_file(root / "main.tf", "module \"child\" {\n  source = \"./child\"\n  size = var.size\n}\n");
    write_file(root / "variables.tf", "variable \"size\" {\n  type = number\n}\n");
    write_file(root / "override.tf", "variable \"size\" {\n  default = 1\n}\n");
    write_file(root / "child/main.tf", "variable \"size\" {}\noutput \"size\" {\n  value = var.size\n}\n");

    auto overlays = std::make_shared<FileOverlays>();
    (*overlays)[(root / "main.tf").string()] = "module \"child\" {\n  source = \"./child\"\n  size = var.size\n}\n";
    auto cache = std::make_shared<LoadCache>();
    TreeOptions options;
    options.read_policy.root = root.string();
    options.read_policy.overlays = overlays;
    options.cache = cache;
    TreeOptions uncached = options;
    uncached.cache = nullptr;

    const LoadedTree first = load_module_tree(root.string(), options);
    REQUIRE(first.root);
    CHECK(cache->size().files == 4);
    const auto before = parses(first);
    REQUIRE(before.size() == 4);

    // The same texts again: every parse is the one kept.
    const LoadedTree again = load_module_tree(root.string(), options);
    CHECK(parses(again) == before);
    CHECK(outcome(again) == outcome(first));

    // An edit of the buffer (into a syntax error, then a new call): that
    // file alone is parsed again, and the tree is what a fresh load gives.
    (*overlays)[(root / "main.tf").string()] = "module \"child\" {\n  source = \"./child\"\n  size = \n}\n";
    {
        const LoadedTree edited = load_module_tree(root.string(), options);
        const auto now = parses(edited);
        CHECK(now.at("main.tf") != before.at("main.tf"));
        CHECK(now.at("variables.tf") == before.at("variables.tf"));
        CHECK(now.at("override.tf") == before.at("override.tf"));
        CHECK(now.at("child/main.tf") == before.at("child/main.tf"));
        CHECK(diagnostics_text(edited).find("main.tf: ") != std::string::npos);
        CHECK(outcome(edited) == outcome(load_module_tree(root.string(), uncached)));
    }
    (*overlays)[(root / "main.tf").string()] =
        "module \"child\" {\n  source = \"./child\"\n  size = var.size\n}\nmodule \"other\" {\n  source = \"./child\"\n}\n";
    const LoadedTree second_call = load_module_tree(root.string(), options);
    CHECK(outcome(second_call) == outcome(load_module_tree(root.string(), uncached)));
    CHECK(second_call.root->children.size() == 2);

    // A file changed on disk is read and parsed again, the others are not.
    write_file(root / "variables.tf", "variable \"size\" {\n  type = string\n}\n");
    const LoadedTree disk = load_module_tree(root.string(), options);
    CHECK(parses(disk).at("variables.tf") != before.at("variables.tf"));
    CHECK(parses(disk).at("override.tf") == before.at("override.tf"));
    CHECK(module_to_json(*disk.root).dump().find("string") != std::string::npos);
    CHECK(outcome(disk) == outcome(load_module_tree(root.string(), uncached)));

    // Forgetting frees the entries; the next load parses them again.
    const std::size_t kept = cache->size().files;
    cache->forget_file((root / "override.tf").string());
    CHECK(cache->size().files == kept - 1);
    cache->forget_directory((root / "child").string());
    CHECK(cache->size().directories == 0);
    cache->clear();
    CHECK(cache->size().files == 0);
    const LoadedTree after = load_module_tree(root.string(), options);
    CHECK(parses(after).at("override.tf") != before.at("override.tf"));
    CHECK(outcome(after) == outcome(disk));
}
