#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/scratch_dir.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_call_hint.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/hcl/block_text.hpp"

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

// Calls `visit` with the path and text of every native file of the corpus,
// the upstream test data and the rule fixtures.
template <class Visit>
void for_each_native_file(Visit visit) {
    namespace fs = std::filesystem;
    for (const fs::path& root : {fs::path(TFSIFT_SHARED_DIR) / "corpus", fs::path(TFSIFT_SHARED_DIR) / "conformance",
                                 fs::path(TFSIFT_SOURCE_DIR) / "fixtures"}) {
        std::error_code ec;
        for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (!it->is_regular_file() || !(name.ends_with(".tf") || name.ends_with(".tofu"))) continue;
            visit(it->path().string(), tfsift::testing::read_file(it->path()));
        }
    }
}

// The hint may say yes too often, never too rarely: every native file of the
// corpus, the rule fixtures and the upstream test data that it passes over
// declares no module call when parsed and decoded in full.
TEST_CASE("no file the hint passes over declares a module call", "[config][module-call-hint][corpus]") {
    std::size_t files = 0;
    std::size_t passed_over = 0;
    for_each_native_file([&](const std::string& path, std::string text) {
        ++files;
        if (may_declare_module_calls(text, FileSyntax::native)) return;
        ++passed_over;
        auto source = std::make_shared<const tfsift::SourceFile>(path, std::move(text));
        auto parsed = tfsift::config::parse_config_file(source, FileSyntax::native);
        tfsift::Diagnostics diags;
        const auto decoded = tfsift::config::decode_config_file(*parsed, false, diags, tfsift::Engine::opentofu);
        INFO(path);
        CHECK(decoded.module_calls.empty());
    });
    CHECK(files > 6000);
    CHECK(passed_over > files / 2);
}

TEST_CASE("the last place a module block may start", "[config][module-call-hint]") {
    using tfsift::config::last_module_block_start;
    const std::string text = "module \"a\" {}\nlocals {\n  b = module.a.x\n}\n  module b {\n}\noutput \"c\" {}\n";
    CHECK(last_module_block_start(text) == text.find("module b"));
    CHECK(last_module_block_start("a = \"${path.module}\"\n") == std::string::npos);
    CHECK(last_module_block_start("") == std::string::npos);
}

// The role scan reads a file's module blocks only up to the item after the
// last place one may start. On every native file of the corpus, the rule
// fixtures and the upstream test data, that gives the blocks reading the
// whole file gives; and where the whole file is not plainly well formed
// (it is then parsed in full), the same module calls as that parse.
TEST_CASE("reading module blocks up to the last start loses none", "[config][module-call-hint][corpus]") {
    using tfsift::hcl::top_level_blocks_text;
    const std::vector<std::string_view> kept{"source", "version"};
    auto calls_of = [](std::string path, std::string text) {
        auto source = std::make_shared<const tfsift::SourceFile>(std::move(path), std::move(text));
        auto parsed = tfsift::config::parse_config_file(source, FileSyntax::native);
        tfsift::Diagnostics diags;
        const auto decoded = tfsift::config::decode_config_file(*parsed, false, diags, tfsift::Engine::opentofu);
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& [call, declared] : decoded.module_calls) {
            out.emplace_back(call.name, call.source && call.source->value ? *call.source->value : std::string("-"));
        }
        return out;
    };
    std::size_t with_blocks = 0;
    for_each_native_file([&](const std::string& path, const std::string& text) {
        const std::size_t last = tfsift::config::last_module_block_start(text);
        INFO(path);
        CHECK((last != std::string::npos) == may_declare_module_calls(text, FileSyntax::native));
        if (last == std::string::npos) return;
        ++with_blocks;
        const auto whole = top_level_blocks_text(text, "module", kept);
        const auto cut = top_level_blocks_text(text, "module", kept, last);
        if (whole) {
            REQUIRE(cut);
            CHECK(*cut == *whole);
            return;
        }
        if (!cut) return;  // both parse the whole file
        CHECK(calls_of(path, *cut) == calls_of(path, text));
    });
    CHECK(with_blocks > 1500);
}

TEST_CASE("a local module source shows its bytes, an escape or a template", "[config][module-call-hint]") {
    using tfsift::config::may_name_local_source;
    CHECK(may_name_local_source("module \"a\" {\n  source = \"./a\"\n}\n"));
    CHECK(may_name_local_source("module \"a\" {\n  source = \"../a\"\n}\n"));
    CHECK(may_name_local_source("module \"a\" {\n  source = \"\\u002e/a\"\n}\n"));
    CHECK(may_name_local_source("module \"a\" {\n  source = \"${\".\"}/a\"\n}\n"));
    CHECK(may_name_local_source("module \"a\" {\n  source = \"%{if true}.%{endif}/a\"\n}\n"));
    CHECK_FALSE(may_name_local_source("module \"a\" {\n  source = \"hashicorp/consul/aws\"\n}\n"));
    CHECK_FALSE(may_name_local_source("module \"a\" {\n  source = \"git::https://example.com/a.git\"\n}\n"));
    CHECK(may_name_local_source("module \"a\" {\n  source = local.path\n}\n"));
    CHECK(may_name_local_source("module \"a\" { source = \"./a\" }\n"));
    // What other arguments and other places hold does not count.
    CHECK_FALSE(may_name_local_source("module \"a\" {\n  source = \"hashicorp/consul/aws\"\n  files = \"./x\"\n}\n"));
    CHECK_FALSE(
        may_name_local_source("module \"a\" {\n  source = \"hashicorp/consul/aws\"\n  name = \"${var.n}\"\n}\n"));
    CHECK_FALSE(may_name_local_source("data \"archive_file\" \"a\" {\n  source_dir = \"./lambda\"\n}\n"));
    CHECK_FALSE(may_name_local_source("locals {\n  data_source = var.x\n}\n# see ./README\n"));
}

// On every native file of the corpus, the rule fixtures and the upstream
// test data that the check passes over, no module call has a constant
// source that is a local path.
TEST_CASE("no file passed over for local sources calls a local module", "[config][module-call-hint][corpus]") {
    std::size_t with_calls = 0;
    std::size_t passed_over = 0;
    for_each_native_file([&](const std::string& path, std::string text) {
        if (!may_declare_module_calls(text, FileSyntax::native)) return;
        ++with_calls;
        if (tfsift::config::may_name_local_source(text)) return;
        ++passed_over;
        auto source = std::make_shared<const tfsift::SourceFile>(path, std::move(text));
        auto parsed = tfsift::config::parse_config_file(source, FileSyntax::native);
        tfsift::Diagnostics diags;
        const auto decoded = tfsift::config::decode_config_file(*parsed, false, diags, tfsift::Engine::opentofu);
        for (const auto& [call, declared] : decoded.module_calls) {
            INFO(path << ": module " << call.name);
            CHECK_FALSE(
                (call.source && call.source->value && tfsift::config::is_local_module_source(*call.source->value)));
            // Nor a source worked out from variables (calls_of_directory).
            CHECK_FALSE(call.dynamic_source.has_value());
        }
    });
    CHECK(passed_over > with_calls / 4);
}
