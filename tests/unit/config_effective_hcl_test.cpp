// The HCL form of the effective configuration, read back as a module.
#include <catch2/catch.hpp>

#include <fstream>

#include "support/scratch_dir.hpp"
#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/effective_hcl.hpp"
#include "tfsift/config/module_tree.hpp"

using namespace tfsift;
using namespace tfsift::config;

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// Loads `dir`, writes the root module's HCL into a fresh directory, and
// returns the HCL text and the document of that directory.
std::pair<std::string, nlohmann::json> round_trip(const std::filesystem::path& dir, const testing::ScratchDir& out) {
    LoadedTree tree = load_module_tree(dir.string());
    REQUIRE(tree.root);
    std::string text = module_hcl(*tree.root);
    write(out.path / "effective.tf", text);
    LoadedTree again = load_module_tree(out.path.string());
    REQUIRE(again.root);
    return {text, effective_document(again.root.get(), again.diagnostics)};
}

}  // namespace

TEST_CASE("effective HCL: one required_version per entry", "[config][effective-hcl]") {
    testing::ScratchDir in("tfsift-hcl-in");
    testing::ScratchDir out("tfsift-hcl-out");
    write(in.path / "a.tf", "terraform {\n  required_version = \">= 1.0, < 2.0\"\n}\n");
    write(in.path / "b.tf", "terraform {\n  required_version = \"~> 1.3\"\n}\n");
    auto [text, doc] = round_trip(in.path, out);
    INFO(text);
    CHECK(doc["diagnostics"].empty());
    const auto& rv = doc["root"]["terraform"]["required_version"];
    REQUIRE(rv.size() == 2);
    CHECK(rv[0]["constraints"] == nlohmann::json{">= 1.0", "< 2.0"});
    CHECK(rv[1]["constraints"] == nlohmann::json{"~> 1.3"});
}

TEST_CASE("effective HCL: JSON strings with escapes become native templates", "[config][effective-hcl]") {
    testing::ScratchDir in("tfsift-hcl-in");
    testing::ScratchDir out("tfsift-hcl-out");
    // Escaped quotes inside an interpolation, a quote, a slash and a
    // backslash in the literal part, and a literal `$${`.
    write(in.path / "main.tf.json", R"({"locals": {"x": "${upper(\"a}b\")}-\"q\" \/ \\ $${lit}"}})");
    auto [text, doc] = round_trip(in.path, out);
    INFO(text);
    CHECK(text.find(R"(x = "${upper("a}b")}-\"q\" / \\ $${lit}")") != std::string::npos);
    CHECK(doc["diagnostics"].empty());
    CHECK(doc["root"]["locals"]["x"]["expr"] == R"("${upper("a}b")}-\"q\" / \\ $${lit}")");
}
