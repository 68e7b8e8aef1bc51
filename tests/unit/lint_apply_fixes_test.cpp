// `--fix`: choosing fixes, resolving overlapping edits, and writing files.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/reference_data.hpp"
#include "support/scratch_dir.hpp"
#include "tfsift/lint/apply_fixes.hpp"

using namespace tfsift;
using namespace tfsift::lint;
namespace fs = std::filesystem;

namespace {

// A finding on `src` whose fix replaces bytes [begin, end) with `text`.
Finding with_fix(const std::shared_ptr<const SourceFile>& src, std::uint32_t begin, std::uint32_t end, std::string text,
                 Applicability applicability = Applicability::safe) {
    Finding f;
    f.rule_id = "some-rule";
    f.file = src;
    f.range = Range{Pos{static_cast<std::uint32_t>(begin)}, Pos{static_cast<std::uint32_t>(end)}};
    Fix fix;
    fix.description = "Repair it";
    fix.applicability = applicability;
    fix.edits.push_back(
        {src, Range{Pos{static_cast<std::uint32_t>(begin)}, Pos{static_cast<std::uint32_t>(end)}}, std::move(text)});
    f.fix = std::move(fix);
    return f;
}

std::shared_ptr<const SourceFile> source(std::string path, std::string text) {
    return std::make_shared<const SourceFile>(std::move(path), std::move(text));
}

}  // namespace

TEST_CASE("fixes: edits of one file are applied from the end, whatever the findings' order", "[lint][fix]") {
    auto src = source("main.tf", "abcdefghij");
    Findings findings{with_fix(src, 8, 10, "IJ"), with_fix(src, 0, 1, "A"), with_fix(src, 4, 4, "-")};
    auto plan = plan_fixes(findings, FixMode::safe_only);
    CHECK(plan.findings_fixed == 3);
    CHECK(plan.conflicts_skipped == 0);
    CHECK(plan.new_text.at("main.tf") == "Abcd-efghIJ");
    CHECK(plan.old_text.at("main.tf") == "abcdefghij");
}

TEST_CASE("fixes: an overlapping later fix is skipped whole, the earlier one kept", "[lint][fix]") {
    auto src = source("main.tf", "0123456789");
    Finding two_edits = with_fix(src, 6, 8, "xx");
    two_edits.fix->edits.push_back({src, Range{Pos{0}, Pos{1}}, "Z"});  // first edit at byte 0
    Findings findings{with_fix(src, 2, 5, "abc"), with_fix(src, 4, 7, "LATER"), two_edits};
    auto plan = plan_fixes(findings, FixMode::safe_only);
    // Order by first edit: two_edits (0) is taken, then [2,5); [4,7) overlaps both.
    CHECK(plan.findings_fixed == 2);
    CHECK(plan.conflicts_skipped == 1);
    CHECK(plan.new_text.at("main.tf") == "Z1abc5xx89");
}

TEST_CASE("fixes: touching ranges do not overlap, two insertions at one place do", "[lint][fix]") {
    auto src = source("a.tf", "0123");
    Findings findings{with_fix(src, 0, 2, "ab"), with_fix(src, 2, 4, "cd"), with_fix(src, 4, 4, "!"),
                      with_fix(src, 4, 4, "?")};
    auto plan = plan_fixes(findings, FixMode::safe_only);
    CHECK(plan.findings_fixed == 3);
    CHECK(plan.conflicts_skipped == 1);
    CHECK(plan.new_text.at("a.tf") == "abcd!");
}

TEST_CASE("fixes: unsafe ones only on request; a shared fix counts for every finding", "[lint][fix]") {
    auto src = source("a.tf", "keep # tfsift-ignore: x, y\n");
    Findings findings{with_fix(src, 4, 26, ""), with_fix(src, 4, 26, ""),
                      with_fix(src, 0, 4, "KEEP", Applicability::unsafe)};
    auto safe = plan_fixes(findings, FixMode::safe_only);
    CHECK(safe.findings_fixed == 2);
    CHECK(safe.conflicts_skipped == 0);
    CHECK(safe.new_text.at("a.tf") == "keep\n");
    auto all = plan_fixes(findings, FixMode::include_unsafe);
    CHECK(all.findings_fixed == 3);
    CHECK(all.new_text.at("a.tf") == "KEEP\n");
}

TEST_CASE("fixes: edits in several files, and edits outside their file are refused", "[lint][fix]") {
    auto a = source("a.tf", "aaaa");
    auto b = source("b.tf", "bbbb");
    Finding across = with_fix(a, 0, 1, "A");
    across.fix->edits.push_back({b, Range{Pos{3}, Pos{4}}, "B"});
    Finding broken = with_fix(b, 0, 1, "x");
    broken.fix->edits.front().range.end.byte = 99;
    Findings findings{across, broken};
    auto plan = plan_fixes(findings, FixMode::safe_only);
    CHECK(plan.findings_fixed == 1);
    CHECK(plan.new_text.at("a.tf") == "Aaaa");
    CHECK(plan.new_text.at("b.tf") == "bbbB");
    CHECK(plan_fixes(Findings{}, FixMode::include_unsafe).new_text.empty());
}

TEST_CASE("fixes: files are rewritten, but not when they changed since they were read", "[lint][fix]") {
    testing::ScratchDir scratch;
    std::string fresh = (scratch.path / "fresh.tf").string();
    std::string stale = (scratch.path / "stale.tf").string();
    std::ofstream(fresh, std::ios::binary) << "x = 1 # tfsift-ignore: r\n";
    std::ofstream(stale, std::ios::binary) << "y = 2\n";
    auto fresh_src = source(fresh, "x = 1 # tfsift-ignore: r\n");
    auto stale_src = source(stale, "y = 1\n");  // what the linter saw; the disk has moved on
    Findings findings{with_fix(fresh_src, 5, 24, ""), with_fix(stale_src, 4, 5, "3")};
    auto result = write_fixes(plan_fixes(findings, FixMode::safe_only));
    REQUIRE(result.written == std::vector<std::string>{fresh});
    REQUIRE(result.errors.size() == 1);
    CHECK(result.errors.front().find("stale.tf: the file changed") != std::string::npos);
    CHECK(testing::read_file_bytes(fresh) == "x = 1\n");
    CHECK(testing::read_file_bytes(stale) == "y = 2\n");
}

TEST_CASE("fixes: one file named two ways is edited once, under its first name", "[lint][fix]") {
    auto plain = source("mod/main.tf", "0123456789");
    auto dotted = source("mod/./main.tf", "0123456789");
    Findings findings{with_fix(plain, 0, 1, "A"), with_fix(dotted, 1, 2, "B"), with_fix(dotted, 0, 1, "Z")};
    auto plan = plan_fixes(findings, FixMode::safe_only);
    CHECK(plan.findings_fixed == 2);
    CHECK(plan.conflicts_skipped == 1);
    REQUIRE(plan.new_text.size() == 1);
    CHECK(plan.new_text.at("mod/main.tf") == "AB23456789");
}
