// Adoption in an existing repository: baselines, --add-ignore, the diff of
// fixes, TFLint ignore comments and the .tflint.hcl import.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/add_ignore.hpp"
#include "tfsift/lint/baseline.hpp"
#include "tfsift/lint/fix_diff.hpp"
#include "tfsift/lint/inline_ignores.hpp"
#include "tfsift/lint/tflint_import.hpp"

using namespace tfsift;
using namespace tfsift::lint;

namespace {

std::shared_ptr<const SourceFile> source(const std::string& path, const std::string& text) {
    return std::make_shared<const SourceFile>(path, text);
}

// A finding starting at the first occurrence of `needle` (the nth when given).
Finding finding_on(const std::shared_ptr<const SourceFile>& src, const std::string& needle, const std::string& rule,
                   int nth = 1) {
    std::size_t at = std::string::npos;
    for (int i = 0; i < nth; ++i) at = src->text().find(needle, at == std::string::npos ? 0 : at + 1);
    REQUIRE(at != std::string::npos);
    Finding f;
    f.rule_id = rule;
    f.file = src;
    f.range = {Pos{static_cast<std::uint32_t>(at)}, Pos{static_cast<std::uint32_t>(at + needle.size())}};
    return f;
}

}  // namespace

TEST_CASE("baseline fingerprints survive lines added above, and new problems are not recorded", "[lint][baseline]") {
    const std::string before =
        "module \"a\" {\n  source = \"x/y/aws\"\n}\n\nmodule \"b\" {\n  source = \"x/y/aws\"\n}\n";
    auto old_src = source("/repo/main.tf", before);
    Findings old_findings = {finding_on(old_src, "source", "module-version-unpinned", 1),
                             finding_on(old_src, "source", "module-version-unpinned", 2),
                             finding_on(old_src, "module \"a\"", "other-rule")};
    const auto entries = baseline_entries(old_findings, "/repo");
    REQUIRE(entries.size() == 3);
    // The same rule on two identical lines: two entries, told apart by occurrence.
    CHECK(entries[0].file == "main.tf");
    CHECK(entries[0].fingerprint != entries[1].fingerprint);

    // The text survives a round trip.
    const auto parsed = parse_baseline(render_baseline(entries));
    REQUIRE(parsed.ok());
    CHECK(parsed.entries == entries);

    // Lines added above, indentation changed, one new problem.
    const std::string after =
        "# a header\n\nlocals {\n  x = 1\n}\n\n" + before + "module \"c\" {\n    source = \"x/y/aws\"\n}\n";
    auto new_src = source("/repo/main.tf", after);
    Findings now = {finding_on(new_src, "source", "module-version-unpinned", 1),
                    finding_on(new_src, "source", "module-version-unpinned", 2),
                    finding_on(new_src, "source", "module-version-unpinned", 3),
                    finding_on(new_src, "module \"a\"", "other-rule")};
    CHECK(filter_baseline(now, parsed.entries, "/repo") == 3);
    REQUIRE(now.size() == 1);
    CHECK(now[0].rule_id == "module-version-unpinned");
    CHECK(now[0].file->line(now[0].range.start) == 15);
}

TEST_CASE("a broken baseline is an error with its position", "[lint][baseline]") {
    auto bad = parse_baseline("{\n  \"tfsift_baseline\": 1,\n  \"findings\": [\n");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error.rfind("4:1:", 0) == 0);
    auto wrong = parse_baseline("{\"findings\": []}");
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error.find("not a tfsift baseline") != std::string::npos);
    auto entry = parse_baseline("{\"tfsift_baseline\": 1, \"findings\": [{\"rule\": \"r\"}]}");
    REQUIRE_FALSE(entry.ok());
    CHECK(entry.error.find("entry 1 needs") != std::string::npos);
}

TEST_CASE("--add-ignore writes one comment per line, indented, above the finding", "[lint][add-ignore]") {
    auto src = source("m/main.tf", "resource \"a\" \"b\" {\n  x = 1\n  y = <<EOT\n  z\nEOT\n}\n");
    auto json = source("m/x.tf.json", "{}");
    Findings findings = {finding_on(src, "x = 1", "rule-b"),    finding_on(src, "x = 1", "rule-a"),
                         finding_on(src, "resource", "rule-c"), finding_on(src, "  z", "rule-d"),
                         finding_on(json, "{}", "rule-e"),      finding_on(src, "x = 1", "unused-ignore")};
    const AddIgnorePlan plan = plan_add_ignores(findings, "legacy");
    CHECK(plan.comments == 2);
    CHECK(plan.findings_covered == 3);
    CHECK(plan.findings_skipped == 3);  // the heredoc line, the JSON file, the unused-ignore
    REQUIRE(plan.edits.new_text.count("m/main.tf") == 1);
    CHECK(plan.edits.new_text.at("m/main.tf") ==
          "# tfsift-ignore: rule-c -- legacy\nresource \"a\" \"b\" {\n  # tfsift-ignore: rule-a, rule-b -- legacy\n"
          "  x = 1\n  y = <<EOT\n  z\nEOT\n}\n");
    // The comments it writes are read back as ignore comments of those rules.
    auto again = hcl::parse(source("m/main.tf", plan.edits.new_text.at("m/main.tf")));
    auto ignores = find_ignore_comments(again);
    REQUIRE(ignores.size() == 2);
    CHECK(ignores[1].rules.size() == 2);
    CHECK(ignores[1].reason == "legacy");
}

TEST_CASE("unified diff of a fix", "[lint][diff]") {
    CHECK(unified_diff("a.tf", "same\n", "same\n").empty());
    const std::string old_text = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    const std::string new_text = "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\n11\n12\nthirteen";
    CHECK(unified_diff("m/a.tf", old_text, new_text) ==
          "--- a/m/a.tf\n+++ b/m/a.tf\n"
          "@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+four\n 5\n 6\n 7\n"
          "@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+thirteen\n\\ No newline at end of file\n");
    // Deleting a whole file's content.
    CHECK(unified_diff("b.tf", "x\n", "") == "--- a/b.tf\n+++ b/b.tf\n@@ -1,1 +0,0 @@\n-x\n");
}

TEST_CASE("tflint-ignore comments stand for the mapped tfsift rules", "[lint][tflint]") {
    auto file = hcl::parse(source("main.tf",
                                  "# tflint-ignore: terraform_module_version, terraform_naming_convention\n"
                                  "module \"m\" {}\n"
                                  "# tflint-ignore-file: terraform_required_providers\n"));
    auto ignores = find_ignore_comments(file);
    REQUIRE(ignores.size() == 2);
    CHECK(ignores[0].from_tflint);
    REQUIRE(ignores[0].rules.size() == 1);  // naming_convention has no tfsift rule
    CHECK(ignores[0].rules[0].rule_id == "module-version-unpinned");
    CHECK(ignores[1].whole_file);
    REQUIRE(ignores[1].rules.size() == 3);
    CHECK(ignores[1].rules[0].rule_id == "provider-source-missing");
}

TEST_CASE("the migration guide's rule table is the compiled mapping", "[lint][tflint]") {
    // Each row of docs/migrating-from-tflint.md: | `tflint_rule` | rec | `tfsift-a`, `tfsift-b` | ...
    std::ifstream in(std::filesystem::path(TFSIFT_SOURCE_DIR) / "docs" / "migrating-from-tflint.md");
    REQUIRE(in);
    std::map<std::string, std::set<std::string>> documented;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("| `terraform_", 0) != 0) continue;
        std::vector<std::string> cells;
        std::size_t at = 1;
        while (at < line.size()) {
            const auto bar = line.find('|', at);
            if (bar == std::string::npos) break;
            cells.push_back(line.substr(at, bar - at));
            at = bar + 1;
        }
        REQUIRE(cells.size() >= 3);
        const auto name = cells[0].substr(cells[0].find('`') + 1);
        std::set<std::string> ids;
        for (std::size_t q = cells[2].find('`'); q != std::string::npos; q = cells[2].find('`', q + 1)) {
            const auto end = cells[2].find('`', q + 1);
            REQUIRE(end != std::string::npos);
            ids.insert(cells[2].substr(q + 1, end - q - 1));
            q = end;
        }
        ids.erase("syntax-error");  // a parse error cannot be ignored or switched off
        documented[name.substr(0, name.find('`'))] = ids;
    }
    std::map<std::string, std::set<std::string>> compiled;
    for (const auto& m : tflint_rule_mappings()) {
        compiled[std::string(m.tflint_rule)] = {m.tfsift_rules.begin(), m.tfsift_rules.end()};
    }
    CHECK(documented == compiled);
}

TEST_CASE(".tflint.hcl becomes .tfsift.toml", "[lint][tflint]") {
    const auto imported = import_tflint_config(".tflint.hcl",
                                               "plugin \"terraform\" {\n  enabled = true\n  preset = \"all\"\n}\n"
                                               "plugin \"aws\" {\n  enabled = true\n}\n"
                                               "rule \"terraform_module_version\" {\n  enabled = false\n}\n"
                                               "rule \"terraform_naming_convention\" {\n  enabled = true\n}\n"
                                               "config {\n  call_module_type = \"all\"\n}\n");
    REQUIRE(imported.ok());
    CHECK(imported.toml ==
          "# Made from .tflint.hcl by `tfsift init --from-tflint`.\npreset = \"strict\"\n\n[rules]\n"
          "module-version-unpinned = \"off\"  # TFLint terraform_module_version\n");
    REQUIRE(imported.notes.size() == 3);
    CHECK(imported.notes[0].rfind("5:1: plugin \"aws\"", 0) == 0);
    CHECK(imported.notes[1].find("terraform_naming_convention") != std::string::npos);
    CHECK(imported.notes[2].find("`config`") != std::string::npos);

    const auto broken = import_tflint_config(".tflint.hcl", "rule \"x\" {\n  enabled = \n");
    REQUIRE_FALSE(broken.ok());
    INFO(broken.error);
    CHECK(broken.error.rfind("2:", 0) == 0);
}
