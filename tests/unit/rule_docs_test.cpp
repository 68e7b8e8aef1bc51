// docs/rules/<id>.md is generated from the rules' own documentation
// (`tfsift rule --all-markdown docs/rules`); this test keeps them in step.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;
using namespace tfsift::lint;

TEST_CASE("docs/rules matches the rules' documentation", "[lint][docs]") {
    fs::path dir = fs::path(TFSIFT_SOURCE_DIR) / "docs" / "rules";
    std::set<std::string> expected;
    for (const Rule& r : builtin_rules()) {
        INFO(r.id << ": regenerate with `tfsift rule --all-markdown docs/rules`");
        expected.insert(r.id + ".md");
        std::ifstream in(dir / (r.id + ".md"), std::ios::binary);
        REQUIRE(in);
        std::ostringstream text;
        text << in.rdbuf();
        CHECK(text.str() == rule_markdown(r));
        // The fixed form: every part is written.
        CHECK(!r.doc.summary.empty());
        CHECK(!r.doc.what.empty());
        CHECK(!r.doc.why.empty());
        CHECK(!r.doc.failing_example.empty());
        CHECK(!r.doc.passing_example.empty());
        CHECK(!r.doc.fix_safety.empty());
    }
    for (const auto& entry : fs::directory_iterator(dir)) {
        INFO("docs/rules holds a page for no rule");
        CHECK(expected.count(entry.path().filename().string()) == 1);
    }
}
