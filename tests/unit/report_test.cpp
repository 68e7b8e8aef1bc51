#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "tfsift/report/report.hpp"
#include "tfsift/rules/catalogue.hpp"
#include "tfsift/server/lsp_diagnostics.hpp"

using namespace tfsift;
using namespace tfsift::lint;
using nlohmann::json;

namespace {

auto source() {
    return std::make_shared<const SourceFile>("/repo/mod/main.tf",
                                              "resource \"a\" \"b\" {\n\tami = \"x\" <&\"'>\n}\n# tfsift-ignore: x\n");
}

Findings sample() {
    auto src = source();
    Finding err;
    err.rule_id = "syntax-error";
    err.severity = Severity::error;
    err.message = "Bad <thing> & \"more\"";
    err.file = src;
    err.range = {Pos{20}, Pos{23}};  // "ami" after the tab
    err.related.push_back({src, {Pos{0}, Pos{16}}, "in this block"});
    Finding note;
    note.rule_id = "unused-ignore";
    note.severity = Severity::notice;
    note.message = "unused";
    note.file = src;
    note.range = {Pos{55}, Pos{56}};
    Fix fix;
    fix.description = "Remove the comment";
    fix.edits.push_back({src, {Pos{38}, Pos{57}}, ""});
    note.fix = fix;
    return {err, note};
}

// The input of the sample reports: one file of /repo/mod, exit status 1.
report::ReportInput input_of(const Findings& findings, const std::vector<Rule>& rules) {
    report::ReportInput in{findings, rules};
    in.repository_root = "/repo";
    in.working_dir = "/repo/mod";
    in.files_scanned = 1;
    in.exit_code = 1;
    return in;
}

std::string render(report::Format format, const Findings& findings, const std::vector<Rule>& rules) {
    std::ostringstream out;
    report::write_report(format, input_of(findings, rules), out);
    return out.str();
}

std::vector<Rule> builtin_rule_list() { return {builtin_rules().begin(), builtin_rules().end()}; }

// Findings in many files and on many lines, more than one thread's run of
// them and more than one round of runs, each line of each file told apart;
// some lines hold several findings of one rule (fingerprints count repeats).
struct ManyFindings {
    std::vector<std::shared_ptr<const SourceFile>> files;
    Findings findings;
};

ManyFindings many_findings() {
    ManyFindings out;
    for (int i = 0; i < 7; ++i) {
        std::string text;
        for (int line = 0; line < 400; ++line) text += "locals { x" + std::to_string(line) + " = 1 }\n";
        out.files.push_back(std::make_shared<const SourceFile>("/repo/mod/f" + std::to_string(i) + ".tf", text));
    }
    for (std::size_t n = 0; n < 4500; ++n) {
        const auto& file = out.files[n % out.files.size()];
        const std::size_t line = (n * 37) % 400;
        const auto at = static_cast<std::uint32_t>(file->line_text(static_cast<std::uint32_t>(line + 1)).data() -
                                                   file->text().data());
        Finding f;
        f.rule_id = n % 3 == 0 ? "syntax-error" : "unused-ignore";
        f.severity = n % 3 == 0 ? Severity::error : Severity::notice;
        f.message = "finding " + std::to_string(n);
        f.file = file;
        f.range = {Pos{at}, Pos{at + 6}};
        if (n % 5 == 0) f.related.push_back({file, {Pos{0}, Pos{6}}, "see " + std::to_string(n)});
        out.findings.push_back(std::move(f));
    }
    return out;
}

// The input of a report of many_findings() put together by `jobs` threads.
report::ReportInput many_input(const ManyFindings& many, const std::vector<Rule>& rules, unsigned jobs) {
    report::ReportInput in = input_of(many.findings, rules);
    in.files_scanned = many.files.size();
    in.exit_code = 0;
    in.jobs = jobs;
    return in;
}

}  // namespace

TEST_CASE("text report: put together by several threads, the same text in the same order", "[report]") {
    const ManyFindings many = many_findings();
    const Findings& findings = many.findings;
    const std::vector<Rule> rules = builtin_rule_list();
    auto text_with = [&](unsigned jobs, bool color) {
        report::ReportInput in = many_input(many, rules, jobs);
        in.color = color;
        std::ostringstream out;
        report::write_report(report::Format::text, in, out);
        return out.str();
    };
    for (const bool color : {false, true}) {
        const std::string one = text_with(1, color);
        CHECK(text_with(2, color) == one);
        CHECK(text_with(5, color) == one);
        // In the order of the findings, the last one last.
        std::size_t at = 0;
        for (std::size_t n = 0; n < findings.size(); n += 97) {
            const std::size_t next = one.find("finding " + std::to_string(n) + "\n", at);
            REQUIRE(next != std::string::npos);
            at = next;
        }
        CHECK(one.find("finding 4499\n") > one.find("finding 4498\n"));
    }
}

TEST_CASE("SARIF, JSON, rdjson and GitLab reports: put together by several threads, the same document",
          "[report][sarif]") {
    const ManyFindings many = many_findings();
    const std::vector<Rule> rules = builtin_rule_list();
    auto report_with = [&](report::Format format, unsigned jobs) {
        std::ostringstream out;
        report::write_report(format, many_input(many, rules, jobs), out);
        return out.str();
    };
    const std::string json_one = report_with(report::Format::json, 1);
    CHECK(report_with(report::Format::json, 2) == json_one);
    CHECK(report_with(report::Format::json, 5) == json_one);
    for (const auto format : {report::Format::checkstyle, report::Format::junit, report::Format::github}) {
        INFO(report::to_string(format));
        const std::string one_job = report_with(format, 1);
        CHECK(report_with(format, 2) == one_job);
        CHECK(report_with(format, 5) == one_job);
        CHECK(one_job.find("finding 4499") != std::string::npos);
    }
    const std::string rdjson_one = report_with(report::Format::rdjson, 1);
    CHECK(report_with(report::Format::rdjson, 2) == rdjson_one);
    CHECK(report_with(report::Format::rdjson, 5) == rdjson_one);
    CHECK(json::parse(rdjson_one)["diagnostics"].size() == many.findings.size());
    const std::string gitlab_one = report_with(report::Format::gitlab, 1);
    CHECK(report_with(report::Format::gitlab, 2) == gitlab_one);
    CHECK(report_with(report::Format::gitlab, 5) == gitlab_one);
    // Every issue's fingerprint told apart, repeats of a line included.
    std::set<std::string> fingerprints;
    for (const json& issue : json::parse(gitlab_one)) fingerprints.insert(issue["fingerprint"].get<std::string>());
    CHECK(fingerprints.size() == many.findings.size());
    const json findings = json::parse(json_one)["findings"];
    REQUIRE(findings.size() == many.findings.size());
    CHECK(findings[4499]["message"] == "finding 4499");
    const std::string one = report_with(report::Format::sarif, 1);
    CHECK(report_with(report::Format::sarif, 2) == one);
    CHECK(report_with(report::Format::sarif, 5) == one);
    // A document, with every result, in order, each line's repeats numbered.
    const json doc = json::parse(one);
    const json& results = doc["runs"][0]["results"];
    REQUIRE(results.size() == many.findings.size());
    CHECK(results[4499]["message"]["text"].get<std::string>().starts_with("finding 4499"));
    std::map<std::string, int> highest;
    for (const json& r : results) {
        const std::string print = r["partialFingerprints"]["primaryLocationLineHash"];
        const std::string file = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        const std::string hash = print.substr(0, print.find(':'));
        const int n = std::stoi(print.substr(print.find(':') + 1));
        CHECK(n == ++highest[file + hash]);
    }
}

TEST_CASE("text report: location, caret underline, summary", "[report]") {
    auto findings = sample();
    std::string text = render(report::Format::text, findings, builtin_rule_list());
    CHECK_THAT(text, Catch::StartsWith("main.tf:2:2: error[syntax-error] Bad <thing> & \"more\"\n"
                                       " 2 | \tami = \"x\" <&\"'>\n"
                                       "   | \t^~~\n"
                                       "main.tf:1:1: note: in this block\n"));
    CHECK_THAT(text, Catch::Contains("main.tf:4:18: notice[unused-ignore] unused\n"));
    CHECK_THAT(text, Catch::Contains("fix: Remove the comment (safe)\n"));
    // No link under each finding: one line at the end names the rules seen.
    CHECK_THAT(text, Catch::EndsWith("2 findings (1 error, 0 warnings, 1 notice) in 1 of 1 file. 1 fixable with "
                                     "`tfsift lint --fix`.\n"
                                     "`tfsift rule ID` explains syntax-error, unused-ignore.\n"));
    CHECK(text.find("docs:") == std::string::npos);
    CHECK(text.find("http") == std::string::npos);
    CHECK(text.find('\x1b') == std::string::npos);
}

TEST_CASE("no report links anywhere unless a home page is configured", "[report][links]") {
    auto findings = sample();
    auto all = builtin_rule_list();
    for (auto format : {report::Format::text, report::Format::json, report::Format::sarif, report::Format::checkstyle,
                        report::Format::junit, report::Format::compact, report::Format::github, report::Format::gitlab,
                        report::Format::rdjson}) {
        std::string out = render(format, findings, all);
        INFO(report::to_string(format));
        CHECK(out.find("github.com/tfsift") == std::string::npos);
        CHECK(out.find("docs/rules/") == std::string::npos);
        // SARIF has the schema's address, and the rules' documentation, whose
        // examples name example.com; the other formats have no address at all.
        if (format != report::Format::sarif) CHECK(out.find("http") == std::string::npos);
    }
    json sarif = json::parse(render(report::Format::sarif, findings, all));
    const json& driver = sarif["runs"][0]["tool"]["driver"];
    CHECK_FALSE(driver.contains("informationUri"));
    for (const json& r : driver["rules"]) {
        CHECK_FALSE(r.contains("helpUri"));
        CHECK_FALSE(r["help"]["markdown"].get<std::string>().empty());
    }
}

TEST_CASE("a configured home page gives links at the release tag", "[report][links]") {
    const ProjectLinks links{"https://example.org/tfsift", "1.2.3"};
    Rule policy;
    policy.id = "no-public-buckets";
    policy.is_policy = true;
    CHECK(rule_help_uri(policy, links) == "https://example.org/tfsift/blob/v1.2.3/docs/policies.md");
    CHECK(rule_help_uri(policy, {}).empty());
    CHECK(documentation_uri({}, "docs/rules/").empty());

    auto findings = sample();
    auto all = builtin_rule_list();
    report::ReportInput in{findings, all};
    in.repository_root = "/repo";
    in.working_dir = "/repo/mod";
    in.files_scanned = 1;
    in.links = links;
    std::ostringstream sarif_out;
    report::write_report(report::Format::sarif, in, sarif_out);
    json sarif = json::parse(sarif_out.str());
    const json& driver = sarif["runs"][0]["tool"]["driver"];
    CHECK(driver["informationUri"] == "https://example.org/tfsift");
    CHECK(driver["rules"][0]["helpUri"] == "https://example.org/tfsift/blob/v1.2.3/docs/rules/" + all[0].id + ".md");
    std::ostringstream text_out;
    report::write_report(report::Format::text, in, text_out);
    CHECK_THAT(text_out.str(), Catch::EndsWith("`tfsift rule ID` explains syntax-error, unused-ignore (also at "
                                               "https://example.org/tfsift/blob/v1.2.3/docs/rules/).\n"));
    CHECK(text_out.str().find("/blob/main/") == std::string::npos);
}

TEST_CASE("language server diagnostics link a rule's page only under a configured home page", "[server][links]") {
    auto findings = sample();
    auto all = builtin_rule_list();
    const Rule* rule = nullptr;
    for (const auto& r : all) {
        if (r.id == "unused-ignore") rule = &r;
    }
    REQUIRE(rule != nullptr);
    CHECK_FALSE(server::lsp_diagnostic(findings[1], rule, "/repo/mod").contains("codeDescription"));
    json linked = server::lsp_diagnostic(findings[1], rule, "/repo/mod", {"https://example.org/tfsift", "1.2.3"});
    CHECK(linked["codeDescription"]["href"] == "https://example.org/tfsift/blob/v1.2.3/docs/rules/unused-ignore.md");
}

TEST_CASE("compact report: one line per finding", "[report]") {
    CHECK(render(report::Format::compact, sample(), builtin_rule_list()) ==
          "main.tf:2:2: error[syntax-error] Bad <thing> & \"more\"\n"
          "main.tf:4:18: notice[unused-ignore] unused\n");
}

TEST_CASE("JSON report follows schema version 1", "[report]") {
    json doc = json::parse(render(report::Format::json, sample(), builtin_rule_list()));
    CHECK(doc["schema_version"] == 1);
    CHECK(doc["tool"]["name"] == "tfsift");
    CHECK(doc["summary"]["errors"] == 1);
    CHECK(doc["summary"]["notices"] == 1);
    CHECK(doc["exit_code"] == 1);
    const json& f = doc["findings"][0];
    CHECK(f["rule"] == "syntax-error");
    CHECK(f["severity"] == "error");
    CHECK(f["location"]["path"] == "main.tf");
    CHECK(f["location"]["start"] == json{{"line", 2}, {"column", 2}, {"byte", 20}});
    CHECK(f["location"]["end"]["column"] == 5);
    CHECK(f["related"][0]["message"] == "in this block");
    CHECK(f["fix"].is_null());
    CHECK(doc["findings"][1]["fix"]["applicability"] == "safe");
    CHECK(doc["findings"][1]["fix"]["edits"][0]["replacement"] == "");
}

TEST_CASE("SARIF report carries what GitHub code scanning reads", "[report][sarif]") {
    auto all = builtin_rule_list();
    json doc = json::parse(render(report::Format::sarif, sample(), all));
    CHECK(doc["version"] == "2.1.0");
    const json& run = doc["runs"][0];
    const json& driver = run["tool"]["driver"];
    CHECK(driver["name"] == "tfsift");
    CHECK(driver["version"] == TFSIFT_VERSION);
    REQUIRE(driver["rules"].size() == all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const json& r = driver["rules"][i];
        CHECK(r["id"] == all[i].id);
        CHECK(r["name"].is_string());
        CHECK(r["shortDescription"]["text"] == all[i].doc.summary);
        CHECK(r["fullDescription"]["text"].is_string());
        CHECK(r["help"]["text"].is_string());
        CHECK(r["help"]["markdown"] == rule_markdown(all[i]));
        CHECK_FALSE(r.contains("helpUri"));  // no home page configured
        CHECK(r["defaultConfiguration"]["level"].is_string());
    }
    CHECK_FALSE(run.contains("automationDetails"));  // the upload step's category applies
    CHECK(run["invocations"][0]["exitCode"] == 1);
    CHECK(run["invocations"][0]["executionSuccessful"] == true);
    CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file:///repo/");

    const json& err = run["results"][0];
    CHECK(err["ruleId"] == "syntax-error");
    CHECK(driver["rules"][err["ruleIndex"].get<int>()]["id"] == "syntax-error");
    CHECK(err["level"] == "error");
    const json& loc = err["locations"][0]["physicalLocation"];
    CHECK(loc["artifactLocation"] == json{{"uri", "mod/main.tf"}, {"uriBaseId", "%SRCROOT%"}});
    CHECK(loc["region"]["startLine"] == 2);
    CHECK(loc["region"]["startColumn"] == 2);
    CHECK(loc["region"]["endLine"] == 2);
    CHECK(loc["region"]["endColumn"] == 5);
    CHECK(loc["region"]["snippet"]["text"] == "ami");
    CHECK(err["relatedLocations"][0]["message"]["text"] == "in this block");
    CHECK(err["message"]["text"] == "Bad <thing> & \"more\" (see [in this block](1))");
    CHECK(err["partialFingerprints"]["primaryLocationLineHash"].get<std::string>().size() == 18);  // 16 hex + ":1"

    const json& note = run["results"][1];
    CHECK(note["level"] == "note");
    const json& change = note["fixes"][0]["artifactChanges"][0];
    CHECK(change["artifactLocation"]["uri"] == "mod/main.tf");
    CHECK(change["replacements"][0]["deletedRegion"]["startLine"] == 4);
    CHECK(change["replacements"][0]["insertedContent"]["text"] == "");
}

TEST_CASE("SARIF fingerprints survive moved lines and count repeats", "[report][sarif]") {
    auto a = std::make_shared<const SourceFile>("/repo/main.tf", "x = 1\n");
    auto b = std::make_shared<const SourceFile>("/repo/main.tf", "\n\n  x = 1\nx = 1\n");
    auto fp = [](const std::shared_ptr<const SourceFile>& src, std::vector<std::uint32_t> bytes) {
        Findings fs;
        for (auto byte : bytes) {
            Finding f;
            f.rule_id = "syntax-error";
            f.file = src;
            f.range = {Pos{static_cast<std::uint32_t>(byte)}, Pos{static_cast<std::uint32_t>(byte)}};
            fs.push_back(f);
        }
        std::vector<Rule> none;
        json doc = json::parse(render(report::Format::sarif, fs, none));
        std::vector<std::string> out;
        for (const auto& r : doc["runs"][0]["results"])
            out.push_back(r["partialFingerprints"]["primaryLocationLineHash"]);
        return out;
    };
    auto one = fp(a, {0});
    auto two = fp(b, {4, 10});
    CHECK(one[0] == two[0]);
    CHECK(two[1].substr(0, 16) == two[0].substr(0, 16));
    CHECK(two[1].substr(16) == ":2");
}

TEST_CASE("XML reports escape markup and drop what XML cannot carry", "[report]") {
    auto findings = sample();
    findings[0].message += std::string("\x01\xff", 2);
    std::string cs = render(report::Format::checkstyle, findings, builtin_rule_list());
    CHECK_THAT(cs, Catch::Contains("message=\"Bad &lt;thing&gt; &amp; &quot;more&quot;\xEF\xBF\xBD\""));
    CHECK_THAT(cs, Catch::Contains("<file name=\"main.tf\">"));
    CHECK_THAT(cs, Catch::Contains("severity=\"info\""));
    std::string junit = render(report::Format::junit, findings, builtin_rule_list());
    CHECK_THAT(junit, Catch::Contains("<testsuites name=\"tfsift\" tests=\"2\" failures=\"2\""));
    CHECK(junit.find('\x01') == std::string::npos);
}

TEST_CASE("a report rendered to a string is the report written to a stream", "[report]") {
    auto findings = sample();
    const auto rules = builtin_rule_list();
    for (auto format : {report::Format::text, report::Format::json, report::Format::sarif, report::Format::checkstyle,
                        report::Format::junit, report::Format::compact, report::Format::github, report::Format::gitlab,
                        report::Format::rdjson}) {
        INFO(report::to_string(format));
        const std::string text = report::render_report(format, input_of(findings, rules));
        CHECK(text == render(format, findings, rules));
        CHECK_FALSE(text.empty());
    }
    // No findings: the reservation is small, the report the same.
    const Findings none;
    report::ReportInput in{none, rules};
    std::ostringstream streamed;
    report::write_report(report::Format::sarif, in, streamed);
    CHECK(report::render_report(report::Format::sarif, in) == streamed.str());
}

TEST_CASE("format names", "[report]") {
    for (auto f : {report::Format::text, report::Format::json, report::Format::sarif, report::Format::checkstyle,
                   report::Format::junit, report::Format::compact, report::Format::github, report::Format::gitlab,
                   report::Format::rdjson}) {
        CHECK(report::parse_format(report::to_string(f)) == f);
    }
    CHECK_FALSE(report::parse_format("xml"));
}

TEST_CASE("text report: a long line is shown as a window around the finding", "[report]") {
    // One 3,000-byte line with "target" in the middle (a minified file).
    std::string line = std::string(1500, 'a') + "target" + std::string(1494, 'b');
    auto src = std::make_shared<const SourceFile>("/repo/mod/main.tf", line + "\n");
    Finding f;
    f.rule_id = "syntax-error";
    f.severity = Severity::error;
    f.message = "here";
    f.file = src;
    f.range = {Pos{1500}, Pos{1506}};
    std::string text = render(report::Format::text, {f}, builtin_rule_list());
    std::istringstream lines(text);
    std::string location;
    std::string shown;
    std::string underline;
    std::getline(lines, location);
    std::getline(lines, shown);
    std::getline(lines, underline);
    CHECK(location == "main.tf:1:1501: error[syntax-error] here");
    CHECK(shown.size() < 300);
    CHECK(shown.find(" 1 | ...") == 0);
    CHECK(shown.substr(shown.size() - 3) == "...");
    // The caret stands under the finding's first character, six columns wide.
    const auto at = shown.find("target");
    REQUIRE(at != std::string::npos);
    CHECK(underline.find('^') == at);
    CHECK(underline.substr(at) == "^~~~~~");
}

TEST_CASE("text report: a message's lines and spaces are folded into one line", "[report]") {
    // Messages on both sides of sixteen bytes, with what needs folding or
    // escaping at each place, and ones that need nothing.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"short", "short"},
        {"a message of exactly thirty-two", "a message of exactly thirty-two"},
        {"Summary: the detail\n\nand more after a blank line", "Summary: the detail and more after a blank line"},
        {"two  spaces inside a message that is long", "two spaces inside a message that is long"},
        {"a message that is long enough, then two  spaces", "a message that is long enough, then two spaces"},
        {" leading space", "leading space"},
        {"trailing space, after a longer message ", "trailing space, after a longer message"},
        {"tab\tinside", "tab inside"},
        {"a long message with a bell \a inside it", "a long message with a bell \\x07 inside it"},
        {"caf\xc3\xa9 au lait, a message past sixteen bytes", "caf\xc3\xa9 au lait, a message past sixteen bytes"},
        {"delete \x7f in a message past sixteen bytes", "delete \\x7F in a message past sixteen bytes"},
    };
    for (const auto& [message, shown] : cases) {
        auto src = std::make_shared<const SourceFile>("/repo/mod/main.tf", "x = 1\n");
        Finding f;
        f.rule_id = "syntax-error";
        f.severity = Severity::error;
        f.message = message;
        f.file = src;
        f.range = {Pos{0}, Pos{1}};
        const std::string text = render(report::Format::text, {f}, builtin_rule_list());
        const std::string first_line = text.substr(0, text.find('\n'));
        INFO(message);
        CHECK(first_line == "main.tf:1:1: error[syntax-error] " + shown);
    }
}
