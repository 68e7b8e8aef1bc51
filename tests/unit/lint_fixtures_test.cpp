// Walks fixtures/rules/<id>/ and demands exactly the findings annotated in
// the fixture files with a trailing `# expect: <rule-id>[, <rule-id>]` on the
// line where each finding starts (in JSON files: `"//": "# expect: ..."`):
// none missing, none extra. Each directory runs only its own rule (see
// fixture_selection).
//
// Every directory below fixtures/rules/<id>/ that holds configuration files is
// one module, linted through the same session as `tfsift lint --recursive`:
// its settings are the nearest .tfsift.toml (policies are fixtures of their
// own: policy-<kind>/). The fixtures of the rules of `tfsift lock diff`
// (a base and a new lock file) are run by lock_review_check.py instead.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "tfsift/lint/session.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/rules/catalogue.hpp"
#include "tfsift/rules/review_catalogue.hpp"

namespace fs = std::filesystem;
using namespace tfsift;

namespace {

const fs::path fixtures_root = fs::path(TFSIFT_SOURCE_DIR) / "fixtures" / "rules";

// "file:line rule" for every expectation of a file.
std::multiset<std::string> expectations(const SourceFile& src) {
    std::multiset<std::string> out;
    std::istringstream in{std::string(src.text())};
    std::string line;
    for (std::uint32_t n = 1; std::getline(in, line); ++n) {
        auto at = line.find("# expect:");
        if (at == std::string::npos) continue;
        // In a .tf.json file the expectation sits in a "//" comment string,
        // which ends at its closing quote.
        std::string ids = line.substr(at + 9);
        ids = ids.substr(0, ids.find('"'));
        std::istringstream list(ids);
        std::string id;
        while (std::getline(list, id, ',')) {
            auto b = id.find_first_not_of(" \t\r\"");
            auto e = id.find_last_not_of(" \t\r\"");
            if (b == std::string::npos) continue;
            out.insert(src.path() + ":" + std::to_string(n) + " " + id.substr(b, e - b + 1));
        }
    }
    return out;
}

struct FixtureOutcome {
    std::multiset<std::string> expected;
    std::multiset<std::string> actual;
    std::size_t files = 0;
};

// The rules a fixture directory runs: the rule it is named after, every
// policy of its settings files, and the rules they mention (a fixture of
// `unused-ignore` needs rules whose findings the ignores suppress). Other
// rules stay off, so a fixture shows one rule's behaviour without having to
// satisfy the whole catalogue.
lint::RuleSelection fixture_selection(const fs::path& rule_dir) {
    lint::RuleSelection selection;
    std::string id = rule_dir.filename().string();
    if (lint::find_builtin_rule(id) != nullptr) selection.only.push_back(id);
    for (const auto& entry : fs::recursive_directory_iterator(rule_dir)) {
        if (entry.path().filename() != ".tfsift.toml") continue;
        auto loaded = lint::load_settings(entry.path().string());
        INFO(entry.path().string());
        REQUIRE(loaded.ok());
        for (const auto& p : loaded.settings.policies) selection.only.push_back(p.id);
        for (const auto& [rule, setting] : loaded.settings.rules) {
            if (setting.enabled.value_or(true)) selection.only.push_back(rule);
        }
    }
    return selection;
}

// Lints `rule_dir` as `tfsift lint --recursive` does (a module that another
// fixture module calls by a local path is "called"), running the fixture's
// rules only, and collects the expectations of every file it read.
FixtureOutcome run_rule_fixtures(const fs::path& rule_dir) {
    FixtureOutcome outcome;
    lint::LintRequest request;
    request.catalogue = lint::builtin_rules();
    request.paths = {rule_dir.string()};
    request.recursive = true;
    request.selection = fixture_selection(rule_dir);
    const lint::LintResult result = lint::run_session(request);
    std::string messages;
    for (const auto& [kind, text] : result.messages) messages += text + "\n";
    INFO(messages);
    REQUIRE(result.completed);
    for (const auto& file : result.files) {
        auto src = SourceFile::read(file);
        REQUIRE(src);
        outcome.expected.merge(expectations(*src));
        ++outcome.files;
    }
    // The lock file and the state file are not configuration files, but
    // lock rules report into them; both are named as the module's files are.
    for (const auto& dir : result.modules) {
        for (const char* name : {".terraform.lock.hcl", "terraform.tfstate"}) {
            fs::path extra = fs::path(dir) / name;
            if (!fs::is_regular_file(extra)) continue;
            auto src = SourceFile::read(extra.string());
            REQUIRE(src);
            outcome.expected.merge(expectations(SourceFile(extra.string(), std::string(src->text()))));
        }
    }
    for (const auto& f : result.findings) {
        outcome.actual.insert(f.file->path() + ":" + std::to_string(f.file->line(f.range.start)) + " " + f.rule_id);
    }
    return outcome;
}

std::string difference(const std::multiset<std::string>& a, const std::multiset<std::string>& b) {
    std::multiset<std::string> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.begin()));
    std::string s;
    for (const auto& x : out) s += "  " + x + "\n";
    return s;
}

}  // namespace

TEST_CASE("every rule fixture gives exactly the annotated findings", "[lint][fixtures]") {
    REQUIRE(fs::is_directory(fixtures_root));
    std::size_t rule_dirs = 0;
    for (const auto& entry : fs::directory_iterator(fixtures_root)) {
        if (!entry.is_directory()) continue;
        ++rule_dirs;
        std::string id = entry.path().filename().string();
        // The rules of `tfsift lock diff` judge a change between two lock
        // files against a registry: lock_review_check.py runs their fixtures
        // with the fixture registry.
        const auto review = lint::builtin_review_rules();
        if (std::any_of(review.begin(), review.end(), [&](const lint::ReviewRule& r) { return r.rule.id == id; })) {
            continue;
        }
        SECTION(id) {
            INFO("fixtures/rules/" << id);
            bool known = lint::find_builtin_rule(id) != nullptr || id.rfind("policy-", 0) == 0;
            CHECK(known);
            FixtureOutcome outcome = run_rule_fixtures(entry.path());
            CHECK(outcome.files > 0);
            CHECK(!outcome.expected.empty());  // at least one failing case
            INFO("missing findings:\n"
                 << difference(outcome.expected, outcome.actual) << "unexpected findings:\n"
                 << difference(outcome.actual, outcome.expected));
            CHECK(outcome.expected == outcome.actual);
        }
    }
    CHECK(rule_dirs > 0);
}

TEST_CASE("every built-in rule has failing and passing fixtures", "[lint][fixtures]") {
    for (const auto& rule : lint::builtin_rules()) {
        INFO(rule.id);
        CHECK(fs::is_directory(fixtures_root / rule.id / "failing"));
        CHECK(fs::is_directory(fixtures_root / rule.id / "passing"));
    }
}
