// Module directories shared between trees: a tree that reaches a directory
// another live tree loaded takes that load, unless its files changed; within
// one scan (TreeOptions::scan_id) a directory found unchanged is trusted for
// the rest of the scan, neither listed nor examined again, and the next scan
// examines it again.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "../support/scratch_dir.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_tree.hpp"

using namespace tfsift;
using namespace tfsift::config;
namespace fs = std::filesystem;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

namespace {

// The parse of `name` in `tree`; null when the tree has no such file.
const ParsedFile* parse_of(const LoadedTree& tree, const std::string& name) {
    for (const auto& f : tree.files) {
        if (f->source->path() == name) return f.get();
    }
    return nullptr;
}

struct TwoRoots {
    ScratchDir dir{"tfsift-module-sharing"};
    fs::path root;
    TwoRoots() : root(fs::canonical(dir.path)) {
        write_file(root / "a/main.tf", "module \"m\" {\n  source = \"../shared\"\n}\n");
        write_file(root / "b/main.tf", "module \"m\" {\n  source = \"../shared\"\n}\n");
        write_file(root / "shared/main.tf", "variable \"x\" {}\n");
    }
    [[nodiscard]] LoadedTree load(const std::string& target, std::uint64_t scan) const {
        TreeOptions options;
        options.read_policy.root = root.string();
        options.scan_id = scan;
        return load_module_tree((root / target).string(), options);
    }
};

const char* const shared_file = "../shared/main.tf";

}  // namespace

TEST_CASE("module sharing: a tree takes a live tree's load of a directory, not a changed one",
          "[config][module-tree]") {
    TwoRoots t;
    const LoadedTree a = t.load("a", 0);
    const ParsedFile* first = parse_of(a, shared_file);
    REQUIRE(first != nullptr);
    const LoadedTree b = t.load("b", 0);
    CHECK(parse_of(b, shared_file) == first);

    // Outside a scan every load examines the files.
    write_file(t.root / "shared/main.tf", "variable \"x\" {}\nvariable \"y\" {}\n");
    const LoadedTree again = t.load("b", 0);
    const ParsedFile* reread = parse_of(again, shared_file);
    REQUIRE(reread != nullptr);
    CHECK(reread != first);
    CHECK(reread->source->text().find("variable \"y\"") != std::string_view::npos);
}

TEST_CASE("module sharing: one scan examines a shared directory once, the next scan again", "[config][module-tree]") {
    TwoRoots t;
    const std::uint64_t scan = new_scan_id();
    CHECK(new_scan_id() != scan);
    const LoadedTree a = t.load("a", scan);
    const ParsedFile* first = parse_of(a, shared_file);
    REQUIRE(first != nullptr);
    const LoadedTree b = t.load("b", scan);
    CHECK(parse_of(b, shared_file) == first);

    // The scan holds that its files do not change: a change made during it
    // anyway is not looked for.
    // Nor is the directory listed again for a file added during it.
    write_file(t.root / "shared/main.tf", "variable \"x\" {}\nvariable \"y\" {}\n");
    write_file(t.root / "shared/extra.tf", "variable \"z\" {}\n");
    const LoadedTree same_scan = t.load("b", scan);
    CHECK(parse_of(same_scan, shared_file) == first);
    CHECK(parse_of(same_scan, "../shared/extra.tf") == nullptr);

    const LoadedTree next_scan = t.load("b", new_scan_id());
    const ParsedFile* reread = parse_of(next_scan, shared_file);
    REQUIRE(reread != nullptr);
    CHECK(reread != first);
    CHECK(reread->source->text().find("variable \"y\"") != std::string_view::npos);
    CHECK(parse_of(next_scan, "../shared/extra.tf") != nullptr);
}

TEST_CASE("module sharing: a scan resolves a module directory's name once", "[config][module-tree]") {
    TwoRoots t;
    const std::uint64_t scan = new_scan_id();
    const LoadedTree a = t.load("a", scan);
    const ParsedFile* first = parse_of(a, shared_file);
    REQUIRE(first != nullptr);

    // The name `a/../shared` now leads to another directory: within the
    // scan it still stands for the one it named first; the next scan
    // follows it.
    fs::rename(t.root / "shared", t.root / "old-shared");
    write_file(t.root / "elsewhere/main.tf", "variable \"moved\" {}\n");
    fs::create_directory_symlink(t.root / "elsewhere", t.root / "shared");
    const LoadedTree same_scan = t.load("a", scan);
    CHECK(parse_of(same_scan, shared_file) == first);

    const LoadedTree next_scan = t.load("a", new_scan_id());
    const ParsedFile* moved = parse_of(next_scan, shared_file);
    REQUIRE(moved != nullptr);
    CHECK(moved->source->text().find("variable \"moved\"") != std::string_view::npos);
}
