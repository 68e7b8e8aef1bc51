// sort_findings: tree order of paths, then position, rule id and message;
// stable otherwise, exact repeats dropped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>

#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/settings.hpp"

using namespace tfsift;
using namespace tfsift::lint;

namespace {

Finding finding(std::shared_ptr<const SourceFile> file, std::uint32_t start, std::uint32_t end, std::string rule,
                std::string message) {
    Finding f;
    f.rule_id = std::move(rule);
    f.message = std::move(message);
    f.file = std::move(file);
    f.range = {Pos{start}, Pos{end}};
    return f;
}

// The order written out plainly: a stable sort of whole findings by
// (path segments, start, end, rule id, message), then std::unique.
void reference_sort(Findings& findings) {
    auto key = [](const Finding& f) {
        std::string k = absolute_normal_path(f.file->path());
        std::replace(k.begin(), k.end(), '/', '\x01');
        return k;
    };
    std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
        const std::string ka = key(a);
        const std::string kb = key(b);
        return std::tie(ka, a.range.start.byte, a.range.end.byte, a.rule_id, a.message) <
               std::tie(kb, b.range.start.byte, b.range.end.byte, b.rule_id, b.message);
    });
    findings.erase(std::unique(findings.begin(), findings.end(),
                               [](const Finding& a, const Finding& b) {
                                   return a.rule_id == b.rule_id && a.file->path() == b.file->path() &&
                                          a.range == b.range && a.message == b.message;
                               }),
                   findings.end());
}

// What tells findings apart in a report.
std::vector<std::string> describe(const Findings& findings) {
    std::vector<std::string> out;
    for (const auto& f : findings) {
        out.push_back(f.file->path() + ":" + std::to_string(f.range.start.byte) + "-" +
                      std::to_string(f.range.end.byte) + " " + f.rule_id + " " + f.message + " " +
                      std::to_string(f.related.size()));
    }
    return out;
}

}  // namespace

TEST_CASE("findings sort by path segments, then position, rule and message", "[lint][sort]") {
    auto ab = std::make_shared<const SourceFile>("/r/a-b/main.tf", "");
    auto a = std::make_shared<const SourceFile>("/r/a/main.tf", "");
    auto a_z = std::make_shared<const SourceFile>("/r/a/z.tf", "");
    Findings findings;
    findings.push_back(finding(ab, 0, 1, "x", "m"));
    findings.push_back(finding(a_z, 5, 9, "x", "m"));
    findings.push_back(finding(a, 7, 8, "b", "m"));
    findings.push_back(finding(a, 7, 8, "a", "n"));
    findings.push_back(finding(a, 7, 8, "a", "m"));
    findings.push_back(finding(a, 3, 20, "z", "m"));
    findings.push_back(finding(a, 3, 4, "z", "m"));
    sort_findings(findings);
    CHECK(describe(findings) == std::vector<std::string>{
                                    "/r/a/main.tf:3-4 z m 0",
                                    "/r/a/main.tf:3-20 z m 0",
                                    "/r/a/main.tf:7-8 a m 0",
                                    "/r/a/main.tf:7-8 a n 0",
                                    "/r/a/main.tf:7-8 b m 0",
                                    "/r/a/z.tf:5-9 x m 0",
                                    "/r/a-b/main.tf:0-1 x m 0",
                                });
}

TEST_CASE("findings: exact repeats dropped, the first kept; ties keep their order", "[lint][sort]") {
    auto file = std::make_shared<const SourceFile>("/r/m/main.tf", "");
    // The same file named relative to the working directory sorts with it
    // but is not a repeat of it.
    const std::string cwd = std::filesystem::current_path().generic_string();
    auto abs_file = std::make_shared<const SourceFile>(cwd + "/m.tf", "");
    auto rel_file = std::make_shared<const SourceFile>("m.tf", "");
    Findings findings;
    Finding first = finding(file, 1, 2, "r", "same");
    first.related.push_back({file, {Pos{0}, Pos{1}}, "first"});
    findings.push_back(finding(rel_file, 4, 5, "r", "m"));
    findings.push_back(first);
    findings.push_back(finding(rel_file, 4, 5, "r", "m"));  // a repeat of the first: dropped
    findings.push_back(finding(abs_file, 4, 5, "r", "m"));
    findings.push_back(finding(file, 1, 2, "r", "same"));  // a repeat: dropped
    sort_findings(findings);
    const std::vector<std::string> got = describe(findings);
    REQUIRE(got.size() == 3);
    // The relative and the absolute name of m.tf tie: they keep their order.
    const auto rel_at = std::find(got.begin(), got.end(), "m.tf:4-5 r m 0");
    const auto abs_at = std::find(got.begin(), got.end(), cwd + "/m.tf:4-5 r m 0");
    REQUIRE(rel_at != got.end());
    REQUIRE(abs_at != got.end());
    CHECK(rel_at < abs_at);
    CHECK(std::find(got.begin(), got.end(), "/r/m/main.tf:1-2 r same 1") != got.end());
}

TEST_CASE("findings sort as a stable sort of whole findings would", "[lint][sort]") {
    std::vector<std::shared_ptr<const SourceFile>> files;
    for (const char* path :
         {"/w/a/main.tf", "/w/a/b.tf", "/w/a-b/main.tf", "/w/a/b/c.tf", "/w/./a/main.tf", "/w/z.tf", "/w/a.b/x.tf"}) {
        files.push_back(std::make_shared<const SourceFile>(path, ""));
    }
    std::mt19937 random(7);
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    for (int round = 0; round < 50; ++round) {
        Findings findings;
        const std::size_t count = pick(300);
        for (std::size_t i = 0; i < count; ++i) {
            const auto start = static_cast<std::uint32_t>(pick(6));
            Finding f = finding(files[pick(files.size())], start, start + static_cast<std::uint32_t>(pick(3)),
                                std::string(1, static_cast<char>('a' + pick(3))), pick(2) == 0 ? "one" : "two");
            // Findings equal in every sort key but told apart in the report.
            for (std::size_t k = pick(3); k > 0; --k) f.related.push_back({f.file, f.range, "r"});
            findings.push_back(std::move(f));
        }
        Findings expected = findings;
        reference_sort(expected);
        sort_findings(findings);
        REQUIRE(describe(findings) == describe(expected));
    }
}
