#include <catch2/catch.hpp>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/inline_ignores.hpp"

using namespace tfsift;
using namespace tfsift::lint;

namespace {

hcl::File parse(const std::string& text) { return hcl::parse(std::make_shared<const SourceFile>("main.tf", text)); }

Finding finding_at(const hcl::File& f, std::uint32_t line, const std::string& rule) {
    Finding x;
    x.rule_id = rule;
    x.file = f.source;
    std::string_view t = f.source->line_text(line);
    auto byte = static_cast<std::uint32_t>(t.data() - f.source->text().data());
    x.range = {Pos{byte}, Pos{byte}};
    return x;
}

}  // namespace

TEST_CASE("ignore comments are read from the file's comments", "[lint][ignore]") {
    auto file = parse(
        "# tfsift-ignore: a-rule, b-rule -- because\n"
        "x = 1 // tfsift-ignore:c-rule\n"
        "# tfsift-ignore-file: d-rule # expect: something\n"
        "# not an ignore: tfsift-ignore: e\n"
        "/* tfsift-ignore: f */\n");
    auto ignores = find_ignore_comments(file);
    REQUIRE(ignores.size() == 3);
    CHECK(ignores[0].line == 1);
    CHECK_FALSE(ignores[0].whole_file);
    REQUIRE(ignores[0].rules.size() == 2);
    CHECK(ignores[0].rules[0].rule_id == "a-rule");
    CHECK(ignores[0].rules[1].rule_id == "b-rule");
    CHECK(ignores[0].reason == "because");
    // The id's range lets the unused-ignore notice point at it.
    CHECK(file.source->resolve(ignores[0].rules[1].range.start).column == 26);
    REQUIRE(ignores[1].rules.size() == 1);
    CHECK(ignores[1].rules[0].rule_id == "c-rule");
    CHECK(ignores[2].whole_file);
    REQUIRE(ignores[2].rules.size() == 1);
    CHECK(ignores[2].rules[0].rule_id == "d-rule");
}

TEST_CASE("an ignore covers its own line and the next, a file ignore the file", "[lint][ignore]") {
    auto file = parse(
        "# tfsift-ignore: r1\n"
        "a = 1\n"
        "b = 2\n"
        "c = 3 # tfsift-ignore: r2\n"
        "# tfsift-ignore-file: r3\n");
    auto ignores = find_ignore_comments(file);
    Findings findings = {finding_at(file, 1, "r1"), finding_at(file, 2, "r1"), finding_at(file, 3, "r1"),
                         finding_at(file, 4, "r2"), finding_at(file, 2, "r3"), finding_at(file, 2, "r2")};
    apply_ignore_comments(*file.source, ignores, findings);
    REQUIRE(findings.size() == 2);
    CHECK((findings[0].rule_id == "r1" && findings[0].file->line(findings[0].range.start) == 3));
    CHECK((findings[1].rule_id == "r2" && findings[1].file->line(findings[1].range.start) == 2));
    for (const auto& ic : ignores) {
        for (const auto& r : ic.rules) CHECK(r.used);
    }
}

TEST_CASE("findings of other files are not suppressed", "[lint][ignore]") {
    auto file = parse("# tfsift-ignore-file: r1\n");
    auto other = parse("a = 1\n");
    auto ignores = find_ignore_comments(file);
    Finding f = finding_at(other, 1, "r1");
    f.file = std::make_shared<const SourceFile>("other.tf", "a = 1\n");
    Findings findings = {f};
    apply_ignore_comments(*file.source, ignores, findings);
    CHECK(findings.size() == 1);
    CHECK_FALSE(ignores[0].rules[0].used);
}
