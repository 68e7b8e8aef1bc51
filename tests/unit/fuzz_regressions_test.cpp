// Parses every input in fixtures/fuzz-regressions/ (crashes the fuzzer once
// found, and hostile inputs written by hand) and prints its parse dump, as
// the fuzz target does. The parser must survive it with a coherent result: no
// exception, a body, every position inside the file and on the right line,
// and a dump that counts the same errors as the diagnostics.
//
// The inputs of the other formats live in fixtures/fuzz-regressions/<format>/
// and are replayed through the checks their fuzz targets make
// (fuzz/format_checks.hpp).
//
// The test cases are hidden from the plain `unit` run and registered as its own
// ctest entry `fuzz-regressions` (tests/conformance/tests.cmake): an input
// that still crashes then fails that entry alone instead of aborting the
// whole unit-test binary.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "../../fuzz/format_checks.hpp"
#include "support/json_syntax.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/dump.hpp"
#include "tfsift/source.hpp"

namespace fs = std::filesystem;
using namespace tfsift;

namespace {

std::vector<fs::path> regression_inputs() {
    std::vector<fs::path> inputs;
    for (const auto& entry : fs::directory_iterator(fs::path(TFSIFT_SOURCE_DIR) / "fixtures" / "fuzz-regressions")) {
        if (entry.is_regular_file() && entry.path().filename() != "README.md") inputs.push_back(entry.path());
    }
    std::sort(inputs.begin(), inputs.end());
    return inputs;
}

// Collects the positions that are wrong: outside the file, or carrying a
// line number that does not match their byte offset.
class PositionChecker {
public:
    explicit PositionChecker(const SourceFile& source) : source_(source) {}

    void range(const Range& r, const char* what) {
        pos(r.start, what);
        pos(r.end, what);
        if (r.start.byte > r.end.byte) problem(what, "starts after it ends", r.start);
    }

    void body(const hcl::Body& b, int depth = 0) {
        range(b.range, "body");
        for (const auto& a : b.attributes) {
            range(a.range, "attribute");
            range(a.name_range(), "attribute name");
            if (a.expr == nullptr) {
                problems_.emplace_back("attribute without an expression");
            } else {
                expr(*a.expr);
            }
        }
        for (const auto& blk : b.blocks) {
            range(blk.type_range(), "block type");
            for (const auto& l : blk.labels) range(l.range, "block label");
            // Deeply nested blocks would make this recursion as deep as the
            // parser's; the parser's depth limit keeps both bounded.
            if (depth < 2 * hcl::max_nesting_depth) body(blk.body, depth + 1);
        }
    }

    void expr(const hcl::Expr& e) {
        // An explicit stack: a long left-leaning operator chain can be deeper
        // than any nesting limit.
        std::vector<const hcl::Expr*> todo{&e};
        while (!todo.empty()) {
            const hcl::Expr* x = todo.back();
            todo.pop_back();
            range(x->range, "expression");
            hcl::for_each_child(*x, [&](const hcl::Expr& child) { todo.push_back(&child); });
        }
    }

    [[nodiscard]] const std::vector<std::string>& problems() const { return problems_; }

private:
    void pos(const Pos& p, const char* what) {
        if (p.byte > source_.size()) {
            problem(what, "lies beyond the end of the file", p);
        }
    }
    void problem(const char* what, const char* msg, const Pos& p) {
        if (problems_.size() < 20) {
            problems_.push_back(std::string(what) + " " + msg + " (byte " + std::to_string(p.byte) + ")");
        }
    }

    const SourceFile& source_;
    std::vector<std::string> problems_;
};

}  // namespace

TEST_CASE("the parser survives every fuzz regression input", "[.][hcl][fuzz-regressions]") {
    auto inputs = regression_inputs();
    REQUIRE_FALSE(inputs.empty());
    for (const auto& path : inputs) {
        INFO("input: fixtures/fuzz-regressions/" << path.filename().string());
        auto source = SourceFile::read(path.string());
        hcl::File file;
        REQUIRE_NOTHROW(file = hcl::parse(source));
        REQUIRE(file.body != nullptr);

        PositionChecker check(*source);
        check.body(*file.body);
        for (const auto& d : file.diagnostics) {
            if (d.subject) check.range(*d.subject, "diagnostic subject");
            if (d.context) check.range(*d.context, "diagnostic context");
            CHECK_FALSE(d.summary.empty());
        }
        for (const auto& c : file.comments) check.range(c.range, "comment");
        for (const auto& p : check.problems()) UNSCOPED_INFO(p);
        CHECK(check.problems().empty());

        // The printer of `tfsift debug parse` must give well-formed JSON.
        std::string text;
        REQUIRE_NOTHROW(text = hcl::dump_file_text(file, false));
        CHECK(tfsift::testing::is_json_syntax(text));
        // It counts the same errors as the diagnostics.
        auto errors = std::count_if(file.diagnostics.begin(), file.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.severity == Severity::error; });
        CHECK(text.rfind("{\"errors\": " + std::to_string(errors) + ",", 0) == 0);
    }
}

TEST_CASE("every input format survives its fuzz regression inputs", "[.][fuzz-regressions]") {
    using Check = fuzzing::Problems (*)(std::string_view);
    const std::pair<const char*, Check> formats[] = {
        {"tf-json", &fuzzing::check_tf_json},
        {"lock", &fuzzing::check_lock_file},
        {"settings", &fuzzing::check_settings},
        {"state", &fuzzing::check_state_file},
        {"tfrc", &fuzzing::check_cli_config},
        {"registry-json", &fuzzing::check_registry_documents},
        {"mirror-json", &fuzzing::check_mirror_documents},
        {"settings-keys", &fuzzing::check_deep_key_settings},
        {"lsp", &fuzzing::check_lsp_stream},
    };
    for (const auto& [format, check] : formats) {
        const fs::path dir = fs::path(TFSIFT_SOURCE_DIR) / "fixtures" / "fuzz-regressions" / format;
        std::vector<fs::path> inputs;
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.is_regular_file()) inputs.push_back(entry.path());
        }
        std::sort(inputs.begin(), inputs.end());
        INFO("format: " << format);
        REQUIRE_FALSE(inputs.empty());
        for (const auto& path : inputs) {
            INFO("input: fixtures/fuzz-regressions/" << format << "/" << path.filename().string());
            auto source = SourceFile::read(path.string());
            fuzzing::Problems problems;
            REQUIRE_NOTHROW(problems = check(source->text()));
            for (const auto& p : problems) UNSCOPED_INFO(p);
            CHECK(problems.empty());
        }
    }
}
