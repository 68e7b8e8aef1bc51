#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>

#include "support/scratch_dir.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_call_hint.hpp"

using tfsift::config::FileSyntax;
using tfsift::config::may_declare_module_calls;

TEST_CASE("a module block is seen from the text", "[config][module-call-hint]") {
    CHECK(may_declare_module_calls("module \"vpc\" {\n  source = \"./vpc\"\n}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("module vpc {\n}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("/* x */module \"a\" {}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("locals {\n  a = 1\n}\nmodule \"b\" {}", FileSyntax::native));
    CHECK(may_declare_module_calls("\t  module\t\"a\" {}\r\n", FileSyntax::native));
    CHECK(may_declare_module_calls("a = 1\r\nmodule \"a\" {}\r\n", FileSyntax::native));
    CHECK(may_declare_module_calls("module /* c */ \"a\" {}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("/* one\n two */ module \"a\" {}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("\xEF\xBB\xBFmodule \"a\" {}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("module{}\n", FileSyntax::native));
    // A line of a heredoc that looks like a block: parsed, and the parse decides.
    CHECK(may_declare_module_calls("a = <<EOT\nmodule \"x\" {\nEOT\n", FileSyntax::native));
    CHECK(may_declare_module_calls("{\"module\": {\"a\": {\"source\": \"./a\"}}}", FileSyntax::json));
    CHECK(may_declare_module_calls("{\"modul\\u0065\": {}}", FileSyntax::json));
}

TEST_CASE("names and traversals holding `module` are not module blocks", "[config][module-call-hint]") {
    CHECK_FALSE(may_declare_module_calls("", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("a = \"${path.module}/x\"\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("output \"id\" {\n  value = module.vpc.id\n}\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls(
        "variable \"modules\" {}\nvariable \"my_module\" {}\nvariable \"module-x\" {}\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("{\"resource\": {}}", FileSyntax::json));
}

TEST_CASE("the word `module` inside a line or alone on it starts no block", "[config][module-call-hint]") {
    // A body item starts a line; after an argument on the same line the
    // parser wants a newline, and a block needs a label or a brace on its
    // own line.
    CHECK_FALSE(may_declare_module_calls("description = \"the module\"\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("a = 1 module \"x\" {}\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("locals {\n  a = 1\n}\nmodule", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("module\n\"a\" {}\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("module = 1\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("  module = {\n}\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("# the module \"x\" below\n", FileSyntax::native));
}

TEST_CASE("a long line of module words is read once", "[config][module-call-hint]") {
    std::string line = "x = [";
    for (int i = 0; i < 200000; ++i) line += "\"module\", ";
    line += "]\n";
    CHECK_FALSE(may_declare_module_calls(line, FileSyntax::native));
    CHECK(may_declare_module_calls(line + "module \"a\" {}\n", FileSyntax::native));
}

// The hint may say yes too often, never too rarely: every native file of the
// corpus, the rule fixtures and the upstream test data that it passes over
// declares no module call when parsed and decoded in full.
TEST_CASE("no file the hint passes over declares a module call", "[config][module-call-hint][corpus]") {
    namespace fs = std::filesystem;
    std::size_t files = 0;
    std::size_t passed_over = 0;
    for (const fs::path& root : {fs::path(TFSIFT_SHARED_DIR) / "corpus", fs::path(TFSIFT_SHARED_DIR) / "conformance",
                                 fs::path(TFSIFT_SOURCE_DIR) / "fixtures"}) {
        std::error_code ec;
        for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (!it->is_regular_file() || !(name.ends_with(".tf") || name.ends_with(".tofu"))) continue;
            std::string text = tfsift::testing::read_file(it->path());
            ++files;
            if (may_declare_module_calls(text, FileSyntax::native)) continue;
            ++passed_over;
            auto source = std::make_shared<const tfsift::SourceFile>(it->path().string(), std::move(text));
            auto parsed = tfsift::config::parse_config_file(source, FileSyntax::native);
            tfsift::Diagnostics diags;
            const auto decoded = tfsift::config::decode_config_file(*parsed, false, diags, tfsift::Engine::opentofu);
            INFO(it->path().string());
            CHECK(decoded.module_calls.empty());
        }
    }
    CHECK(files > 6000);
    CHECK(passed_over > files / 2);
}
