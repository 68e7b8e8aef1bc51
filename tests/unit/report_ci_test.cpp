// The reports CI systems read: SARIF as GitHub code scanning takes it (its
// documented limits and values), GitHub workflow commands, GitLab Code
// Quality and reviewdog's rdjson.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "tfsift/report/report.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
using namespace tfsift::lint;
using nlohmann::json;

namespace {

std::string render(report::Format format, const Findings& findings, const std::vector<Rule>& rules,
                   const std::string& category = "", const ProjectLinks& links = {}) {
    report::ReportInput in{findings, rules};
    in.repository_root = "/repo";
    in.working_dir = "/repo/mod";
    in.exit_code = 1;
    in.sarif_category = category;
    in.links = links;
    std::ostringstream out;
    report::write_report(format, in, out);
    return out.str();
}

std::vector<Rule> builtin_rule_list() { return {builtin_rules().begin(), builtin_rules().end()}; }

// Characters as GitHub counts them (code points of UTF-8).
std::size_t characters(const std::string& s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// "a𝄞b" on line 2 after a tab, and a related location on line 1.
Findings sample() {
    auto src = std::make_shared<const SourceFile>("/repo/mod/main, tf:1.tf",
                                                  "resource \"a\" \"b\" {\n\tx = \"a\xF0\x9D\x84\x9E"
                                                  "b\"\n}\n");
    Finding f;
    f.rule_id = "syntax-error";
    f.severity = Severity::error;
    f.message = "100% wrong\nsee [docs](https://example.com) here";
    f.file = src;
    f.range = {Pos{26}, Pos{31}};  // the 4-byte character and "b" (columns 8-10 in UTF-16)
    f.related.push_back({src, {Pos{0}, Pos{8}}, "the [block]"});
    f.related.push_back({src, {Pos{9}, Pos{12}}, ""});
    Finding n;
    n.rule_id = "lock-stale-provider";
    n.severity = Severity::notice;
    n.message = "stale";
    n.file = src;
    n.range = {Pos{20}, Pos{21}};
    Fix fix;
    fix.description = "Rename";
    fix.edits.push_back({src, {Pos{20}, Pos{21}}, "y"});
    n.fix = fix;
    return {f, n};
}

// A policy whose texts are far beyond GitHub's limits.
Rule long_policy() {
    Rule r;
    r.id = "p-" + std::string(300, 'x');
    r.is_policy = true;
    r.category = RuleCategory::policy;
    r.default_severity = Severity::notice;
    std::string sentence = "This sentence is part of a very long description. ";
    for (int i = 0; i < 40; ++i) r.doc.summary += sentence;
    r.doc.what = std::string(3000, 'w');
    return r;
}

}  // namespace

TEST_CASE("SARIF rules keep GitHub's documented values and limits", "[report][sarif][github]") {
    auto rules = builtin_rule_list();
    rules.push_back(long_policy());
    json doc = json::parse(render(report::Format::sarif, {}, rules));
    const json& descriptors = doc["runs"][0]["tool"]["driver"]["rules"];
    REQUIRE(descriptors.size() == rules.size());
    std::set<std::string> categories;
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const Rule& rule = rules[i];
        const json& d = descriptors[i];
        INFO(rule.id);
        CHECK(characters(d["name"]) <= 255);
        CHECK(characters(d["shortDescription"]["text"]) <= 1024);
        CHECK(characters(d["fullDescription"]["text"]) <= 1024);
        CHECK_FALSE(d["shortDescription"]["text"].get<std::string>().empty());
        CHECK_FALSE(d["fullDescription"]["text"].get<std::string>().empty());
        // The whole text stays in help.
        CHECK_THAT(d["help"]["text"].get<std::string>(), Catch::Contains(rule.doc.what));
        const json& props = d["properties"];
        const auto& tags = props["tags"];
        CHECK(tags.size() <= report::GitHubLimits::tags_shown);
        CHECK(tags[0] == std::string(to_string(rule.category)));
        categories.insert(tags[0].get<std::string>());
        CHECK(std::set<std::string>{"very-high", "high", "medium", "low"}.count(
                  props["precision"].get<std::string>()) == 1);
        if (rule.category == RuleCategory::supply_chain) {
            // A security rule: security-severity in (0, 10], the tag code
            // scanning's security view filters on.
            REQUIRE(props.contains("security-severity"));
            const double score = std::stod(props["security-severity"].get<std::string>());
            CHECK(score > 0.0);
            CHECK(score <= 10.0);
            CHECK(std::find(tags.begin(), tags.end(), "security") != tags.end());
            CHECK_FALSE(props.contains("problem.severity"));
        } else {
            CHECK_FALSE(props.contains("security-severity"));
            CHECK(std::find(tags.begin(), tags.end(), "security") == tags.end());
            CHECK(std::set<std::string>{"error", "warning", "recommendation"}.count(
                      props["problem.severity"].get<std::string>()) == 1);
        }
    }
    // Every category is in use, and lock-hash-mismatch ranks high.
    CHECK(categories == std::set<std::string>{"correctness", "supply-chain", "maintainability", "style", "policy"});
    auto hash = std::find_if(rules.begin(), rules.end(), [](const Rule& r) { return r.id == "lock-hash-mismatch"; });
    REQUIRE(hash != rules.end());
    CHECK(hash->security_severity >= 7.0);
    // The long policy: its texts cut at a sentence, or at a word with "…".
    const json& policy = descriptors.back();
    CHECK_THAT(policy["shortDescription"]["text"].get<std::string>(), Catch::EndsWith("description."));
    CHECK_THAT(policy["fullDescription"]["text"].get<std::string>(), Catch::EndsWith("\xE2\x80\xA6"));
    CHECK(policy["properties"]["problem.severity"] == "recommendation");
}

TEST_CASE("SARIF automationDetails comes from --sarif-category only", "[report][sarif][github]") {
    auto rules = builtin_rule_list();
    CHECK_FALSE(json::parse(render(report::Format::sarif, sample(), rules))["runs"][0].contains("automationDetails"));
    CHECK(json::parse(render(report::Format::sarif, sample(), rules,
                             "terraform/prod"))["runs"][0]["automationDetails"]["id"] == "terraform/prod/");
    CHECK(json::parse(render(report::Format::sarif, sample(), rules, "infra/"))["runs"][0]["automationDetails"]["id"] ==
          "infra/");
}

TEST_CASE("SARIF messages link every related location", "[report][sarif][github]") {
    json doc = json::parse(render(report::Format::sarif, sample(), builtin_rule_list()));
    const json& result = doc["runs"][0]["results"][0];
    const std::string text = result["message"]["text"];
    // The finding's own "[docs](https://...)" is not a link; the two related
    // locations are, with their brackets escaped.
    CHECK(text ==
          "100% wrong\nsee [docs\\](https://example.com) here (see [the \\[block\\]](1), [related location](2))");
    // Each link's target is the id of a related location, and each related
    // location is linked.
    std::set<int> linked;
    const std::regex link(R"((^|[^\\])\[((?:[^\[\]\\]|\\.)*)\]\((\d+)\))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
        linked.insert(std::stoi((*it)[3]));
    }
    std::set<int> ids;
    for (const auto& r : result["relatedLocations"]) ids.insert(r["id"].get<int>());
    CHECK(linked == ids);
    CHECK(ids == std::set<int>{1, 2});
    CHECK(doc["runs"][0]["results"][1]["message"]["text"] == "stale");
}

TEST_CASE("GitHub's SARIF limits: warnings past 5,000 and 25,000 results", "[report][sarif][github]") {
    auto src = std::make_shared<const SourceFile>("/repo/main.tf", "x = 1\n");
    auto findings = [&](std::size_t n) {
        Findings out(n);
        for (auto& f : out) {
            f.rule_id = "syntax-error";
            f.message = "m";
            f.file = src;
        }
        return out;
    };
    std::vector<Rule> rules;
    auto warnings = [&](const Findings& fs) {
        report::ReportInput in{fs, rules};
        in.repository_root = "/repo";
        return report::report_warnings(report::Format::sarif, in, "{}");
    };
    CHECK(warnings(findings(report::GitHubLimits::results_shown)).empty());
    auto shown = warnings(findings(report::GitHubLimits::results_shown + 1));
    REQUIRE(shown.size() == 1);
    CHECK_THAT(shown[0], Catch::Contains("5,001 results") && Catch::Contains("only the 5,000 most severe"));
    CHECK(warnings(findings(report::GitHubLimits::results_per_run)).size() == 1);
    auto rejected = warnings(findings(report::GitHubLimits::results_per_run + 1));
    REQUIRE(rejected.size() == 1);
    CHECK_THAT(rejected[0], Catch::Contains("25,001 results") &&
                                Catch::Contains("rejects a run with more than 25,000") &&
                                Catch::Contains("--sarif-category"));
    // Other formats have no such limit.
    report::ReportInput in{findings(30'000), rules};
    CHECK(report::report_warnings(report::Format::json, in, "").empty());
}

TEST_CASE("GitHub's SARIF limits: the compressed size", "[report][sarif][github]") {
    // Repetitive text compresses to almost nothing, random bytes not at all.
    const std::string repetitive(11'000'000, 'a');
    CHECK(report::deflated_size(repetitive) < 100'000);
    std::string random(200'000, '\0');
    std::uint32_t x = 12345;
    for (auto& c : random) {
        x = x * 1664525U + 1013904223U;
        c = static_cast<char>(x >> 24);
    }
    CHECK(report::deflated_size(random) > 190'000);
    std::vector<Rule> rules;
    Findings none;
    report::ReportInput in{none, rules};
    CHECK(report::report_warnings(report::Format::sarif, in, repetitive).empty());
    // Incompressible and over 10 MB once compressed.
    std::string big;
    big.reserve(10'500'000);
    while (big.size() < 10'500'000) {
        x = x * 1664525U + 1013904223U;
        big += static_cast<char>(x >> 24);
    }
    auto w = report::report_warnings(report::Format::sarif, in, big);
    REQUIRE(w.size() == 1);
    CHECK_THAT(w[0], Catch::Contains("gzip-compressed") && Catch::Contains("10,000,000 bytes"));
}

TEST_CASE("github format: workflow commands with GitHub's escaping", "[report][github]") {
    std::string out = render(report::Format::github, sample(), builtin_rule_list());
    // Properties escape % CR LF : and ,; the message % CR LF. Columns count
    // UTF-16 code units, as in SARIF.
    CHECK(out ==
          "::error file=mod/main%2C tf%3A1.tf,line=2,endLine=2,col=8,endColumn=11,title=syntax-error::"
          "100%25 wrong%0Asee [docs](https://example.com) here"
          "%0Amod/main, tf:1.tf:1:1: the [block]%0Amod/main, tf:1.tf:1:10: \n"
          "::notice file=mod/main%2C tf%3A1.tf,line=2,endLine=2,col=2,endColumn=3,title=lock-stale-provider::stale\n");
    // Each line is one command the runner recognises.
    const std::regex command(
        R"(^::(error|warning|notice) file=[^,:]+,line=\d+,endLine=\d+(,col=\d+,endColumn=\d+)?,title=[^,:]+::[^\r\n]*$)");
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) CHECK(std::regex_match(line, command));
}

TEST_CASE("github format: a warning past the annotations a step shows", "[report][github]") {
    auto src = std::make_shared<const SourceFile>("/repo/main.tf", "x = 1\n");
    Findings fs(report::GitHubLimits::annotations_per_step + 1);
    for (auto& f : fs) {
        f.rule_id = "syntax-error";
        f.severity = Severity::warning;
        f.file = src;
    }
    std::vector<Rule> rules;
    report::ReportInput in{fs, rules};
    auto w = report::report_warnings(report::Format::github, in, "");
    REQUIRE(w.size() == 1);
    CHECK_THAT(w[0], Catch::StartsWith("11 warning annotations"));
    fs.pop_back();
    CHECK(report::report_warnings(report::Format::github, in, "").empty());
}

TEST_CASE("gitlab format: GitLab's Code Quality fields", "[report][gitlab]") {
    auto findings = sample();
    findings.push_back(findings[1]);  // the same finding twice: distinct fingerprints
    json doc = json::parse(render(report::Format::gitlab, findings, builtin_rule_list()));
    REQUIRE(doc.is_array());
    REQUIRE(doc.size() == 3);
    std::set<std::string> fingerprints;
    for (const auto& issue : doc) {
        CHECK(issue["description"].is_string());
        CHECK(issue["check_name"].is_string());
        CHECK(std::set<std::string>{"info", "minor", "major", "critical", "blocker"}.count(
                  issue["severity"].get<std::string>()) == 1);
        CHECK(issue["location"]["path"] == "mod/main, tf:1.tf");
        CHECK(issue["location"]["lines"]["begin"].get<int>() >= 1);
        fingerprints.insert(issue["fingerprint"].get<std::string>());
    }
    CHECK(fingerprints.size() == 3);
    CHECK(doc[0]["check_name"] == "syntax-error");
    CHECK(doc[0]["severity"] == "critical");
    CHECK(doc[0]["categories"] == json::array({"Bug Risk"}));
    CHECK(doc[0]["location"]["lines"]["begin"] == 2);
    CHECK(doc[1]["severity"] == "minor");
    CHECK(doc[1]["categories"] == json::array({"Security"}));
    // No home page configured: the body names the command that explains the rule.
    CHECK(doc[0]["content"]["body"].get<std::string>().ends_with(" `tfsift rule syntax-error` explains it."));
    // The fingerprint ignores line numbers: a finding keeps it when lines move.
    auto moved = sample();
    auto shifted =
        std::make_shared<const SourceFile>(moved[0].file->path(), "\n\n" + std::string(moved[0].file->text()));
    moved[0].file = shifted;
    moved[0].range = {Pos{28}, Pos{33}};
    json again = json::parse(render(report::Format::gitlab, moved, builtin_rule_list()));
    CHECK(again[0]["location"]["lines"]["begin"] == 4);
    CHECK(again[0]["fingerprint"] == doc[0]["fingerprint"]);
}

TEST_CASE("rdjson format: reviewdog's DiagnosticResult", "[report][rdjson]") {
    json doc = json::parse(render(report::Format::rdjson, sample(), builtin_rule_list()));
    CHECK(doc["source"]["name"] == "tfsift");
    REQUIRE(doc["diagnostics"].size() == 2);
    const json& d = doc["diagnostics"][0];
    CHECK(d["message"] == "100% wrong\nsee [docs](https://example.com) here");
    CHECK(d["severity"] == "ERROR");
    CHECK(d["code"]["value"] == "syntax-error");
    CHECK_FALSE(d["code"].contains("url"));  // no home page configured: no link
    CHECK_FALSE(doc["source"].contains("url"));
    // Paths relative to the working directory; columns in UTF-8 bytes, the
    // end exclusive: the 4-byte character starts at byte column 8, "b" ends
    // before column 13.
    CHECK(d["location"]["path"] == "main, tf:1.tf");
    CHECK(d["location"]["range"] ==
          json{{"start", {{"line", 2}, {"column", 8}}}, {"end", {{"line", 2}, {"column", 13}}}});
    REQUIRE(d["related_locations"].size() == 2);
    CHECK(d["related_locations"][0]["message"] == "the [block]");
    CHECK(d["related_locations"][0]["location"]["range"]["start"] == json{{"line", 1}, {"column", 1}});
    const json& n = doc["diagnostics"][1];
    CHECK(n["severity"] == "INFO");
    REQUIRE(n["suggestions"].size() == 1);
    CHECK(n["suggestions"][0]["text"] == "y");
    CHECK(n["suggestions"][0]["range"] ==
          json{{"start", {{"line", 2}, {"column", 2}}}, {"end", {{"line", 2}, {"column", 3}}}});
}

TEST_CASE("CI formats link rule pages only under a configured home page, at the release tag", "[report][links]") {
    const ProjectLinks links{"https://example.org/tfsift", "1.2.3"};
    const std::string page = "https://example.org/tfsift/blob/v1.2.3/docs/rules/syntax-error.md";
    json rd = json::parse(render(report::Format::rdjson, sample(), builtin_rule_list(), "", links));
    CHECK(rd["source"]["url"] == "https://example.org/tfsift");
    CHECK(rd["diagnostics"][0]["code"]["url"] == page);
    json gl = json::parse(render(report::Format::gitlab, sample(), builtin_rule_list(), "", links));
    CHECK(gl[0]["content"]["body"].get<std::string>().ends_with(" " + page));
    for (auto format : {report::Format::rdjson, report::Format::gitlab, report::Format::github}) {
        // (The sample's message has a link of its own; none of tfsift's.)
        CHECK(render(format, sample(), builtin_rule_list()).find("docs/rules/") == std::string::npos);
    }
}
